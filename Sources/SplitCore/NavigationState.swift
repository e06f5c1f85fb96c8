/// The navigation part of a scene (SEMANTICS 6): per-column stacks, tabs, modal
/// presentations and, while collapsed, the one visible stack.
///
/// While the scene is collapsed the column stacks keep what they held at collapse time:
/// that is the bookkeeping that lets expand restore them exactly (round-trip guarantee).
/// The visible stack is then `collapsed.entries`.
public struct NavigationState: Codable, Hashable, Sendable {
    /// Bottom first. With tabs: the selected tab's primary stack.
    public var primary: [String] = []
    /// Kept (hidden) in two-column styles so that switching back to tripleColumn restores it.
    public var supplementary: [String] = []
    /// Bottom first; its root is `roots.secondary` or the placeholder.
    public var secondary: [String] = []
    /// The optional compact column's stack (shown instead of the stacked columns while collapsed).
    public var compact: [String] = []
    /// Id of the secondary's placeholder root (seed 000's EmptyController); nil: none.
    public var placeholder: String?
    /// One entry per configured tab; the selected tab's stacks live in the columns.
    public var tabs: [TabState] = []
    /// Index into `tabs`; nil exactly when there are no tabs.
    public var selectedTab: Int?
    /// Modal stack, bottom first.
    public var presentations: [Presentation] = []
    /// The column the user navigated in last (for `topColumnForCollapsing: lastNavigated`).
    public var lastNavigated: Column?
    /// The visible stack and its bookkeeping; nil exactly when expanded.
    public var collapsed: CollapsedStack?
    /// While expanded: the collapsed navigation the last expand started from, when the expand
    /// policy had to redistribute it (navigation while collapsed). Collapsing again with no
    /// navigation in between gives it back exactly: the round-trip guarantee from a collapsed
    /// base (SEMANTICS 8.3). Dropped by any navigation or reconfiguration.
    public var expandedFrom: ExpandedFrom?
    /// The inspector column's own stack (SEMANTICS 6, revision 2); empty without one.
    public var inspector: [String] = []
    /// True while the inspector is shown (a column expanded, a sheet collapsed); nil: hidden.
    public var inspectorShown: Bool?

    public init() {}

    /// The live stack of an expanded column.
    public func stack(_ column: Column) -> [String] {
        switch column {
        case .primary: primary
        case .supplementary: supplementary
        case .secondary: secondary
        case .compact: compact
        }
    }

    /// Replaces the live stack of a column.
    public mutating func setStack(_ column: Column, _ stack: [String]) {
        switch column {
        case .primary: primary = stack
        case .supplementary: supplementary = stack
        case .secondary: secondary = stack
        case .compact: compact = stack
        }
    }
}

/// The saved stacks of a tab that is not selected (seed 000: each tab keeps its own
/// navigation and its own detail stack). Empty for the selected tab, whose stacks are live.
public struct TabState: Codable, Hashable, Sendable {
    /// The tab's primary stack (its root first); empty while the tab is selected.
    public var primary: [String]
    /// What the secondary held above its root when the tab was left.
    public var savedDetail: [String]
    /// The secondary's whole stack when the tab was left, if it no longer started at its
    /// root (a `replace` showDetail); then `savedDetail` is empty. Kept apart so that a
    /// saved detail still sits on the current root when the root changes (setConfig).
    public var savedSecondary: [String]?

    public init(primary: [String] = [], savedDetail: [String] = [], savedSecondary: [String]? = nil) {
        self.primary = primary
        self.savedDetail = savedDetail
        self.savedSecondary = savedSecondary
    }

    /// The state of a tab left with these stacks.
    init(leaving primary: [String], secondary: [String], root: String) {
        if secondary.first == root {
            self.init(primary: primary, savedDetail: Array(secondary.dropFirst()))
        } else {
            self.init(primary: primary, savedSecondary: secondary)
        }
    }

    /// The secondary stack to show when the tab is selected again.
    func restoredSecondary(root: String) -> [String] {
        savedSecondary ?? [root] + savedDetail
    }
}

/// One modal presentation. The effective style is derived from the traits at layout time
/// (SEMANTICS 6). Optional fields are nil at their default, so that a presentation
/// persisted before they existed reads back as it was.
public struct Presentation: Codable, Hashable, Sendable {
    public var vc: String
    /// The requested style; `pageSheet` for a request of style `automatic`.
    public var style: PresentationStyle
    /// True when the request said `automatic` (revision 2); nil: false.
    public var requestedAutomatic: Bool?
    /// The view controller (or `displayModeButton`) a popover points at; nil: none.
    public var anchor: String?
    /// UIKit's `prefersEdgeAttachedInCompactHeight` (revision 2); nil: false.
    public var prefersEdgeAttachedInCompactHeight: Bool?

