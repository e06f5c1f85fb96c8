// The seam between size-class/display resolution (core-layout) and the reducer
// (core-navigation). Signatures are fixed by the lead; bodies belong to core-layout.

/// What the display side remembers between changes. Stored inside `SceneState`.
public struct DisplayMemory: Codable, Hashable, Sendable {
    /// A display mode chosen by a user action (button, gesture, tap on dimmed, showColumn,
    /// hideColumn). Holds until the next change of orientation or size class (SEMANTICS 5).
    public var userDisplayMode: DisplayMode?
    /// The traits last resolved, used by rule-set hysteresis.
    public var lastTraits: Traits?

    public init(userDisplayMode: DisplayMode? = nil, lastTraits: Traits? = nil) {
        self.userDisplayMode = userDisplayMode
        self.lastTraits = lastTraits
    }
}

/// Frame of one column of an expanded scene, before stacks are attached.
public struct ColumnFrame: Hashable, Sendable {
    public var column: Column
    public var visible: Bool
    public var x: Double
    public var width: Double
    public var overlay: Bool
    public var dimmed: Bool

    public init(column: Column, visible: Bool, x: Double, width: Double, overlay: Bool, dimmed: Bool) {
        self.column = column
        self.visible = visible
        self.x = x
        self.width = width
        self.overlay = overlay
        self.dimmed = dimmed
    }
}

/// Display mode, behavior and frames of an expanded scene.
public struct ExpandedResolution: Hashable, Sendable {
    public var displayMode: DisplayMode     // never .automatic
    public var splitBehavior: SplitBehavior // never .automatic
    /// Every column of the style, in order (primary, [supplementary], secondary).
    public var frames: [ColumnFrame]

    public init(displayMode: DisplayMode, splitBehavior: SplitBehavior, frames: [ColumnFrame]) {
        self.displayMode = displayMode
        self.splitBehavior = splitBehavior
        self.frames = frames
    }
}

/// The user display actions of SEMANTICS 5 that act on an expanded scene.
public enum DisplayAction: Hashable, Sendable {
    case displayModeButton
    case gesture
    case tapDimmed
    case showColumn(Column)
    case hideColumn(Column)
}

/// A named size a device profile offers (SEMANTICS 2 multitasking presets).
public struct NamedSize: Codable, Hashable, Sendable {
    /// e.g. `full`, `2/3`, `1/2`, `1/3`, `slideOver`.
    public var name: String
    public var orientation: Orientation
    public var size: Size

    public init(name: String, orientation: Orientation, size: Size) {
        self.name = name
        self.orientation = orientation
        self.size = size
    }
}

/// Limits the reducer enforces (`limit_exceeded`). The daemon sets them from its config.
public struct CoreLimits: Codable, Hashable, Sendable {
    public var maxStackDepth: Int = 64
    public var maxIdLength: Int = 128
    public var maxPresentations: Int = 16
    public var maxTabs: Int = 32
    public var maxSnapshotSizes: Int = 64

    public init() {}
}
