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

    /// A configured compact column replaces the stacked columns; otherwise the columns from
    /// the primary up to the top column are stacked, each contributing a suffix of its stack.
    static func buildStack(_ nav: NavigationState, config: SplitConfig) -> CollapsedStack {
        if config.hasCompactColumn {
            let entries = nav.compact.map { StackEntry(vc: $0, origin: .compact) }
            return CollapsedStack(entries: entries, built: entries, shares: ColumnShares())
        }
        var entries: [StackEntry] = []
        var shares = ColumnShares()
        for column in stackedColumns(nav, config: config) {
            let part = contribution(of: column, nav, config: config)
            entries += part.map { StackEntry(vc: $0, origin: EntryOrigin(column)) }
            shares[column] = part.count
        }
        return CollapsedStack(entries: entries, built: entries, shares: shares)
    }

    /// Classic: primary then secondary. Column styles: primary -> supplementary -> secondary,
    /// cut at `topColumnForCollapsing`.
    static func stackedColumns(_ nav: NavigationState, config: SplitConfig) -> [Column] {
        let columns = config.style.columns
        guard config.style != .classic, let top = columns.firstIndex(of: topColumn(nav, config: config)) else {
            return columns
        }
        return Array(columns[...top])
    }

    /// The column ending on top; `lastNavigated` falls back to the secondary when nothing was
    /// navigated yet or the column is not one of the style's.
    static func topColumn(_ nav: NavigationState, config: SplitConfig) -> Column {
        let wanted: Column = switch config.topColumnForCollapsing {
        case .secondary: .secondary
        case .primary: .primary
        case .supplementary: .supplementary
        case .lastNavigated: nav.lastNavigated ?? .secondary
        }
        return config.style.columns.contains(wanted) ? wanted : .secondary
    }

    /// What a column puts on the collapsed stack: all of it, except the secondary under
    /// `moveDetailExceptRoot` (its root stays behind) and `keepPrimary` (nothing moves).
    static func contribution(of column: Column, _ nav: NavigationState, config: SplitConfig) -> [String] {
        let stack = nav.stack(column)
        guard column == .secondary else { return stack }
        return switch config.collapsePolicy {
        case .uikit: stack
        case .moveDetailExceptRoot: Array(stack.dropFirst())
        case .keepPrimary: []
        }
    }
}
