/// What the reducer knows about a transition beyond the two layouts.
struct TransitionNote: Hashable, Sendable {
    /// Ids moved onto the collapsed stack, when the change collapsed the scene.
    var collapsed: [String]?
    /// Ids moved back to the columns, when the change expanded the scene.
    var expanded: [String]?

    static let none = TransitionNote()
}

/// The one place that orders the events of a change, in the order SEMANTICS 7 lists them
/// (the trait change comes before the size change, as UIKit calls `willTransition(to:
/// UITraitCollection)` before `viewWillTransition(to:)`, seed 003):
/// 1. `traitsChanged` when a size class changed;
/// 2. `willCollapse`/`didCollapse` or `willExpand`/`didExpand` with the moved ids;
/// 3. `displayModeChanged(from:to:)` (nil while collapsed) when the resolved mode changed;
/// 4. `viewWillTransition(to:)` when the size changed;
/// 5. `disappear` for every view controller no longer visible, in the old layout's order;
/// 6. `appear` for every newly visible view controller, in the new layout's order;
/// 7. `dismissed` (top first) then `presented` (bottom first, with the effective style).
///
/// Visible (ours): the top of each visible column's stack, or the top of the collapsed
/// stack; a presentation whose effective style is `fullScreen` hides every column (sheets
/// and popovers do not). A view controller is identified by its id: one that stays visible,
/// even in another column (collapse, expand), gets neither event. Presented view
/// controllers get `presented`/`dismissed`, not appear/disappear.
enum EventOrder {
    static func events(from old: Layout, to new: Layout, note: TransitionNote) -> [SceneEvent] {
        var events: [SceneEvent] = []
        if old.traits != new.traits { events.append(.traitsChanged(from: old.traits, to: new.traits)) }
        if let moved = note.collapsed { events += [.willCollapse(moved: moved), .didCollapse(moved: moved)] }
        if let moved = note.expanded { events += [.willExpand(moved: moved), .didExpand(moved: moved)] }
        if old.displayMode != new.displayMode {
            events.append(.displayModeChanged(from: old.displayMode, to: new.displayMode))
        }
        if old.size != new.size { events.append(.viewWillTransition(to: new.size)) }
        events += visibilityEvents(from: old, to: new)
        events += presentationEvents(from: old.presentations, to: new.presentations)
        return events
    }

    static func visibilityEvents(from old: Layout, to new: Layout) -> [SceneEvent] {
        let before = visibleControllers(old)
        let after = visibleControllers(new)
        // A handful of columns: linear scans beat building sets.
        let gone = before.filter { top in !after.contains { $0.vc == top.vc } }
        let came = after.filter { top in !before.contains { $0.vc == top.vc } }
        return gone.map { .disappear(vc: $0.vc, column: $0.column) } + came.map { .appear(vc: $0.vc, column: $0.column) }
    }

    /// The visible top view controllers, each id once, in column order.
    static func visibleControllers(_ layout: Layout) -> [(vc: String, column: Column)] {
        guard !layout.presentations.contains(where: { $0.effectiveStyle == .fullScreen }) else { return [] }
        var tops: [(vc: String, column: Column)] = []
        for column in layout.columns where column.visible {
            guard let top = column.stack.last, !tops.contains(where: { $0.vc == top }) else { continue }
            tops.append((top, column.column))
        }
        return tops
    }

    static func presentationEvents(from old: [PresentationLayout], to new: [PresentationLayout]) -> [SceneEvent] {
        var common = 0
        while common < min(old.count, new.count), old[common].vc == new[common].vc, old[common].style == new[common].style {
            common += 1
        }
        let dismissed = old[common...].reversed().map { SceneEvent.dismissed(vc: $0.vc) }
        let presented = new[common...].map { SceneEvent.presented(vc: $0.vc, style: $0.effectiveStyle) }
        return dismissed + presented
    }
}
