/// Compact -> regular (SEMANTICS 6): gives the collapsed stack back to the columns.
enum Expand {
    /// The expanded navigation, and the ids that left the collapsed stack for a column other
    /// than the primary.
    ///
    /// Exactness first: when the collapsed stack is still what collapse built (no net
    /// navigation), the column stacks — which collapse left untouched — are simply shown
    /// again, under every policy. Otherwise the expand policy distributes the entries.
    static func expand(_ nav: NavigationState, config: SplitConfig) -> (NavigationState, moved: [String]) {
        guard let collapsed = nav.collapsed else { return (nav, []) }
        var result = nav
        result.collapsed = nil
        if config.hasCompactColumn {
            result.compact = collapsed.vcs
            return (result, [])
        }
        if collapsed.entries == collapsed.built {
            let moved = collapsed.built.filter { $0.origin != .primary }.map(\.vc)
            return (result, moved)
        }
        let owners = attribute(collapsed.entries)
        switch config.expandPolicy {
        case .uikit:
            return distribute(collapsed, owners: owners, into: result, config: config)
        case .moveAllButRoot:
            return moveAllButRoot(collapsed, owners: owners, into: result, config: config)
        }
    }

    /// `expand` in place: when the collapsed stack is still what collapse built (every
    /// resize back to regular without navigation in between), only the stack is dropped;
    /// otherwise the result of `expand` replaces `nav`.
    static func expand(_ nav: inout NavigationState, config: SplitConfig) -> [String] {
        guard let collapsed = nav.collapsed, !config.hasCompactColumn, collapsed.entries == collapsed.built else {
            let (expanded, moved) = expand(nav, config: config)
            nav = expanded
            return moved
        }
        nav.collapsed = nil
        // Usually the secondary's whole stack went onto the collapsed stack and comes back:
        // then the moved ids are that array itself, not a copy.
        return Collapse.ids(of: collapsed.built, where: { $0 != .primary }, reusing: nav.secondary)
    }

    /// `expand` on a resize: when collapsing the result again would not give this collapsed
    /// state back (navigation while collapsed, or policies changed since it was built), the
    /// collapsed navigation is kept in `expandedFrom`, for `Collapse.collapseOnResize` to give
    /// back if nothing navigates before it. When the stack is still what collapse built, the
    /// expanded columns are those `nav` holds now, so the check needs no expand first.
    static func expandOnResize(_ nav: inout NavigationState, config: SplitConfig) -> [String] {
        guard let collapsed = nav.collapsed, !Collapse.wouldRebuild(collapsed, from: nav, config: config) else {
            return expand(&nav, config: config)
        }
        var before = nav
        before.expandedFrom = nil
        let moved = expand(&nav, config: config)
        nav.expandedFrom = ExpandedFrom(before)
        return moved
    }

    /// The column each entry belongs to: its origin column; `detail` belongs to the
    /// secondary; a `pushed` entry belongs with the entry below it (the primary at the bottom).
    static func attribute(_ entries: [StackEntry]) -> [Column] {
        var current = Column.primary
        return entries.map { entry in
            switch entry.origin {
            case .pushed: break
            case .detail: current = .secondary
            default: current = entry.origin.column ?? current
            }
            return current
        }
    }

    /// UIKit: entries from the secondary (and everything pushed above them) go back to the
    /// secondary, likewise for the supplementary, the rest stays in the primary.
    static func distribute(
        _ collapsed: CollapsedStack, owners: [Column], into nav: NavigationState,
        config: SplitConfig
    ) -> (NavigationState, moved: [String]) {
        var result = nav
        for column in [Column.primary, .supplementary, .secondary] {
            let own = zip(collapsed.entries, owners).filter { $0.1 == column }.map(\.0)
            result.setStack(
                column, restore(column, own: own, from: nav, share: collapsed.shares[column], config: config))
        }
        return (result, movedIds(collapsed.entries, owners: owners))
    }

    /// Seed 000: the bottom entry stays in the primary; everything above goes to the
    /// secondary on top of its root (placeholder). A tripleColumn supplementary keeps its own.
    static func moveAllButRoot(
        _ collapsed: CollapsedStack, owners: [Column], into nav: NavigationState,
        config: SplitConfig
    ) -> (NavigationState, moved: [String]) {
        guard let bottom = collapsed.entries.first else {
            return distribute(collapsed, owners: owners, into: nav, config: config)
        }
        var result = nav
        let above = zip(collapsed.entries, owners).dropFirst()
        let supplementary = above.filter { $0.1 == .supplementary }.map(\.0)
        let detailEntries = above.filter { $0.1 != .supplementary }.map(\.0)
        let detail = detailEntries.map(\.vc)
        result.primary = [bottom.vc]
        result.supplementary = restore(
            .supplementary, own: supplementary, from: nav,
            share: collapsed.shares.supplementary, config: config)
        // On top of the placeholder, unless the secondary's own root came up with the rest (a
        // `uikit` collapse moves it): then it is that root, not a second copy of it, and every
        // collapse-navigate-expand cycle would have added another.
        let rootCameAlong =
            detailEntries.first.map { $0.origin == .secondary && $0.vc == config.secondaryRoot } ?? false
        result.secondary = rootCameAlong ? detail : [config.secondaryRoot] + detail
        return (result, above.map(\.0.vc))
    }

    /// A column's stack after expand, given the collapsed entries that belong to it.
    /// `base` is the part of the column that stayed hidden below what collapse moved.
    static func restore(
        _ column: Column, own: [StackEntry], from nav: NavigationState, share: Int,
        config: SplitConfig
    ) -> [String] {
        let stack = nav.stack(column)
        let base = Array(stack.prefix(stack.count - share))
        guard let first = own.first else {
            // Nothing left: a column that moved nothing keeps its stack; one whose entries
            // were all popped keeps what stayed behind, else falls back to its root (a column
            // always shows a view controller: a tripleColumn supplementary popped away while
            // collapsed comes back as its root, not as an empty column).
            if share == 0 { return stack }
            return base.isEmpty ? config.root(of: column).map { [$0] } ?? [] : base
        }
        if first.origin == .detail {
            let root = config.detailRouting == .resetAndPush ? [config.secondaryRoot] : []
            return root + own.map(\.vc)
        }
        return base + own.map(\.vc)
    }

    static func movedIds(_ entries: [StackEntry], owners: [Column]) -> [String] {
        zip(entries, owners).filter { $0.1 != .primary }.map(\.0.vc)
    }
}
