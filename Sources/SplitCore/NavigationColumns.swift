/// `showColumn` / `hideColumn` on a collapsed scene (SEMANTICS 5, UIKit's documented rules).
/// Expanded scenes hand them to `DisplayResolver` instead.
extension Navigator {
    /// Pops down to the column's entries if the stack holds some; otherwise pushes the column
    /// and any column between it and the current top. Ignored with a compact column.
    func showColumn(_ column: Column, _ nav: inout NavigationState) throws(CoreError) {
        guard var collapsed = nav.collapsed, !config.hasCompactColumn else { return }
        let owners = Expand.attribute(collapsed.entries)
        if let top = owners.lastIndex(of: column) {
            collapsed.entries = Array(collapsed.entries[...top])
            nav.collapsed = collapsed
            return
        }
        let order = config.style.columns
        guard let target = order.firstIndex(of: column) else { return }
        let highest = owners.compactMap { order.firstIndex(of: $0) }.max() ?? -1
        guard highest < target else { return }
        for shown in order[(highest + 1)...target] {
            let part = Collapse.contribution(of: shown, nav, config: config)
            let entries = (part.isEmpty ? nav.stack(shown)[...] : part).map {
                StackEntry(vc: $0, origin: EntryOrigin(shown))
            }
            guard collapsed.entries.count + entries.count <= limits.maxStackDepth else {
                throw CoreError(.limitExceeded, "stack deeper than \(limits.maxStackDepth)")
            }
            collapsed.entries += entries
            collapsed.shares[shown] = entries.count
        }
        nav.collapsed = collapsed
    }

    /// Pops the column's entries if they are on top; ignored for the primary and when the
    /// column is not on top. Never pops the root of the collapsed stack.
    func hideColumn(_ column: Column, _ nav: inout NavigationState) {
        guard column != .primary, var collapsed = nav.collapsed, !config.hasCompactColumn else { return }
        let owners = Expand.attribute(collapsed.entries)
        guard owners.last == column else { return }
        var count = collapsed.entries.count
        while count > 1, owners[count - 1] == column { count -= 1 }
        collapsed.entries = Array(collapsed.entries.prefix(count))
        nav.collapsed = collapsed
    }
}
