/// What `setConfig` does to the stacks (ours; UIKit's `setViewController(_:for:)` replaces a
/// column's whole navigation controller):
/// - a column whose root changes restarts at the new root (the secondary's root is
///   `roots.secondary`, else the placeholder); other columns keep their stacks;
/// - tabs: a tab keeping its index and root keeps its saved stacks; the selected tab stays
///   selected if it kept its root, else the first tab is selected; no tabs -> the primary
///   restarts at `roots.primary`;
/// - a style change keeps every stack (the supplementary's stays hidden in two-column
///   styles, so switching back restores it); the layout lists the new style's columns;
/// - policies only apply at the next transition.
/// A collapsed scene is reconfigured in its expanded form and collapsed again, only when
/// something that builds the collapsed stack (style, roots, placeholder, tabs) changed.
enum Reconfiguration {
    static func reconfigure(_ nav: NavigationState, from old: SplitConfig, to new: SplitConfig) -> NavigationState {
        guard rebuildsStacks(from: old, to: new) else { return nav }
        guard nav.collapsed != nil else { return restack(nav, from: old, to: new) }
        let expanded = Expand.expand(nav, config: old).0
        return Collapse.collapse(restack(expanded, from: old, to: new), config: new).0
    }

    /// True when a change touches what the stacks are built from.
    static func rebuildsStacks(from old: SplitConfig, to new: SplitConfig) -> Bool {
        old.style != new.style || old.roots != new.roots || old.placeholder != new.placeholder
            || old.tabs.map(\.root) != new.tabs.map(\.root)
    }

    /// The expanded stacks under the new roots and tabs.
    static func restack(_ nav: NavigationState, from old: SplitConfig, to new: SplitConfig) -> NavigationState {
        var result = nav
        result.placeholder = new.placeholder
        for column in [Column.supplementary, .compact] where old.root(of: column) != new.root(of: column) {
            result.setStack(column, stackOfRoot(new.root(of: column)))
        }
        if old.secondaryRoot != new.secondaryRoot { result.secondary = [new.secondaryRoot] }
        if old.tabs.map(\.root) != new.tabs.map(\.root) {
            retab(&result, from: old, to: new)
        } else if new.tabs.isEmpty, old.primaryRoot != new.primaryRoot {
            result.primary = [new.primaryRoot]
        }
        return result
    }

    static func retab(_ nav: inout NavigationState, from old: SplitConfig, to new: SplitConfig) {
        guard !new.tabs.isEmpty else {
            nav.tabs = []
            nav.selectedTab = nil
            nav.primary = [new.primaryRoot]
            return
        }
        let kept = { (i: Int) in i < old.tabs.count && i < new.tabs.count && old.tabs[i].root == new.tabs[i].root }
        var states = new.tabs.indices.map { i in kept(i) ? nav.tabs[i] : TabState(primary: [new.tabs[i].root]) }
        if let selected = nav.selectedTab, kept(selected) {
            nav.tabs = states
            return
        }
        nav.primary = states[0].primary
        nav.secondary = states[0].restoredSecondary(root: new.secondaryRoot)
        states[0] = TabState()
        nav.tabs = states
        nav.selectedTab = 0
    }
}

extension ColumnRoots {
    subscript(column: Column) -> String? {
        switch column {
        case .primary: primary
        case .supplementary: supplementary
        case .secondary: secondary
        case .compact: compact
        }
    }
}
