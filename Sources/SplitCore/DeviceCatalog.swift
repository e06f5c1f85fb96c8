// OWNER: core-layout. Quick working version (full data-driven version follows).

/// Device profiles and rule sets (SEMANTICS 2), loaded from `Config/` data.
public struct DeviceCatalog: Sendable {
    /// The catalog shipped in `Config/` (embedded at build time).
    public static let builtIn: DeviceCatalog = DeviceCatalog()

    init() {}

    private static let phones: [String: (Size, SizeClass)] = [
        "iphone-se": (Size(width: 320, height: 568), .compact),
        "iphone-8": (Size(width: 375, height: 667), .compact),
        "iphone-8-plus": (Size(width: 414, height: 736), .regular),
        "iphone-x": (Size(width: 375, height: 812), .compact),
        "iphone-11": (Size(width: 414, height: 896), .regular),
        "iphone-14": (Size(width: 390, height: 844), .compact),
        "iphone-14-plus": (Size(width: 428, height: 926), .regular),
        "iphone-15-pro": (Size(width: 393, height: 852), .compact),
        "iphone-15-pro-max": (Size(width: 430, height: 932), .regular),
        "iphone-17-pro": (Size(width: 402, height: 874), .compact),
        "iphone-17-pro-max": (Size(width: 440, height: 956), .regular),
    ]
    private static let pads: [String: Size] = [
        "ipad-pro-12.9": Size(width: 1024, height: 1366),
        "ipad-pro-11": Size(width: 834, height: 1194),
        "ipad-air-10.9": Size(width: 820, height: 1180),
        "ipad-10.5": Size(width: 834, height: 1112),
        "ipad-10.2": Size(width: 810, height: 1080),
        "ipad-9.7": Size(width: 768, height: 1024),
        "ipad-mini-8.3": Size(width: 744, height: 1133),
    ]
    private static let ruleSets: [String: Double] = [
        "material": 840, "adwaita": 401, "compact-below-1000": 1000, "regular-above-414": 414.000001,
    ]

    /// True if `device` names a profile or a rule set.
    public func contains(device: String) -> Bool { deviceNames.contains(device) }

    /// All profile ids and rule-set names.
    public var deviceNames: [String] {
        Array(Self.pads.keys) + Array(Self.phones.keys) + ["mac"] + Array(Self.ruleSets.keys)
    }

    /// Size used by `scene.create` without `size`: the full screen in landscape; nil for
    /// rule sets (a size is then required).
    public func defaultSize(device: String) -> Size? {
        if device == "mac" { return Size(width: 1280, height: 800) }
        guard let p = Self.pads[device] ?? Self.phones[device]?.0 else { return nil }
        return Size(width: p.height, height: p.width)
    }

    /// Size classes for a window of `size` on `device`. `previous` feeds rule-set hysteresis.
    public func traits(device: String, size: Size, previous: Traits?) throws(CoreError) -> Traits {
        guard size.isValidWindowSize else { throw .badRequest("invalid size \(size)") }
        if device == "mac" { return .regularRegular }
        if let screen = Self.pads[device] {
            let full = size.orientation == .landscape ? screen.height : screen.width
            return size.width >= full || size.width >= 640 ? .regularRegular : .compactRegular
        }
        if let (_, landscape) = Self.phones[device] {
            return size.orientation == .portrait ? .compactRegular
                : Traits(horizontalSizeClass: landscape, verticalSizeClass: .compact)
        }
        if let min = Self.ruleSets[device] {
            return size.width >= min ? .regularRegular : .compactRegular
        }
        throw CoreError(.unknownDevice, "unknown device '\(device)'")
    }

    /// The multitasking presets of a device profile, both orientations (empty for rule sets).
    public func presets(device: String) -> [NamedSize] {
        guard let l = defaultSize(device: device) else { return [] }
        return [NamedSize(name: "full", orientation: .landscape, size: l),
                NamedSize(name: "full", orientation: .portrait, size: Size(width: l.height, height: l.width))]
    }

    /// The sizes of a snapshot preset (`appSwitcher`, or `ORIENTATION/NAME` such as
    /// `portrait/1/3`) for a scene of `device` currently at `current`; nil if unknown.
    public func presetSizes(_ preset: String, device: String, current: Size) -> [Size]? {
        guard preset == "appSwitcher" else { return nil }
        let swapped = Size(width: current.height, height: current.width)
        return swapped == current ? [current] : [swapped, current]
    }
}

