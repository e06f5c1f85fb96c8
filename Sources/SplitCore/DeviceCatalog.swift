// OWNER: core-layout. STUB written by the lead so that everyone compiles; replace the bodies.

/// Device profiles and rule sets (SEMANTICS 2), loaded from `Config/` data.
public struct DeviceCatalog: Sendable {
    /// The catalog shipped in `Config/` (embedded at build time).
    public static let builtIn: DeviceCatalog = DeviceCatalog()

    init() {}

    /// True if `device` names a profile or a rule set.
    public func contains(device: String) -> Bool { fatalError("stub") }

    /// All profile ids and rule-set names.
    public var deviceNames: [String] { fatalError("stub") }

    /// Size used by `scene.create` without `size`: the full screen in landscape; nil for
    /// rule sets (a size is then required).
    public func defaultSize(device: String) -> Size? { fatalError("stub") }

    /// Size classes for a window of `size` on `device`. `previous` feeds rule-set hysteresis.
    public func traits(device: String, size: Size, previous: Traits?) throws(CoreError) -> Traits {
        fatalError("stub")
    }

    /// The multitasking presets of a device profile, both orientations (empty for rule sets).
    public func presets(device: String) -> [NamedSize] { fatalError("stub") }

    /// The sizes of a snapshot preset (`appSwitcher`, or `ORIENTATION/NAME` such as
    /// `portrait/1/3`) for a scene of `device` currently at `current`; nil if unknown.
    public func presetSizes(_ preset: String, device: String, current: Size) -> [Size]? { fatalError("stub") }
}

/// Display mode / split behavior / frames of expanded scenes, and the user display actions.
public enum DisplayResolver {
    /// SEMANTICS 5 for an expanded scene.
    public static func resolve(config: SplitConfig, size: Size, memory: DisplayMemory) -> ExpandedResolution {
        fatalError("stub")
    }

    /// Applies a user display action to an expanded scene and answers the new memory (its
    /// `userDisplayMode` set); answers `memory` unchanged when the action is ignored.
    public static func apply(_ action: DisplayAction, config: SplitConfig, size: Size,
                             memory: DisplayMemory) throws(CoreError) -> DisplayMemory {
        fatalError("stub")
    }

    /// Drops a user-chosen mode when orientation or a size class changed (SEMANTICS 5).
    public static func expire(_ memory: DisplayMemory, from oldSize: Size, to newSize: Size,
                              oldTraits: Traits, newTraits: Traits) -> DisplayMemory {
        fatalError("stub")
    }
}

extension SplitConfig {
    /// Throws `bad_request` for impossible values (negative/NaN widths, min > max,
    /// fraction outside 0...1, tabs without roots...).
    public func validate() throws(CoreError) { fatalError("stub") }

    /// The configuration with `patch` applied, validated.
    public func applying(_ patch: SplitConfigPatch) throws(CoreError) -> SplitConfig { fatalError("stub") }
}