    public init(
        vc: String, style: PresentationStyle, requestedAutomatic: Bool? = nil, anchor: String? = nil,
        prefersEdgeAttachedInCompactHeight: Bool? = nil
    ) {
        self.vc = vc
        self.style = style
        self.requestedAutomatic = requestedAutomatic
        self.anchor = anchor
        self.prefersEdgeAttachedInCompactHeight = prefersEdgeAttachedInCompactHeight
    }

    /// Adaptation, recomputed for every size:
    /// - compact height (revision 2: iPhone landscape, Plus/Max included): pageSheet,
    ///   formSheet and popover become `fullScreen`, or `pageSheet` when the presentation
    ///   prefers to stay edge-attached;
    /// - compact width (iOS 13's card): popover and formSheet become `pageSheet`;
    /// - regular width and height: a popover without an anchor is a `formSheet` (ours: it
    ///   was presented where it adapted, which needs no anchor).
    public func effectiveStyle(in traits: Traits) -> PresentationStyle {
        decidedEffectiveStyle(in: traits).style
    }

    /// `effectiveStyle(in:)` with the rule that gave it (`explain`'s rule names): the one
    /// copy of the rules.
    func decidedEffectiveStyle(in traits: Traits) -> (style: PresentationStyle, rule: String) {
        if traits.verticalSizeClass == .compact, style != .fullScreen {
            return prefersEdgeAttachedInCompactHeight == true
                ? (.pageSheet, "presentation.compactHeight.edgeAttached") : (.fullScreen, "presentation.compactHeight")
        }
        if traits.horizontalSizeClass == .compact, style == .popover || style == .formSheet {
            return (.pageSheet, "presentation.compactWidth")
        }
        if traits.horizontalSizeClass != .compact, style == .popover, anchor == nil {
            return (.formSheet, "presentation.popoverWithoutAnchor")
        }
        return (style, "presentation.asRequested")
    }

    /// True when this presentation shows as a popover in `traits` and so needs an anchor.
    static func showsAsPopover(_ style: PresentationStyle, in traits: Traits) -> Bool {
        style == .popover && traits == .regularRegular
    }
}

/// A `present` intent with revision 2's fields (WIRE.md: `style` may be `automatic`,
/// `anchor`, `prefersEdgeAttachedInCompactHeight`).
public struct PresentationRequest: Codable, Hashable, Sendable {
    public var vc: String
    /// nil: `automatic` (UIKit's default), a `pageSheet` before adaptation.
    public var style: PresentationStyle?
    public var anchor: String?
    public var prefersEdgeAttachedInCompactHeight: Bool

    public init(
        vc: String, style: PresentationStyle?, anchor: String? = nil,
        prefersEdgeAttachedInCompactHeight: Bool = false
    ) {
        self.vc = vc
        self.style = style
        self.anchor = anchor
        self.prefersEdgeAttachedInCompactHeight = prefersEdgeAttachedInCompactHeight
    }

    /// The anchor name of the display-mode button.
    public static let displayModeButtonAnchor = "displayModeButton"
}

/// Where an entry of the collapsed stack comes from.
public enum EntryOrigin: String, Codable, Hashable, Sendable, CaseIterable {
    /// Moved from that column at collapse time (or by `showColumn` while collapsed).
    case primary, supplementary, secondary, compact
    /// Pushed while collapsed: belongs with the entry below it.
    case pushed
    /// Shown by `showDetail` while collapsed: goes to the secondary on expand.
    case detail

    init(_ column: Column) {
        switch column {
        case .primary: self = .primary
        case .supplementary: self = .supplementary
        case .secondary: self = .secondary
        case .compact: self = .compact
        }
    }

    /// The column an entry of this origin came from, if any.
    var column: Column? {
        switch self {
        case .primary: .primary
        case .supplementary: .supplementary
        case .secondary: .secondary
        case .compact: .compact
        case .pushed, .detail: nil
        }
    }
}

/// One view controller of the collapsed stack and its provenance.
public struct StackEntry: Codable, Hashable, Sendable {
    public var vc: String
    public var origin: EntryOrigin

    public init(vc: String, origin: EntryOrigin) {
        self.vc = vc
        self.origin = origin
    }
}

