// Size classes from a rule set, with hysteresis.

/// Kleene three-valued truth: a condition over a band of sizes may hold everywhere, nowhere,
/// or only somewhere (`all` / `any` combine them as Kleene's and / or).
enum Truth: Equatable {
    case yes, no, maybe
}

/// The sizes within `margin` points of a window size, per measure.
struct SizeBand {
    var width: ClosedRange<Double>
    var height: ClosedRange<Double>
    var aspect: ClosedRange<Double>

    init(_ size: Size, margin: Double) {
        let low = Size(width: max(size.width - margin, 0), height: max(size.height - margin, .leastNonzeroMagnitude))
        let high = Size(width: size.width + margin, height: size.height + margin)
        width = low.width...high.width
        height = low.height...high.height
        aspect = (low.width / high.height)...(high.width / low.height)
    }

    func range(of measure: RuleBound.Measure) -> ClosedRange<Double> {
        switch measure {
        case .width: width
        case .height: height
        case .aspect: aspect
        }
    }
}

extension RuleCondition {
    /// Whether the condition holds over the whole band, none of it, or part of it.
    func truth(over band: SizeBand) -> Truth {
        switch self {
        case .bound(let bound):
            let range = band.range(of: bound.measure)
            switch bound.kind {
            case .minimum: return range.lowerBound >= bound.value ? .yes : range.upperBound < bound.value ? .no : .maybe
            case .maximum: return range.upperBound <= bound.value ? .yes : range.lowerBound > bound.value ? .no : .maybe
            }
        case .all(let parts):
            var result = Truth.yes
            for part in parts {
                switch part.truth(over: band) {
                case .no: return .no
                case .maybe: result = .maybe
                case .yes: break
                }
            }
            return result
        case .any(let parts):
            var result = Truth.no
            for part in parts {
                switch part.truth(over: band) {
                case .yes: return .yes
                case .maybe: result = .maybe
                case .no: break
                }
            }
            return result
        }
    }
}

/// The values a size class may take over a band, as a two-bit set (no allocation: this runs
/// on every resize of every rule-set scene).
struct PossibleClasses: Equatable {
    private var bits: UInt8
    /// The index of the last rule that replaced the value (held everywhere), -1 for none:
    /// on a band of width 0, the rule that decided the class (`explain`).
    private(set) var decidingRule: Int = -1

    init(_ value: SizeClass) { bits = Self.bit(value) }

    private static func bit(_ value: SizeClass) -> UInt8 { value == .compact ? 1 : 2 }

    mutating func replace(with value: SizeClass, rule: Int) {
        bits = Self.bit(value)
        decidingRule = rule
    }
    mutating func add(_ value: SizeClass) { bits |= Self.bit(value) }

    /// The single possible value, nil when both are.
    var only: SizeClass? {
        switch bits {
        case 1: .compact
        case 2: .regular
        default: nil
        }
    }
}

extension RuleSet {
    /// The size classes of a window of `size`. With `previous` and a hysteresis h, a class
    /// differing from its previous value flips only if every size within h points of `size`
    /// gives the new value; otherwise it keeps the previous one.
    public func traits(for size: Size, previous: Traits?) -> Traits {
        decidedTraits(for: size, previous: previous).traits
    }

    /// `traits(for:previous:)` with what decided each class: the one copy of the rules,
    /// which `explain` reads too.
    func decidedTraits(
        for size: Size, previous: Traits?
    ) -> (traits: Traits, horizontal: RuleSetDecision, vertical: RuleSetDecision) {
        let exact = possibleClasses(over: SizeBand(size, margin: 0))
        var traits = Traits(
            horizontalSizeClass: exact.horizontal.only ?? defaults.horizontalSizeClass,
            verticalSizeClass: exact.vertical.only ?? defaults.verticalSizeClass)
        var horizontal = RuleSetDecision(rule: exact.horizontal.decidingRule, held: false)
        var vertical = RuleSetDecision(rule: exact.vertical.decidingRule, held: false)
        guard let previous, hysteresis > 0, previous != traits else { return (traits, horizontal, vertical) }
        let band = possibleClasses(over: SizeBand(size, margin: hysteresis))
        if traits.horizontalSizeClass != previous.horizontalSizeClass, band.horizontal.only == nil {
            traits.horizontalSizeClass = previous.horizontalSizeClass
            horizontal.held = true
        }
        if traits.verticalSizeClass != previous.verticalSizeClass, band.vertical.only == nil {
            traits.verticalSizeClass = previous.verticalSizeClass
            vertical.held = true
        }
        return (traits, horizontal, vertical)
    }

    /// The values each class may take over `band` (last matching rule wins). On a band of
    /// width 0 every condition is decided, so each class has exactly one possible value.
    func possibleClasses(over band: SizeBand) -> (horizontal: PossibleClasses, vertical: PossibleClasses) {
        var horizontal = PossibleClasses(defaults.horizontalSizeClass)
        var vertical = PossibleClasses(defaults.verticalSizeClass)
        for (index, rule) in rules.enumerated() {
            let truth = rule.condition.truth(over: band)
            guard truth != .no else { continue }
            if let value = rule.horizontal {
                if truth == .yes { horizontal.replace(with: value, rule: index) } else { horizontal.add(value) }
            }
            if let value = rule.vertical {
                if truth == .yes { vertical.replace(with: value, rule: index) } else { vertical.add(value) }
            }
        }
        return (horizontal, vertical)
    }
}

/// What decided one size class of a rule set: the last matching rule that sets it (`rule`
/// its index, -1 for the set's defaults), and whether hysteresis kept the previous value
/// instead (`held`: the window is within `hysteresis` points of a breakpoint).
struct RuleSetDecision: Hashable, Sendable {
    var rule: Int
    var held: Bool
}
