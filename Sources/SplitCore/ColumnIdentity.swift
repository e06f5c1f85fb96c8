// Column identity while collapsed (SEMANTICS 6, revision 2): for column styles UIKit keeps
// one navigation controller per column, so a column the collapsed stack does not show keeps
// its own stack, which intents naming it change without changing anything visible.

extension Navigator {
    /// True when `column` is a column of a column style whose entries the collapsed stack
    /// does not show: every column when a `compact` column replaces them; else a column
    /// above the top column of the collapse (`topColumnForCollapsing`) that `showColumn`
    /// has not brought onto the stack since. Under `lastNavigated` the top is the highest
    /// column the stack holds entries of (the column that was on top when it collapsed).
    /// False while expanded, for classic and for `compact`.
    func isHiddenWhileCollapsed(_ column: Column, _ nav: NavigationState) -> Bool {
        guard let collapsed = nav.collapsed, config.style != .classic, column != .compact,
            let index = config.style.columns.firstIndex(of: column)
        else { return false }
        if config.hasCompactColumn { return true }
        let owners = Expand.attribute(collapsed.entries)
        if collapsed.shares[column] > 0 || owners.contains(column) { return false }
        let order = config.style.columns
        let top: Int
        if config.topColumnForCollapsing == .lastNavigated {
            let held = order.indices.filter { collapsed.shares[order[$0]] > 0 || owners.contains(order[$0]) }
            top = held.max() ?? order.count - 1
        } else {
            top = order.firstIndex(of: Collapse.topColumn(nav, config: config)) ?? order.count - 1
        }
        return index > top
    }
}
