// Presentations with revision 2's fields: `automatic`, popover anchors, edge attachment
// in compact height (SEMANTICS 6).

extension SplitEngine {
    /// The presentation a request adds to `state`, its anchor checked. Throws
    /// `invalid_intent` for an anchor on a style other than popover, for an anchor that is
    /// neither a view controller visible in the layout (the top of a visible column's
    /// stack, or of the collapsed stack) nor `displayModeButton` while the button is
    /// visible, and for a popover without an anchor where it would show as a popover
    /// (regular width and height; seed 003: "otherwise it crashes").
    func presentation(
        for request: PresentationRequest, in state: SceneState, layout: Layout
    ) throws(CoreError) -> Presentation {
        let style = request.style ?? .pageSheet
        if let anchor = request.anchor {
            guard style == .popover else {
                throw .invalidIntent("present: only a popover takes an anchor")
            }
            guard isVisibleAnchor(anchor, in: state, layout: layout) else {
                throw .invalidIntent(
                    "present: anchor '\(anchor)' is not visible (the top of a visible column, or a visible displayModeButton)"
                )
            }
        } else if Presentation.showsAsPopover(style, in: state.traits) {
            throw .invalidIntent("present: a popover in a regular width and height needs an anchor")
        }
        return Presentation(
            vc: request.vc, style: style, requestedAutomatic: request.style == nil ? true : nil,
            anchor: request.anchor,
            prefersEdgeAttachedInCompactHeight: request.prefersEdgeAttachedInCompactHeight ? true : nil)
    }

    private func isVisibleAnchor(_ anchor: String, in state: SceneState, layout: Layout) -> Bool {
        if anchor == PresentationRequest.displayModeButtonAnchor {
            return DisplayResolver.isButtonVisible(config: state.config, collapsed: state.collapsed)
        }
        return layout.columns.contains { $0.visible && $0.stack.last == anchor }
    }
}
