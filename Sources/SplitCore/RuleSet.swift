// Rule sets (SEMANTICS 2, ours): ordered size-class rules on the window.

/// A bound on one measure of the window. Bounds are inclusive, as in CSS media queries and
/// libadwaita breakpoints: `max-width 400` holds at 400.
public struct RuleBound: Hashable, Sendable {
    public enum Measure: String, Hashable, Sendable, CaseIterable {
        case width, height
        /// width / height.
        case aspect
    }

    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case minimum = "min", maximum = "max"
    }

    public var measure: Measure
    public var kind: Kind
    public var value: Double

    public init(_ kind: Kind, _ measure: Measure, _ value: Double) {
        self.measure = measure
        self.kind = kind
        self.value = value
    }

    /// The JSON key, e.g. `min-width`.
    public var key: String { "\(kind.rawValue)-\(measure.rawValue)" }
}

/// A condition on the window size: bounds combined with `all` (and) / `any` (or), nestable.
public indirect enum RuleCondition: Hashable, Sendable {
    case bound(RuleBound)
    case all([RuleCondition])
    case any([RuleCondition])

    /// The condition that always holds (an empty `all`).
    public static let always = RuleCondition.all([])
}

/// One rule: when `condition` holds, it sets the size classes it names.
public struct SizeClassRule: Hashable, Sendable {
    public var condition: RuleCondition
    public var horizontal: SizeClass?
    public var vertical: SizeClass?

    public init(when condition: RuleCondition = .always, horizontal: SizeClass? = nil, vertical: SizeClass? = nil) {
        self.condition = condition
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

/// A named, ordered list of rules usable as a scene's `device`. Each size class comes from
/// the last matching rule that sets it, else from `defaults`.
public struct RuleSet: Hashable, Sendable {
    public var name: String
    public var defaults: Traits
    /// Points a window must go past a breakpoint before a class flips (0: none).
    public var hysteresis: Double
    public var rules: [SizeClassRule]

    public init(name: String, defaults: Traits = .regularRegular, hysteresis: Double = 0, rules: [SizeClassRule]) {
        self.name = name
        self.defaults = defaults
        self.hysteresis = hysteresis
        self.rules = rules
    }

    /// Throws `bad_request` for an unusable set (empty name, negative hysteresis, a rule that
    /// sets nothing, a bound that is not a finite non-negative number).
    public func validate() throws(CoreError) {
        guard !name.isEmpty else { throw .badRequest("rule set without a name") }
        guard hysteresis.isFinite, hysteresis >= 0 else {
            throw .badRequest("rule set '\(name)': hysteresis must be a finite number >= 0")
        }
        for (index, rule) in rules.enumerated() {
            guard rule.horizontal != nil || rule.vertical != nil else {
                throw .badRequest("rule set '\(name)': rule \(index) sets neither 'horizontal' nor 'vertical'")
            }
            for bound in rule.condition.bounds where !(bound.value.isFinite && bound.value >= 0) {
                throw .badRequest("rule set '\(name)': rule \(index): '\(bound.key)' must be a finite number >= 0")
            }
        }
    }
}

extension RuleCondition {
    /// Every bound the condition mentions.
    var bounds: [RuleBound] {
        switch self {
        case .bound(let bound): [bound]
        case .all(let parts), .any(let parts): parts.flatMap(\.bounds)
        }
    }
}
