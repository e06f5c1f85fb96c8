/// What the reducer knows about a transition beyond the two layouts.
struct TransitionNote: Hashable, Sendable {
    /// Ids moved onto the collapsed stack, when the change collapsed the scene.
    var collapsed: [String]?
    /// Ids moved back to the columns, when the change expanded the scene.
    var expanded: [String]?

    /// The change may emit willShowColumn/willHideColumn (SEMANTICS 7, revision 2).
    var columnVisibilityEvents = false
    /// showDetail dismissed a revealed sidebar: `displayModeChanged` follows the routing's
    /// appear/disappear (SEMANTICS 5, revision 2).
    var modeChangeFollowsRouting = false

    static let none = TransitionNote()

    /// This note and a later one of the same change.
    mutating func merge(_ later: TransitionNote) {
        collapsed = later.collapsed ?? collapsed
        expanded = later.expanded ?? expanded
        columnVisibilityEvents = columnVisibilityEvents || later.columnVisibilityEvents
        modeChangeFollowsRouting = modeChangeFollowsRouting || later.modeChangeFollowsRouting
    }
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
    // Every event is appended to one array: temporary arrays per step were most of this
    // function's cost on the daemon's hot path (a resize produces ~5 events).
    static func events(from old: Layout, to new: Layout, note: TransitionNote) -> [SceneEvent] {
        var events: [SceneEvent] = []
        events.reserveCapacity(8)
        if old.traits != new.traits { events.append(.traitsChanged(from: old.traits, to: new.traits)) }
        if let moved = note.collapsed {
            events.append(.willCollapse(moved: moved))
            events.append(.didCollapse(moved: moved))
        }
        if let moved = note.expanded {
            events.append(.willExpand(moved: moved))
            events.append(.didExpand(moved: moved))
        }
        if old.displayMode != new.displayMode {
            events.append(.displayModeChanged(from: old.displayMode, to: new.displayMode))
        }
        if old.size != new.size { events.append(.viewWillTransition(to: new.size)) }
        appendVisibilityEvents(from: old, to: new, to: &events)
        appendPresentationEvents(from: old.presentations, to: new.presentations, to: &events)
        return events
    }

    static func visibilityEvents(from old: Layout, to new: Layout) -> [SceneEvent] {
        var events: [SceneEvent] = []
        appendVisibilityEvents(from: old, to: new, to: &events)
        return events
    }

    /// `disappear` for the old visible tops not visible any more (old order), then `appear`
    /// for the new ones (new order); the tops are walked in place, not collected.
    static func appendVisibilityEvents(from old: Layout, to new: Layout, to events: inout [SceneEvent]) {
        let oldHidden = hidesColumns(old)
        let newHidden = hidesColumns(new)
        if !oldHidden {
            for index in old.columns.indices {
                guard let top = visibleTop(at: index, of: old), newHidden || !shows(top, new) else { continue }
                events.append(.disappear(vc: top, column: old.columns[index].column))
            }
        }
        if !newHidden {
            for index in new.columns.indices {
                guard let top = visibleTop(at: index, of: new), oldHidden || !shows(top, old) else { continue }
                events.append(.appear(vc: top, column: new.columns[index].column))
            }
        }
    }

    /// The visible top view controllers, each id once, in column order.
    static func visibleControllers(_ layout: Layout) -> [(vc: String, column: Column)] {
        guard !hidesColumns(layout) else { return [] }
        var tops: [(vc: String, column: Column)] = []
        for index in layout.columns.indices {
            guard let top = visibleTop(at: index, of: layout) else { continue }
            tops.append((top, layout.columns[index].column))
        }
        return tops
    }

    /// A full-screen presentation hides every column.
    private static func hidesColumns(_ layout: Layout) -> Bool {
        layout.presentations.contains(where: { $0.effectiveStyle == .fullScreen })
    }

    /// The top of the column at `index` when it is visible and no earlier visible column
    /// has the same top (each id counts once, in its first column).
    private static func visibleTop(at index: Int, of layout: Layout) -> String? {
        let column = layout.columns[index]
        guard column.visible, let top = column.stack.last else { return nil }
        for earlier in layout.columns[..<index] where earlier.visible && earlier.stack.last == top { return nil }
        return top
    }

    /// Whether `vc` is the top of a visible column of `layout` (columns not hidden).
    private static func shows(_ vc: String, _ layout: Layout) -> Bool {
        layout.columns.contains { $0.visible && $0.stack.last == vc }
    }

    static func presentationEvents(from old: [PresentationLayout], to new: [PresentationLayout]) -> [SceneEvent] {
        var events: [SceneEvent] = []
        appendPresentationEvents(from: old, to: new, to: &events)
        return events
    }

    static func appendPresentationEvents(
        from old: [PresentationLayout], to new: [PresentationLayout],
        to events: inout [SceneEvent]
    ) {
        var common = 0
        while common < min(old.count, new.count), old[common].vc == new[common].vc,
            old[common].style == new[common].style
        {
            common += 1
        }
        for index in old.indices.reversed() where index >= common { events.append(.dismissed(vc: old[index].vc)) }
        for index in new.indices where index >= common {
            events.append(.presented(vc: new[index].vc, style: new[index].effectiveStyle))
        }
    }

    // MARK: revision 2

    /// `willShowColumn`/`willHideColumn` for each column (style order) whose visibility
    /// differs between two expanded layouts, placed where UIKit calls the delegate: before
    /// `displayModeChanged` (else before `viewWillTransition`, else before the first
    /// appear/disappear, else last).
    static func appendColumnVisibilityEvents(
        from old: Layout, to new: Layout, placedIn events: [SceneEvent],
        to placed: inout [PositionedEvent]
    ) {
        guard !old.collapsed, !new.collapsed, old.columns.count == new.columns.count else { return }
        let position =
            events.firstIndex {
                switch $0 {
                case .displayModeChanged, .viewWillTransition, .appear, .disappear, .presented, .dismissed: true
                default: false
                }
            } ?? events.count
        for (before, after) in zip(old.columns, new.columns)
        where before.column == after.column && before.visible != after.visible {
            placed.append(
                PositionedEvent(
                    after.visible ? .willShowColumn(after.column) : .willHideColumn(after.column),
                    at: position))
        }
    }

    /// Moves `displayModeChanged` after the last appear/disappear.
    static func moveModeChangeAfterVisibility(_ events: inout [SceneEvent]) {
        guard let index = events.firstIndex(where: { if case .displayModeChanged = $0 { true } else { false } }) else {
            return
        }
        let event = events.remove(at: index)
        let end =
            (events.lastIndex {
                switch $0 {
                case .appear, .disappear: true
                default: false
                }
            }).map { $0 + 1 } ?? index
        events.insert(event, at: max(end, index))
    }
}
