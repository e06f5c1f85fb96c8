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
        switch idiom {
        case .mac:
            return .regularRegular
        case .phone:
            return size.orientation == .portrait
                ? .compactRegular
                : Traits(horizontalSizeClass: landscapeHorizontalClass, verticalSizeClass: .compact)
        case .pad:
            let fullScreen = size.width >= screen(in: size.orientation).width
            let regular = fullScreen || size.width >= windowedRegularMinWidth
            return regular ? .regularRegular : .compactRegular
        }
    }
}
