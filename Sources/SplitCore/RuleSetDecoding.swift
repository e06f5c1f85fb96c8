// The JSON form of rule sets (Config/rulesets.json, the daemon's config).

/// Any JSON object key.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension RuleCondition: Decodable {
    /// An object: every bound key (`min-width`...) and every `all` / `any` list in it must
    /// hold. Unknown keys are refused so that a typo does not silently match everything.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        var parts: [RuleCondition] = []
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            switch key.stringValue {
            case "all": parts.append(.all(try container.decode([RuleCondition].self, forKey: key)))
            case "any": parts.append(.any(try container.decode([RuleCondition].self, forKey: key)))
            default:
                guard
                    let bound = Self.bound(
                        named: key.stringValue, value: try? container.decode(Double.self, forKey: key))
                else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "unknown condition '\(key.stringValue)' (or not a number)")
                }
                parts.append(.bound(bound))
            }
        }
        self = parts.count == 1 ? parts[0] : .all(parts)
    }

    private static func bound(named key: String, value: Double?) -> RuleBound? {
        guard let value else { return nil }
        for kind in RuleBound.Kind.allCases {
            for measure in RuleBound.Measure.allCases where key == "\(kind.rawValue)-\(measure.rawValue)" {
                return RuleBound(kind, measure, value)
            }
        }
        return nil
    }
}

extension SizeClassRule: Decodable {
    enum CodingKeys: String, CodingKey { case when, horizontal, vertical }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            when: try c.decodeIfPresent(RuleCondition.self, forKey: .when) ?? .always,
            horizontal: try c.decodeIfPresent(SizeClass.self, forKey: .horizontal),
            vertical: try c.decodeIfPresent(SizeClass.self, forKey: .vertical))
    }
}

extension RuleSet: Decodable {
    enum CodingKeys: String, CodingKey { case name, defaults, hysteresis, rules }

    /// `{"name", "defaults": {"horizontal", "vertical"}, "hysteresis", "rules": [...]}`;
    /// defaults absent: regular / regular.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = try c.decodeIfPresent(DefaultClasses.self, forKey: .defaults) ?? DefaultClasses()
        self.init(
            name: try c.decode(String.self, forKey: .name),
            defaults: Traits(horizontalSizeClass: defaults.horizontal, verticalSizeClass: defaults.vertical),
            hysteresis: try c.decodeIfPresent(Double.self, forKey: .hysteresis) ?? 0,
            rules: try c.decodeIfPresent([SizeClassRule].self, forKey: .rules) ?? [])
    }

    private struct DefaultClasses: Decodable {
        var horizontal: SizeClass = .regular
        var vertical: SizeClass = .regular

        init() {}

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            horizontal = try c.decodeIfPresent(SizeClass.self, forKey: AnyKey(stringValue: "horizontal")) ?? .regular
            vertical = try c.decodeIfPresent(SizeClass.self, forKey: AnyKey(stringValue: "vertical")) ?? .regular
        }
    }
}

/// The top level of a rule-set file: `{"ruleSets": [...]}` (other keys, such as `notes`, ignored).
struct RuleSetFile: Decodable {
    var ruleSets: [RuleSet]
}
