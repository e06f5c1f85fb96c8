// The values the reducer and the display resolution (DisplayModeResolution.swift,
// ColumnFrames.swift, DisplayActions.swift) exchange.

/// What the display side remembers between changes. Stored inside `SceneState`.
public struct DisplayMemory: Codable, Hashable, Sendable {
    /// A display mode chosen by a user action (button, gesture, tap on dimmed, showColumn,
    /// hideColumn). Holds until the next change of orientation or size class (SEMANTICS 5).
    public var userDisplayMode: DisplayMode?
    /// The traits last resolved. Mirrors `SceneState.traits` (which feeds rule-set
    /// hysteresis); kept so that persisted states keep their shape.
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
    public var displayMode: DisplayMode  // never .automatic
    public var splitBehavior: SplitBehavior  // never .automatic
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