/// Display mode / split behavior / frames of expanded scenes, and the user display actions.
public enum DisplayResolver {
    /// SEMANTICS 5 for an expanded scene.
    public static func resolve(config: SplitConfig, size: Size, memory: DisplayMemory) -> ExpandedResolution {
        let landscape = size.orientation == .landscape
        let behavior: SplitBehavior = landscape ? .tile : .overlay
        let mode: DisplayMode = memory.userDisplayMode ?? (landscape ? .oneBesideSecondary : .secondaryOnly)
        let p = min(max(config.preferredPrimaryColumnWidth ?? 320, config.minimumPrimaryColumnWidth), config.maximumPrimaryColumnWidth)
        var frames: [ColumnFrame] = []
        let shows = mode != .secondaryOnly
        frames.append(ColumnFrame(column: .primary, visible: shows, x: 0, width: p, overlay: shows && !landscape, dimmed: false))
        if config.style == .tripleColumn {
            frames.append(ColumnFrame(column: .supplementary, visible: false, x: p, width: 320, overlay: false, dimmed: false))
        }
        let x = shows && landscape ? p : 0
        frames.append(ColumnFrame(column: .secondary, visible: true, x: x, width: size.width - x,
                                  overlay: false, dimmed: shows && !landscape))
        return ExpandedResolution(displayMode: mode, splitBehavior: behavior, frames: frames)
    }

    /// Applies a user display action to an expanded scene and answers the new memory (its
    /// `userDisplayMode` set); answers `memory` unchanged when the action is ignored.
    public static func apply(_ action: DisplayAction, config: SplitConfig, size: Size,
                             memory: DisplayMemory) throws(CoreError) -> DisplayMemory {
        var m = memory
        let current = resolve(config: config, size: size, memory: memory).displayMode
        let landscape = size.orientation == .landscape
        switch action {
        case .displayModeButton, .gesture:
            m.userDisplayMode = current == .secondaryOnly ? (landscape ? .oneBesideSecondary : .oneOverSecondary) : .secondaryOnly
        case .tapDimmed:
            if current == .oneOverSecondary { m.userDisplayMode = .secondaryOnly }
        case .showColumn(let c):
            if c == .compact { throw .invalidIntent("no compact column while expanded") }
            if c == .primary && current == .secondaryOnly { m.userDisplayMode = landscape ? .oneBesideSecondary : .oneOverSecondary }
        case .hideColumn(let c):
            if c == .compact { throw .invalidIntent("no compact column while expanded") }
            if c == .primary && current != .secondaryOnly { m.userDisplayMode = .secondaryOnly }
        }
        return m
    }

    /// Drops a user-chosen mode when orientation or a size class changed (SEMANTICS 5).
    public static func expire(_ memory: DisplayMemory, from oldSize: Size, to newSize: Size,
                              oldTraits: Traits, newTraits: Traits) -> DisplayMemory {
        var m = memory
        if oldSize.orientation != newSize.orientation || oldTraits != newTraits { m.userDisplayMode = nil }
        return m
    }
}

extension SplitConfig {
    /// Throws `bad_request` for impossible values (negative/NaN widths, min > max,
    /// fraction outside 0...1, tabs without roots...).
    public func validate() throws(CoreError) {
        if minimumPrimaryColumnWidth > maximumPrimaryColumnWidth { throw .badRequest("minimumPrimaryColumnWidth > maximumPrimaryColumnWidth") }
    }

    /// The configuration with `patch` applied, validated.
    public func applying(_ patch: SplitConfigPatch) throws(CoreError) -> SplitConfig {
        var c = self
        if let v = patch.style { c.style = v }
        if let v = patch.preferredDisplayMode { c.preferredDisplayMode = v }
        if let v = patch.preferredSplitBehavior { c.preferredSplitBehavior = v }
        if let v = patch.preferredPrimaryColumnWidth { c.preferredPrimaryColumnWidth = v }
        if let v = patch.preferredPrimaryColumnWidthFraction { c.preferredPrimaryColumnWidthFraction = v }
        if let v = patch.minimumPrimaryColumnWidth { c.minimumPrimaryColumnWidth = v }
        if let v = patch.maximumPrimaryColumnWidth { c.maximumPrimaryColumnWidth = v }
        if let v = patch.preferredSupplementaryColumnWidth { c.preferredSupplementaryColumnWidth = v }
        if let v = patch.preferredSupplementaryColumnWidthFraction { c.preferredSupplementaryColumnWidthFraction = v }
        if let v = patch.minimumSupplementaryColumnWidth { c.minimumSupplementaryColumnWidth = v }
        if let v = patch.maximumSupplementaryColumnWidth { c.maximumSupplementaryColumnWidth = v }
        if let v = patch.primaryEdge { c.primaryEdge = v }
        if let v = patch.layoutDirection { c.layoutDirection = v }
        if let v = patch.presentsWithGesture { c.presentsWithGesture = v }
        if let v = patch.showsSecondaryOnlyButton { c.showsSecondaryOnlyButton = v }
        if let v = patch.roots { c.roots = v }
        if let v = patch.placeholder { c.placeholder = v }
        if let v = patch.tabs { c.tabs = v }
        if let v = patch.collapsePolicy { c.collapsePolicy = v }
        if let v = patch.expandPolicy { c.expandPolicy = v }
        if let v = patch.topColumnForCollapsing { c.topColumnForCollapsing = v }
        if let v = patch.detailRouting { c.detailRouting = v }
        if let v = patch.backBehavior { c.backBehavior = v }
        if let v = patch.sizePolicy { c.sizePolicy = v }
        try c.validate()
        return c
    }
}
