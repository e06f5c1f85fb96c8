/// The navigation intents of SEMANTICS 6 on one navigation state. Each function validates
/// first and throws before touching anything; a request that changes nothing leaves the
/// state equal to its input (the engine turns that into a no-op).
struct Navigator {
    var config: SplitConfig
    var limits: CoreLimits

    // MARK: push / pop

    /// Expanded: a push onto the column. Collapsed: onto the one visible stack.
    func push(_ vc: String, onto column: Column, _ nav: inout NavigationState) throws(CoreError) {
        try checkColumn(column, nav)
        try checkId(vc)
        if isHiddenWhileCollapsed(column, nav) {
            // Its own stack, shown on expand; nothing visible changes (column identity).
            try checkDepth(nav.stack(column).count)
            nav.setStack(column, nav.stack(column) + [vc])
            return
        }
        if var collapsed = nav.collapsed {
            try checkDepth(collapsed.entries.count)
            collapsed.entries.append(StackEntry(vc: vc, origin: .pushed))
            nav.collapsed = collapsed
        } else {
            try checkDepth(nav.stack(column).count)
            nav.setStack(column, nav.stack(column) + [vc])
        }
        if config.accepts(column) { nav.lastNavigated = column }
    }

    func pop(_ column: Column, _ nav: inout NavigationState) throws(CoreError) {
        try checkColumn(column, nav)
        if isHiddenWhileCollapsed(column, nav) {
            guard nav.stack(column).count > 1 else {
                throw .invalidIntent("pop at the root of the \(column.rawValue) column")
            }
            nav.setStack(column, Array(nav.stack(column).dropLast()))
            return
        }
        if var collapsed = nav.collapsed {
            guard collapsed.entries.count > 1 else { throw .invalidIntent("pop at the root of the collapsed stack") }
            collapsed.entries.removeLast()
            nav.collapsed = collapsed
            return
        }
        guard nav.stack(column).count > 1 else {
            throw .invalidIntent("pop at the root of the \(column.rawValue) column")
        }
        nav.setStack(column, Array(nav.stack(column).dropLast()))
        nav.lastNavigated = column
    }

    /// At the root already: nothing changes.
    func popToRoot(_ column: Column, _ nav: inout NavigationState) throws(CoreError) {
        try checkColumn(column, nav)
        if isHiddenWhileCollapsed(column, nav) {
            let stack = nav.stack(column)
            if stack.count > 1 { nav.setStack(column, Array(stack.prefix(1))) }
            return
        }
        if var collapsed = nav.collapsed {
            collapsed.entries = Array(collapsed.entries.prefix(1))
            nav.collapsed = collapsed
            return
        }
        let stack = nav.stack(column)
        guard stack.count > 1 else { return }
        nav.setStack(column, Array(stack.prefix(1)))
        nav.lastNavigated = column
    }

    // MARK: showDetail

    /// Expanded: `replace` makes the secondary [vc]; `resetAndPush` (seed 000) pops it to
    /// its root and pushes vc. Collapsed: pushed as detail content (goes to the secondary on expand).
    func showDetail(_ vc: String, _ nav: inout NavigationState) throws(CoreError) {
        try checkId(vc)
        if var collapsed = nav.collapsed {
            try checkDepth(collapsed.entries.count)
            collapsed.entries.append(StackEntry(vc: vc, origin: .detail))
            nav.collapsed = collapsed
            nav.lastNavigated = .secondary
            return
        }
        let root = config.detailRouting == .resetAndPush ? [config.secondaryRoot] : []
        let stack = root + [vc]
        guard stack != nav.secondary else { return }
        nav.secondary = stack
        nav.lastNavigated = .secondary
    }

    // MARK: back

