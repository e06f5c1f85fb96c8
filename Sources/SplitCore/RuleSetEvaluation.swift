// OWNER: core-layout. Size classes from a rule set, with hysteresis.

/// Kleene three-valued truth: a condition over a band of sizes may hold everywhere, nowhere,
/// or only somewhere.
enum Truth: Equatable {
    case yes, no, maybe

    static func all(_ values: [Truth]) -> Truth {
        if values.contains(.no) { return .no }
        return values.contains(.maybe) ? .maybe : .yes
    }

    static func any(_ values: [Truth]) -> Truth {
        if values.contains(.yes) { return .yes }
        return values.contains(.maybe) ? .maybe : .no
    }
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
        case .all(let parts): return .all(parts.map { $0.truth(over: band) })
        case .any(let parts): return .any(parts.map { $0.truth(over: band) })
        }
    }
}

extension RuleSet {
    /// The size classes of a window of `size`. With `previous` and a hysteresis h, a class
    /// differing from its previous value flips only if every size within h points of `size`
    /// gives the new value; otherwise it keeps the previous one.
    public func traits(for size: Size, previous: Traits?) -> Traits {
        let exact = possibleClasses(over: SizeBand(size, margin: 0))
        var traits = Traits(horizontalSizeClass: exact.horizontal.first ?? defaults.horizontalSizeClass,
                            verticalSizeClass: exact.vertical.first ?? defaults.verticalSizeClass)
        guard let previous, hysteresis > 0, previous != traits else { return traits }
        let band = possibleClasses(over: SizeBand(size, margin: hysteresis))
        if traits.horizontalSizeClass != previous.horizontalSizeClass, band.horizontal.count > 1 {
            traits.horizontalSizeClass = previous.horizontalSizeClass
        }
        if traits.verticalSizeClass != previous.verticalSizeClass, band.vertical.count > 1 {
            traits.verticalSizeClass = previous.verticalSizeClass
        }
        return traits
    }

    /// The values each class may take over `band` (last matching rule wins). On a band of
    /// width 0 every condition is decided, so each set has exactly one element.
    func possibleClasses(over band: SizeBand) -> (horizontal: Set<SizeClass>, vertical: Set<SizeClass>) {
        var horizontal: Set<SizeClass> = [defaults.horizontalSizeClass]
        var vertical: Set<SizeClass> = [defaults.verticalSizeClass]
        for rule in rules {
            let truth = rule.condition.truth(over: band)
            guard truth != .no else { continue }
            if let value = rule.horizontal { horizontal = truth == .yes ? [value] : horizontal.union([value]) }
            if let value = rule.vertical { vertical = truth == .yes ? [value] : vertical.union([value]) }
        }
        return (horizontal, vertical)
    }
}
