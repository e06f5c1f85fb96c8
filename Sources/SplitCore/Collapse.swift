/// Regular -> compact (SEMANTICS 6): builds the one visible stack from the column stacks.
/// The column stacks themselves are left as they are: they are what expand restores.
enum Collapse {
    /// The collapsed navigation, and the ids moved onto the primary's stack from other columns.
    static func collapse(_ nav: NavigationState, config: SplitConfig) -> (NavigationState, moved: [String]) {
        var result = nav
        let stack = buildStack(nav, config: config)
        result.collapsed = stack
        let moved = stack.entries.filter { $0.origin == .supplementary || $0.origin == .secondary }.map(\.vc)
        return (result, moved)
    }

    /// `collapse` in place: the stack is added to `nav` without copying the rest of it.
    static func collapse(_ nav: inout NavigationState, config: SplitConfig) -> [String] {
        let stack = buildStack(nav, config: config)
        nav.collapsed = stack
        return movedIds(stack, secondary: nav.secondary)
    }

    /// `collapse` on a resize: the collapsed navigation an expand started from comes back
    /// exactly when the columns are still what that expand made of it (no navigation, no
    /// reconfiguration since); otherwise the collapse policies apply.
    static func collapseOnResize(_ nav: inout NavigationState, config: SplitConfig) -> [String] {
        if let memory = nav.expandedFrom {
            nav.expandedFrom = nil
            var expandedAgain = memory.navigation
            let movedOut = Expand.expand(&expandedAgain, config: config)
            if expandedAgain == nav {
                nav = memory.navigation
                // What goes back onto the collapsed stack is what that expand moved out.
                return movedOut
            }
        }
        return collapse(&nav, config: config)
    }

    /// Whether collapsing the expanded `nav` under `config` would build exactly `stack`
    /// (`buildStack(nav, config:) == stack`), checked in place without building anything: an
    /// expand on the daemon's hot path asks it every time. False once the stack was navigated
    /// or when it was built under other policies (a `setConfig` while collapsed applies them
    /// only at the next transition) or another last-navigated column.
    static func wouldRebuild(_ stack: CollapsedStack, from nav: NavigationState, config: SplitConfig) -> Bool {
        guard stack.entries == stack.built else { return false }
        let built = stack.built
        var index = 0
        var shares = ColumnShares()
        func matches(_ vcs: ArraySlice<String>, _ origin: EntryOrigin) -> Bool {
            guard built.count - index >= vcs.count else { return false }
            for vc in vcs {
                guard built[index].vc == vc, built[index].origin == origin else { return false }
                index += 1
            }
            return true
        }
        if config.hasCompactColumn {
            return matches(nav.compact[...], .compact) && index == built.count && stack.shares == shares
        }
        for column in stackedColumns(nav, config: config) {
            let part = contribution(of: column, nav, config: config)
            guard matches(part, EntryOrigin(column)) else { return false }
            shares[column] = part.count
        }
        return index == built.count && stack.shares == shares
    }

    /// The ids moved onto the collapsed stack from columns other than the primary. Usually
    /// the secondary's whole stack: then that array is returned, not a copy of it.
    static func movedIds(_ stack: CollapsedStack, secondary: [String]) -> [String] {
        ids(of: stack.entries, where: { $0 == .supplementary || $0 == .secondary }, reusing: secondary)
    }

    /// The ids of the entries whose origin passes `included`, in order. When they are exactly
    /// `candidate`, `candidate` itself is returned: the same value sharing its storage, where
    /// a new array cost an allocation per collapse or expand on the daemon's hot path.
    static func ids(
        of entries: [StackEntry], where included: (EntryOrigin) -> Bool,
        reusing candidate: [String]
    ) -> [String] {
        var matched = 0
        for entry in entries where included(entry.origin) {
            guard matched < candidate.count, candidate[matched] == entry.vc else {
                return ids(of: entries, where: included)
            }
            matched += 1
        }
        return matched == candidate.count ? candidate : ids(of: entries, where: included)
    }

    /// The ids of the entries whose origin passes `included`, in order, in a new array.
    static func ids(of entries: [StackEntry], where included: (EntryOrigin) -> Bool) -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(entries.count)
        for entry in entries where included(entry.origin) { ids.append(entry.vc) }
        return ids
    }

    /// A configured compact column replaces the stacked columns; otherwise the columns from
    /// the primary up to the top column are stacked, each contributing a suffix of its stack.
    static func buildStack(_ nav: NavigationState, config: SplitConfig) -> CollapsedStack {
        if config.hasCompactColumn {
            let entries = nav.compact.map { StackEntry(vc: $0, origin: .compact) }
            return CollapsedStack(entries: entries, built: entries, shares: ColumnShares())
        }
        let columns = stackedColumns(nav, config: config)
        var entries: [StackEntry] = []
        // Sized once and filled in place: growing it column by column reallocated it.
        entries.reserveCapacity(columns.reduce(0) { $0 + nav.stack($1).count })
        var shares = ColumnShares()
        for column in columns {
            let part = contribution(of: column, nav, config: config)
            for vc in part { entries.append(StackEntry(vc: vc, origin: EntryOrigin(column))) }
            shares[column] = part.count
        }
        return CollapsedStack(entries: entries, built: entries, shares: shares)
    }

    /// Classic: primary then secondary. Column styles: primary -> supplementary -> secondary,
    /// cut at `topColumnForCollapsing`.
    static func stackedColumns(_ nav: NavigationState, config: SplitConfig) -> ArraySlice<Column> {
        let columns = config.style.columns
        guard config.style != .classic, let top = columns.firstIndex(of: topColumn(nav, config: config)) else {
            return columns[...]
        }
        return columns[...top]
    }

    /// The column ending on top; `lastNavigated` falls back to the secondary when nothing was
    /// navigated yet or the column is not one of the style's.
    static func topColumn(_ nav: NavigationState, config: SplitConfig) -> Column {
        let wanted: Column =
            switch config.topColumnForCollapsing {
            case .secondary: .secondary
            case .primary: .primary
            case .supplementary: .supplementary
            case .lastNavigated: nav.lastNavigated ?? .secondary
            }
        return config.style.columns.contains(wanted) ? wanted : .secondary
    }

    /// What a column puts on the collapsed stack: all of it, except the secondary under
    /// `moveDetailExceptRoot` (its root stays behind) and `keepPrimary` (nothing moves).
    /// A slice of the column's stack: nothing is copied (an expand checks it in place).
    static func contribution(of column: Column, _ nav: NavigationState, config: SplitConfig) -> ArraySlice<String> {
        let stack = nav.stack(column)
        guard column == .secondary else { return stack[...] }
        return switch config.collapsePolicy {
        case .uikit: stack[...]
        case .moveDetailExceptRoot: stack.dropFirst()
        case .keepPrimary: []
        }
    }
}