    /// The system back action. Collapsed: pops the visible stack (`popUntilLayoutChange`:
    /// every entry of the top's column at once); at its root it is an error, not an exit.
    /// Expanded: pops the last navigated column if it can, else the secondary, the
    /// supplementary, the primary (`popUntilLayoutChange`: to the column's root).
    func back(_ nav: inout NavigationState) throws(CoreError) {
        if var collapsed = nav.collapsed {
            guard collapsed.entries.count > 1 else { throw .invalidIntent("back at the root of the collapsed stack") }
            collapsed.entries = backTarget(collapsed.entries)
            nav.collapsed = collapsed
            return
        }
        let candidates = [nav.lastNavigated].compactMap { $0 } + config.style.columns.reversed()
        guard let column = candidates.first(where: { config.style.columns.contains($0) && nav.stack($0).count > 1 })
        else {
            throw .invalidIntent("back with nothing to go back to")
        }
        let stack = nav.stack(column)
        nav.setStack(column, config.backBehavior == .popLatest ? Array(stack.dropLast()) : Array(stack.prefix(1)))
        nav.lastNavigated = column
    }

    /// The collapsed stack after one back action (at least one pop, never the root).
    func backTarget(_ entries: [StackEntry]) -> [StackEntry] {
        guard config.backBehavior == .popUntilLayoutChange else { return Array(entries.dropLast()) }
        let owners = Expand.attribute(entries)
        var count = entries.count - 1
        while count > 1, owners[count - 1] == owners[entries.count - 1] { count -= 1 }
        return Array(entries.prefix(count))
    }

    // MARK: tabs

    /// Seed 000: saves the current tab's detail stack, clears it, restores tab i's.
    /// Collapsed: the same on the expanded form, collapsed again.
    func selectTab(_ index: Int, _ nav: inout NavigationState) throws(CoreError) {
        guard let current = nav.selectedTab, nav.tabs.indices.contains(index) else {
            throw .invalidIntent("tab \(index) out of range (\(nav.tabs.count) tabs)")
        }
        guard index != current else { return }
        if nav.collapsed != nil {
            nav = Expand.expand(nav, config: config).0
            switchTab(to: index, &nav)
            nav = Collapse.collapse(nav, config: config).0
        } else {
            switchTab(to: index, &nav)
        }
    }

    func switchTab(to index: Int, _ nav: inout NavigationState) {
        guard let current = nav.selectedTab else { return }
        let root = config.secondaryRoot
        nav.tabs[current] = TabState(leaving: nav.primary, secondary: nav.secondary, root: root)
        nav.primary = nav.tabs[index].primary
        nav.secondary = nav.tabs[index].restoredSecondary(root: root)
        nav.tabs[index] = TabState()
        nav.selectedTab = index
    }

    // MARK: modal presentations

    func present(_ vc: String, style: PresentationStyle, _ nav: inout NavigationState) throws(CoreError) {
        try present(Presentation(vc: vc, style: style), &nav)
    }

    /// Adds `presentation` (its anchor already checked against the layout, SEMANTICS 6).
    func present(_ presentation: Presentation, _ nav: inout NavigationState) throws(CoreError) {
        try checkId(presentation.vc)
        guard nav.presentations.count < limits.maxPresentations else {
            throw CoreError(.limitExceeded, "more than \(limits.maxPresentations) presentations")
        }
        nav.presentations.append(presentation)
    }

    func dismiss(_ nav: inout NavigationState) throws(CoreError) {
        guard !nav.presentations.isEmpty else { throw .invalidIntent("dismiss with nothing presented") }
        nav.presentations.removeLast()
    }

    // MARK: validation

    /// A column of the style, or the configured compact column; while collapsed, `compact`
    /// also names the one visible stack, as layouts call it.
    func checkColumn(_ column: Column, _ nav: NavigationState) throws(CoreError) {
        if column == .compact, nav.collapsed != nil { return }
        guard config.accepts(column) else {
            throw .invalidIntent("no \(column.rawValue) column in a \(config.style.rawValue) split")
        }
    }

    func checkId(_ vc: String) throws(CoreError) {
        try checkViewControllerId(vc, limits: limits)
    }

    func checkDepth(_ count: Int) throws(CoreError) {
        guard count < limits.maxStackDepth else {
            throw CoreError(.limitExceeded, "stack deeper than \(limits.maxStackDepth)")
        }
    }
}

/// A view-controller id is 1...maxIdLength characters.
func checkViewControllerId(_ vc: String, limits: CoreLimits) throws(CoreError) {
    guard !vc.isEmpty, vc.count <= limits.maxIdLength else {
        throw .badRequest("view controller id must be 1-\(limits.maxIdLength) characters")
    }
}
