// The inspector column (SEMANTICS 6, revision 2; iOS 26 UIKit's
// `UISplitViewController.Column.inspector`, SwiftUI's `.inspector`).

/// An intent naming the inspector column (WIRE.md: `showColumn`/`hideColumn`/`push`/`pop`/
/// `popToRoot` with `column: "inspector"`).
public enum InspectorIntent: Hashable, Sendable {
    case show, hide
    case push(vc: String)
    case pop, popToRoot
}

/// The inspector in a layout (WIRE.md: an `inspector` entry of `columns` while expanded, a
/// `presentations` entry with `source: inspector` while collapsed).
public struct InspectorLayout: Codable, Hashable, Sendable {
    /// Shown by `showColumn(inspector)`, not hidden since.
    public var shown: Bool
    /// On screen as a column: shown and expanded.
    public var visible: Bool
    /// Presented as a sheet: shown and collapsed.
    public var presentedAsSheet: Bool
    public var x: Double
    public var width: Double
    /// Lies over the secondary's trailing edge (too little room to tile).
    public var overlay: Bool
    /// Bottom first; the last element is the visible top.
    public var stack: [String]

    public init(
        shown: Bool, visible: Bool, presentedAsSheet: Bool, x: Double, width: Double, overlay: Bool, stack: [String]
    ) {
        self.shown = shown
        self.visible = visible
        self.presentedAsSheet = presentedAsSheet
        self.x = x
        self.width = width
        self.overlay = overlay
        self.stack = stack
    }
}

extension SplitEngine {
    /// Applies an inspector intent. Throws `invalid_intent` without a configured inspector
    /// and for a pop at its root; show/hide of what already is, and popToRoot at the root,
    /// change nothing. Works in both states: collapsed, showing presents it as a sheet.
    func reduceInspector(_ intent: InspectorIntent, _ state: SceneState) throws(CoreError) -> SceneState {
        guard state.config.roots.inspector != nil else {
            throw .invalidIntent("no inspector column: configure roots.inspector (column styles)")
        }
        var next = state
        switch intent {
        case .show: next.navigation.inspectorShown = true
        case .hide: next.navigation.inspectorShown = nil
        case .push(let vc):
            try checkViewControllerId(vc, limits: limits)
            guard state.navigation.inspector.count < limits.maxStackDepth else {
                throw CoreError(.limitExceeded, "stack deeper than \(limits.maxStackDepth)")
            }
            next.navigation.inspector.append(vc)
        case .pop:
            guard state.navigation.inspector.count > 1 else {
                throw .invalidIntent("pop at the root of the inspector column")
            }
            next.navigation.inspector.removeLast()
        case .popToRoot:
            next.navigation.inspector = Array(state.navigation.inspector.prefix(1))
        }
        if next.navigation != state.navigation { next.navigation.expandedFrom = nil }
        return next
    }

    /// The inspector of `state`'s layout; nil without a configured inspector.
    ///
    /// Width: preferred, else fraction x window width, else 320, clamped to [min, max].
    /// Expanded, it sits at the trailing edge (the leading one when the layout is mirrored:
    /// `primaryEdge: trailing` xor `rtl`), tiled beside the secondary when the secondary
    /// keeps at least 320 pt on screen, else over the secondary's trailing edge. Collapsed,
    /// a shown inspector is a sheet.
    public func inspectorLayout(of state: SceneState) -> InspectorLayout? {
        layout(of: state).revision2?.inspector
    }
}

extension LayoutAssembly {
    /// The inspector and the secondary's frame once a tiled inspector took its room; nil
    /// without a configured inspector. Pure: reads only `state` and the protocol-1 layout.
    static func inspectorFrame(
        of state: SceneState, layout: Layout
    ) -> (inspector: InspectorLayout, secondary: ColumnLayout?)? {
        let config = state.config
        guard config.roots.inspector != nil else { return nil }
        let shown = state.navigation.inspectorShown == true
        let windowWidth = state.size.width
        let width = ColumnWidths.width(
            preferred: config.preferredInspectorColumnWidth,
            fraction: config.preferredInspectorColumnWidthFraction,
            minimum: config.minimumInspectorColumnWidth,
            maximum: config.maximumInspectorColumnWidth, windowWidth: windowWidth)
        let mirrored = (config.primaryEdge == .trailing) != (config.layoutDirection == .rtl)
        let x = mirrored ? 0 : windowWidth - width
        let stack = state.navigation.inspector
        guard shown, !state.collapsed, var secondary = layout.columns.first(where: { $0.column == .secondary }) else {
            return (
                InspectorLayout(
                    shown: shown, visible: false, presentedAsSheet: shown && state.collapsed,
                    x: x, width: width, overlay: false, stack: stack), nil
            )
        }
        let onScreen = min(secondary.x + secondary.width, windowWidth) - max(secondary.x, 0)
        let tiled = onScreen - width >= DisplayResolver.minimumSecondaryWidth
        if tiled {
            secondary.width -= width
            if mirrored { secondary.x += width }
        }
        return (
            InspectorLayout(
                shown: true, visible: true, presentedAsSheet: false, x: x, width: width,
                overlay: !tiled, stack: stack), tiled ? secondary : nil
        )
    }
}

extension SplitEngine {
    /// `appear`/`disappear` of the inspector's top when it starts or stops being seen (as a
    /// column or a sheet) or its top changes while seen; after the other appear/disappear.
    func appendInspectorVisibilityEvents(
        from old: SceneState, to new: SceneState, placedIn events: [SceneEvent],
        to placed: inout [PositionedEvent]
    ) {
        func seenTop(_ state: SceneState) -> String? {
            guard state.config.roots.inspector != nil, state.navigation.inspectorShown == true else { return nil }
            return state.navigation.inspector.last
        }
        let before = seenTop(old), after = seenTop(new)
        guard before != after else { return }
        let position =
            (events.lastIndex {
                switch $0 {
                case .appear, .disappear: true
                default: false
                }
            }).map { $0 + 1 } ?? events.firstIndex {
                switch $0 {
                case .dismissed, .presented: true
                default: false
                }
            } ?? events.count
        if let before { placed.append(PositionedEvent(.inspectorDisappear(vc: before), at: position)) }
        if let after { placed.append(PositionedEvent(.inspectorAppear(vc: after), at: position)) }
    }
}
