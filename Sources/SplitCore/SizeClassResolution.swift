// Size classes of Apple device profiles (SEMANTICS 2).

extension DeviceProfile {
    /// Size classes of a window of `size` (already validated) on this device.
    /// - pad: full screen (as wide as the screen in the window's orientation, or wider) is
    ///   regular/regular; a narrower window is horizontally regular iff its width is at least
    ///   `windowedRegularMinWidth`; vertical stays regular.
    /// - phone: portrait compact/regular; landscape `landscapeHorizontalClass`/compact, per
    ///   model whatever the width.
    /// - mac: regular/regular.
    func traits(for size: Size, windowedRegularMinWidth: Double) -> Traits {
        decidedTraits(for: size, windowedRegularMinWidth: windowedRegularMinWidth).traits
    }

    /// `traits(for:windowedRegularMinWidth:)` with the row of the rules above that gave
    /// them: the one copy of those rules, which `explain` reads too.
    func decidedTraits(for size: Size, windowedRegularMinWidth: Double) -> (traits: Traits, rule: DeviceTraitRule) {
        switch idiom {
        case .mac:
            return (.regularRegular, .mac)
        case .phone:
            return size.orientation == .portrait
                ? (.compactRegular, .phonePortrait)
                : (
                    Traits(horizontalSizeClass: landscapeHorizontalClass, verticalSizeClass: .compact),
                    .phoneLandscape
                )
        case .pad:
            if size.width >= screen(in: size.orientation).width { return (.regularRegular, .padFullScreen) }
            return size.width >= windowedRegularMinWidth
                ? (.regularRegular, .padWindowedRegular) : (.compactRegular, .padWindowedCompact)
        }
    }
}

/// Which rule of a device profile gave a window's size classes (`explain`'s rule names).
public enum DeviceTraitRule: String, Hashable, Sendable {
    /// A Mac window: regular/regular.
    case mac = "device.mac"
    /// A portrait phone: compact/regular.
    case phonePortrait = "device.phonePortrait"
    /// A landscape phone: the model's `landscapeHorizontalClass`/compact.
    case phoneLandscape = "device.landscapeClass"
    /// An iPad window at least as wide as the screen: regular/regular.
    case padFullScreen = "device.padFullScreen"
    /// An iPad window at least `windowedRegularMinWidth` wide: regular/regular.
    case padWindowedRegular = "device.windowedRegularMinWidth"
    /// A narrower iPad window: compact/regular.
    case padWindowedCompact = "device.windowedCompact"
}
