/// The resolved layout of a scene: what every client draws (WIRE.md "Layout object").
public struct Layout: Codable, Hashable, Sendable {
    public var size: Size
    public var orientation: Orientation
    public var traits: Traits
    public var collapsed: Bool
    /// Never `.automatic`; nil exactly when collapsed.
    public var displayMode: DisplayMode?
    /// Never `.automatic`; nil exactly when collapsed.
    public var splitBehavior: SplitBehavior?
    /// Every column of the style in order (primary, supplementary, secondary); when
    /// collapsed, one entry with column `compact` holding the visible stack.
    public var columns: [ColumnLayout]
    public var presentations: [PresentationLayout]
    /// The selected tab when the primary holds a tab bar (extension of protocol 1).
    public var selectedTab: Int?
    /// Revision 2's fields (interface orientation, activation, display-mode button,
    /// presentation anchors, the inspector). The engine always sets them; nil in a layout
    /// built by hand or read from a record written before they existed.
    public var revision2: Revision2Layout?

    public init(
        size: Size, orientation: Orientation, traits: Traits, collapsed: Bool,
        displayMode: DisplayMode?, splitBehavior: SplitBehavior?,
        columns: [ColumnLayout], presentations: [PresentationLayout], selectedTab: Int? = nil,
        revision2: Revision2Layout? = nil
    ) {
        self.size = size
        self.orientation = orientation
        self.traits = traits
        self.collapsed = collapsed
        self.displayMode = displayMode
        self.splitBehavior = splitBehavior
        self.columns = columns
        self.presentations = presentations
        self.selectedTab = selectedTab
        self.revision2 = revision2
    }

    enum CodingKeys: String, CodingKey {
        case size, orientation, traits, collapsed, displayMode, splitBehavior, columns, presentations, selectedTab
        case revision2
    }

    // displayMode/splitBehavior are written as explicit nulls when collapsed (WIRE.md).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(size, forKey: .size)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(traits, forKey: .traits)
        try c.encode(collapsed, forKey: .collapsed)
        try c.encode(displayMode, forKey: .displayMode)
        try c.encode(splitBehavior, forKey: .splitBehavior)
        try c.encode(columns, forKey: .columns)
        try c.encode(presentations, forKey: .presentations)
        try c.encodeIfPresent(selectedTab, forKey: .selectedTab)
        try c.encodeIfPresent(revision2, forKey: .revision2)
    }

    /// The visible top view controllers, for appear/disappear accounting.
    public var visibleColumns: [ColumnLayout] { columns.filter(\.visible) }
}

/// One column's frame and stack. `x` and `width` are in window coordinates.
public struct ColumnLayout: Codable, Hashable, Sendable {
    public var column: Column
    public var visible: Bool
    public var x: Double
    public var width: Double
    /// Lies over the secondary (overlay behavior).
    public var overlay: Bool
    /// The secondary under an overlay or displaced sidebar: dimmed and not interactive.
    public var dimmed: Bool
    /// Bottom first; the last element is the visible top.
    public var stack: [String]

    public init(
        column: Column, visible: Bool, x: Double, width: Double,
        overlay: Bool = false, dimmed: Bool = false, stack: [String]
    ) {
        self.column = column
        self.visible = visible
        self.x = x
        self.width = width
        self.overlay = overlay
        self.dimmed = dimmed
        self.stack = stack
    }
}

/// A modal presentation: the requested style and the one in effect after compact adaptation.
public struct PresentationLayout: Codable, Hashable, Sendable {
    public var vc: String
    public var style: PresentationStyle
    public var effectiveStyle: PresentationStyle

    public init(vc: String, style: PresentationStyle, effectiveStyle: PresentationStyle) {
        self.vc = vc
        self.style = style
        self.effectiveStyle = effectiveStyle
    }
}
