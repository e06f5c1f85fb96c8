// The interface orientation: how the device is held (SEMANTICS 1, revision 2).

extension DeviceCatalog {
    /// SEMANTICS 1's rule for a window of `size` on `device`, nil when it cannot decide:
    /// for a pad or phone profile, `landscape` when the window is as high as the screen's
    /// short side and `portrait` when as high as its long side, within 1 pt (a Split View
    /// window is as high as the screen whatever its width); nil for other heights (Slide
    /// Over, free windows), whose value is the last one. For `mac` and rule sets (no screen)
    /// the window's own orientation.
    public func interfaceOrientationRule(device: String, size: Size) -> Orientation? {
        guard let profile = profile(device), profile.idiom != .mac else { return size.orientation }
        let short = min(profile.screen.width, profile.screen.height)
        let long = max(profile.screen.width, profile.screen.height)
        if abs(size.height - short) <= 1 { return .landscape }
        if abs(size.height - long) <= 1 { return .portrait }
        return nil
    }

    /// The interface orientation of a window with no earlier value to keep (a new scene):
    /// the rule, else the window's orientation.
    public func derivedInterfaceOrientation(device: String, size: Size) -> Orientation {
        interfaceOrientationRule(device: device, size: size) ?? size.orientation
    }
}

extension SplitEngine {
    /// The interface orientation of `state` (SEMANTICS 1).
    public func interfaceOrientation(of state: SceneState) -> Orientation {
        state.heldOrientation ?? catalog.derivedInterfaceOrientation(device: state.device, size: state.size)
    }

    /// Stores `orientation` as the interface orientation of `state`, in the normalized form
    /// `SceneState.heldOrientation` documents.
    func setInterfaceOrientation(_ orientation: Orientation, of state: inout SceneState) {
        let derived = catalog.derivedInterfaceOrientation(device: state.device, size: state.size)
        state.heldOrientation = orientation == derived ? nil : orientation
    }
}
