extension SplitConfig {
    /// The primary's root: `roots.primary`, else `"primary"`. A column always shows a view
    /// controller, as in UIKit, so a scene configured without roots can push and pop back.
    var primaryRoot: String { roots.primary ?? Column.primary.rawValue }

    /// The supplementary's root: `roots.supplementary`, else `"supplementary"` (kept, hidden,
    /// in two-column styles).
    var supplementaryRoot: String { roots.supplementary ?? Column.supplementary.rawValue }

    /// The secondary's root: `roots.secondary`, else the placeholder (SEMANTICS 6), else
    /// `"secondary"`.
    var secondaryRoot: String { roots.secondary ?? placeholder ?? Column.secondary.rawValue }

    /// The root a column starts from; nil only for an unconfigured compact column.
    func root(of column: Column) -> String? {
        switch column {
        case .primary: primaryRoot
        case .supplementary: supplementaryRoot
        case .secondary: secondaryRoot
        case .compact: roots.compact
        }
    }

    /// True when `other` builds and moves the stacks as this does: the same style, roots,
    /// placeholder, tabs and navigation policies (display keys, widths and the size policy
    /// may differ).
    func navigatesLike(_ other: SplitConfig) -> Bool {
        style == other.style && roots == other.roots && placeholder == other.placeholder && tabs == other.tabs
            && collapsePolicy == other.collapsePolicy && expandPolicy == other.expandPolicy
            && topColumnForCollapsing == other.topColumnForCollapsing && detailRouting == other.detailRouting
            && backBehavior == other.backBehavior
    }

    /// True when a `compact` column replaces the stacked columns while collapsed.
    var hasCompactColumn: Bool { roots.compact != nil }

    /// True when `column` can be navigated: a column of the style, or the configured compact one.
    func accepts(_ column: Column) -> Bool {
        column == .compact ? hasCompactColumn : style.columns.contains(column)
    }
}

extension NavigationState {
    /// The stacks a freshly configured, expanded scene starts with: each column holds its
    /// root; with tabs, the primary holds the first tab's root and every tab starts empty.
    static func initial(for config: SplitConfig) -> NavigationState {
        var nav = NavigationState()
        nav.placeholder = config.placeholder
        nav.resetTabs(to: config)
        if config.tabs.isEmpty { nav.primary = [config.primaryRoot] }
        nav.supplementary = [config.supplementaryRoot]
        nav.secondary = [config.secondaryRoot]
        nav.compact = stackOfRoot(config.roots.compact)
        nav.inspector = stackOfRoot(config.roots.inspector)
        return nav
    }

    /// Fresh tab states for `config.tabs`; the primary becomes the first tab's root.
    mutating func resetTabs(to config: SplitConfig) {
        guard let first = config.tabs.first else {
            tabs = []
            selectedTab = nil
            return
        }
        tabs = config.tabs.map { TabState(primary: [$0.root]) }
        tabs[0] = TabState()
        selectedTab = 0
        primary = [first.root]
    }
}

/// `[root]`, or an empty stack when the column has no root.
func stackOfRoot(_ root: String?) -> [String] { root.map { [$0] } ?? [] }
