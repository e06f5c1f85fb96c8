// Trait overrides layered on a device (SEMANTICS 2, revision 2; UIKit's
// `setOverrideTraitCollection` of seeds 000 and 004).

extension RuleSet {
    /// `base` (the device's classes) overridden by this set for a window of `size`: each
    /// class comes from the last matching rule that sets it, else stays `base`'s ("the
    /// other values of the trait collection remain untouched", seed 004). The set's
    /// `defaults` do not apply. Hysteresis works as for a set used alone, from `previous`.
    public func overriding(_ base: Traits, size: Size, previous: Traits?) -> Traits {
        var layered = self
        layered.defaults = base
        return layered.traits(for: size, previous: previous)
    }
}

extension SplitEngine {
    /// The size classes of a window of `size` on `device`, overridden by the rule set
    /// `overrides` when one is named. Throws `unknown_device` for an unknown device or
    /// override set (a profile is not a rule set).
    func resolveTraits(device: String, overrides: String?, size: Size, previous: Traits?) throws(CoreError) -> Traits {
        let base = try catalog.traits(device: device, size: size, previous: previous)
        guard let overrides else { return base }
        guard let ruleSet = catalog.ruleSet(overrides) else {
            throw CoreError(.unknownDevice, "traitOverrides: no rule set named '\(overrides)'")
        }
        return ruleSet.overriding(base, size: size, previous: previous)
    }
}