/// The collapsed stack plus what expand needs to undo the collapse.
public struct CollapsedStack: Codable, Hashable, Sendable {
    /// The one visible stack, bottom first.
    public var entries: [StackEntry]
    /// `entries` as collapse built them: equal means no net navigation since, and expand
    /// then restores the column stacks verbatim whatever the policies.
    public var built: [StackEntry]
    /// How many entries (a suffix of each column's stack) were moved onto the collapsed
    /// stack; the rest of the column stayed hidden below (e.g. the secondary's root under
    /// `moveDetailExceptRoot`).
    public var shares: ColumnShares

    public init(entries: [StackEntry], built: [StackEntry], shares: ColumnShares) {
        self.entries = entries
        self.built = built
        self.shares = shares
    }

    /// The view-controller ids, bottom first.
    public var vcs: [String] { entries.map(\.vc) }

    /// Back to exactly what collapse built (e.g. `showColumn` then a pop): forget the
    /// shares navigation added, so that equal stacks mean equal states.
    mutating func settle() {
        guard entries == built else { return }
        shares = ColumnShares()
        for entry in built {
            if let column = entry.origin.column { shares[column] += 1 }
        }
    }
}

/// A count per stacked column.
public struct ColumnShares: Codable, Hashable, Sendable {
    public var primary: Int = 0
    public var supplementary: Int = 0
    public var secondary: Int = 0

    public init(primary: Int = 0, supplementary: Int = 0, secondary: Int = 0) {
        self.primary = primary
        self.supplementary = supplementary
        self.secondary = secondary
    }

    public subscript(column: Column) -> Int {
        get {
            switch column {
            case .primary: primary
            case .supplementary: supplementary
            case .secondary: secondary
            case .compact: 0
            }
        }
        set {
            switch column {
            case .primary: primary = newValue
            case .supplementary: supplementary = newValue
            case .secondary: secondary = newValue
            case .compact: break
            }
        }
    }
}

extension NavigationState {
    enum CodingKeys: String, CodingKey {
        case primary, supplementary, secondary, compact, placeholder, tabs, selectedTab, presentations,
            lastNavigated, collapsed, expandedFrom, inspector, inspectorShown
    }

    /// Missing keys decode as empty, so states persisted before a field existed still load.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        primary = try c.decodeIfPresent([String].self, forKey: .primary) ?? []
        supplementary = try c.decodeIfPresent([String].self, forKey: .supplementary) ?? []
        secondary = try c.decodeIfPresent([String].self, forKey: .secondary) ?? []
        compact = try c.decodeIfPresent([String].self, forKey: .compact) ?? []
        placeholder = try c.decodeIfPresent(String.self, forKey: .placeholder)
        tabs = try c.decodeIfPresent([TabState].self, forKey: .tabs) ?? []
        selectedTab = try c.decodeIfPresent(Int.self, forKey: .selectedTab)
        presentations = try c.decodeIfPresent([Presentation].self, forKey: .presentations) ?? []
        lastNavigated = try c.decodeIfPresent(Column.self, forKey: .lastNavigated)
        collapsed = try c.decodeIfPresent(CollapsedStack.self, forKey: .collapsed)
        expandedFrom = try c.decodeIfPresent(NavigationState.self, forKey: .expandedFrom).map(ExpandedFrom.init)
        inspector = try c.decodeIfPresent([String].self, forKey: .inspector) ?? []
        inspectorShown = try c.decodeIfPresent(Bool.self, forKey: .inspectorShown)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(primary, forKey: .primary)
        try c.encode(supplementary, forKey: .supplementary)
        try c.encode(secondary, forKey: .secondary)
        try c.encode(compact, forKey: .compact)
        try c.encodeIfPresent(placeholder, forKey: .placeholder)
        try c.encode(tabs, forKey: .tabs)
        try c.encodeIfPresent(selectedTab, forKey: .selectedTab)
        try c.encode(presentations, forKey: .presentations)
        try c.encodeIfPresent(lastNavigated, forKey: .lastNavigated)
        try c.encodeIfPresent(collapsed, forKey: .collapsed)
        try c.encodeIfPresent(expandedFrom?.navigation, forKey: .expandedFrom)
        if !inspector.isEmpty { try c.encode(inspector, forKey: .inspector) }
        try c.encodeIfPresent(inspectorShown, forKey: .inspectorShown)
    }
}

/// `NavigationState.expandedFrom`: a navigation state held inside one, hence a box. Immutable.
public final class ExpandedFrom: Hashable, Sendable {
    public let navigation: NavigationState

    public init(_ navigation: NavigationState) {
        self.navigation = navigation
    }

    public static func == (a: ExpandedFrom, b: ExpandedFrom) -> Bool { a === b || a.navigation == b.navigation }

    public func hash(into hasher: inout Hasher) { hasher.combine(navigation) }
}
