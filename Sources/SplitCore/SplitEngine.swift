/// The result of applying one change.
public struct Transition: Sendable {
    public var state: SceneState
    public var layout: Layout
    public var events: [SceneEvent]
    /// False for a no-op: `state` is the input, revision kept, `events` empty.
    public var changed: Bool

    public init(state: SceneState, layout: Layout, events: [SceneEvent], changed: Bool) {
        self.state = state
        self.layout = layout
        self.events = events
        self.changed = changed
    }
}

/// The reducer: scene state + change -> new state + layout + events. No I/O.
public struct SplitEngine: Sendable {
    public var catalog: DeviceCatalog
    public var limits: CoreLimits

    public init(catalog: DeviceCatalog = .builtIn, limits: CoreLimits = CoreLimits()) {
        self.catalog = catalog
        self.limits = limits
    }

    /// A new scene at revision 1. `size` nil: the device's default size (required for rule
    /// sets). Born expanded, it is created collapsed when its size is compact. No events.
    public func createScene(id: String, device: String, size: Size?, config: SplitConfigPatch?) throws(CoreError) -> SceneState {
        try Self.checkSceneId(id)
        guard catalog.contains(device: device) else { throw CoreError(.unknownDevice, "unknown device '\(device)'") }
        guard let size = size ?? catalog.defaultSize(device: device) else {
            throw .badRequest("device '\(device)' is a rule set: a size is required")
        }
        guard size.isValidWindowSize else { throw .badRequest("invalid size \(size)") }
        let splitConfig = try config.map { patch throws(CoreError) in try SplitConfig().applying(patch) } ?? SplitConfig()
        try checkConfig(splitConfig)
        let traits = try catalog.traits(device: device, size: size, previous: nil)
        var state = SceneState(id: id, device: device, size: size, traits: traits, config: splitConfig, revision: 1,
                               navigation: .initial(for: splitConfig), display: DisplayMemory(lastTraits: traits))
        if traits.horizontalSizeClass == .compact {
            state.navigation = Collapse.collapse(state.navigation, config: splitConfig).0
        }
        return state
    }

    /// The layout a client draws for `state` (WIRE.md).
    public func layout(of state: SceneState) -> Layout { LayoutAssembly.layout(of: state) }

    /// Applies a change. Throws (state untouched) for invalid input. A change that leaves the
    /// state as it was is a no-op: `changed` false, same revision, no events.
    public func apply(_ change: SceneChange, to state: SceneState) throws(CoreError) -> Transition {
        try apply(change, to: state, currentLayout: layout(of: state))
    }

    /// `apply` for a caller that holds `layout(of: state)` already (the daemon keeps each
    /// scene's layout): the same transition without resolving the old layout again.
    /// `currentLayout` must be `layout(of: state)`.
    public func apply(_ change: SceneChange, to state: SceneState, currentLayout: Layout) throws(CoreError) -> Transition {
        // A resize, the daemon's most frequent change, is reduced in place on one copy of the
        // state: going through `reduce`'s returned tuple copied the whole state (a retain and
        // a release of each of its strings and arrays) three more times per change.
        var next: SceneState
        var note = TransitionNote.none
        switch change {
        case .resize(let size):
            next = state
            note = try resize(&next, to: size)
        case .intent(let intent):
            next = try reduce(intent, state)
        case .reconfigure(let patch, let size):
            next = try reduce(.setConfig(patch), state)
            note = try resize(&next, to: size)
        }
        guard isChange(change, from: state, to: next) else {
            return Transition(state: state, layout: currentLayout, events: [], changed: false)
        }
        next.revision = state.revision + 1
        let newLayout = layout(of: next)
        let events = EventOrder.events(from: currentLayout, to: newLayout, note: note)
        return Transition(state: next, layout: newLayout, events: events, changed: true)
    }

    /// Whether `reduce` changed the state. A resize to another size always does (the size is
    /// part of the state, and an equal size returns the input), which spares comparing the
    /// whole state on the hot path.
    private func isChange(_ change: SceneChange, from state: SceneState, to next: SceneState) -> Bool {
        if case .resize(let size) = change, size != state.size { return true }
        return next != state
    }

    /// `apply` without the events and the layout before the change: the same state, layout
    /// and `changed`, at half the cost. For replaying a journal at start, whose events were
    /// delivered when the changes were accepted.
    public func replay(_ change: SceneChange, to state: SceneState) throws(CoreError) -> Transition {
        var (next, _) = try reduce(change, state)
        guard next != state else {
            return Transition(state: state, layout: layout(of: state), events: [], changed: false)
        }
        next.revision = state.revision + 1
        return Transition(state: next, layout: layout(of: next), events: [], changed: true)
    }

    /// The next state, revision not yet bumped.
    func reduce(_ change: SceneChange, _ state: SceneState) throws(CoreError) -> (SceneState, TransitionNote) {
        switch change {
        case .resize(let size): try resize(state, to: size)
        case .intent(let intent): (try reduce(intent, state), .none)
        case .reconfigure(let patch, let size): try resize(try reduce(.setConfig(patch), state), to: size)
        }
    }

    // MARK: resize

    /// New traits (hysteresis from the previous ones), expiry of a user display mode, and
    /// the collapse or expand transition when the horizontal class flips.
    func resize(_ state: SceneState, to size: Size) throws(CoreError) -> (SceneState, TransitionNote) {
        var next = state
        let note = try resize(&next, to: size)
        return (next, note)
    }

    /// `resize` on the state in place (`state` ends as the next state; unchanged if this
    /// throws or the size is the same).
    func resize(_ state: inout SceneState, to size: Size) throws(CoreError) -> TransitionNote {
        guard size.isValidWindowSize else { throw .badRequest("invalid size \(size)") }
        guard size != state.size else { return .none }
        let oldSize = state.size, oldTraits = state.traits
        let traits = try catalog.traits(device: state.device, size: size, previous: oldTraits)
        state.size = size
        state.traits = traits
        state.display = DisplayResolver.expire(state.display, from: oldSize, to: size,
                                               oldTraits: oldTraits, newTraits: traits)
        state.display.lastTraits = traits
        var note = TransitionNote.none
        let compact = traits.horizontalSizeClass == .compact
        if compact, !state.collapsed {
            note.collapsed = Collapse.collapseOnResize(&state.navigation, config: state.config)
        } else if !compact, state.collapsed {
            note.expanded = Expand.expandOnResize(&state.navigation, config: state.config)
        }
        return note
    }

    // MARK: intents

    func reduce(_ intent: Intent, _ state: SceneState) throws(CoreError) -> SceneState {
        var next = state
        let navigator = Navigator(config: state.config, limits: limits)
        switch intent {
        case let .push(column, vc), let .show(vc, column):
            try navigator.push(vc, onto: column, &next.navigation)
        case let .pop(column):
            try navigator.pop(column, &next.navigation)
        case let .popToRoot(column):
            try navigator.popToRoot(column, &next.navigation)
        case let .showDetail(vc):
            try navigator.showDetail(vc, &next.navigation)
        case .back:
            try navigator.back(&next.navigation)
        case let .selectTab(index):
            try navigator.selectTab(index, &next.navigation)
        case let .present(vc, style):
            try navigator.present(vc, style: style, &next.navigation)
        case .dismiss:
            try navigator.dismiss(&next.navigation)
        case let .setPreferredDisplayMode(mode):
            var patch = SplitConfigPatch()
            patch.preferredDisplayMode = mode
            next = try reconfigure(state, with: patch)
        case .displayModeButton:
            next.display = try displayAction(.displayModeButton, state)
        case .gesture:
            next.display = try displayAction(.gesture, state)
        case .tapDimmed:
            next.display = try displayAction(.tapDimmed, state)
        case let .showColumn(column):
            try checkDisplayedColumn(column, state.config)
            if state.collapsed {
                try navigator.showColumn(column, &next.navigation)
            } else {
                next.display = try displayAction(.showColumn(column), state)
            }
        case let .hideColumn(column):
            try checkDisplayedColumn(column, state.config)
            if state.collapsed {
                navigator.hideColumn(column, &next.navigation)
            } else {
                next.display = try displayAction(.hideColumn(column), state)
            }
        case let .setConfig(patch):
            next = try reconfigure(state, with: patch)
        }
        next.navigation.collapsed?.settle()
        // The collapsed navigation kept by the last expand is given back only if nothing
        // navigated since (display-mode actions do not navigate); a configuration that builds
        // or distributes the stacks differently drops it too (display keys do not).
        if next.navigation.expandedFrom != nil {
            if case .setConfig = intent, !next.config.navigatesLike(state.config) {
                next.navigation.expandedFrom = nil
            } else if next.navigation != state.navigation {
                next.navigation.expandedFrom = nil
            }
        }
        return next
    }

    /// `setConfig` and `setPreferredDisplayMode`: the new configuration and its stacks. A new
    /// preferred display mode is the app's explicit request and supersedes a mode the user
    /// chose; setting the mode it already has changes nothing (SEMANTICS 1).
    func reconfigure(_ state: SceneState, with patch: SplitConfigPatch) throws(CoreError) -> SceneState {
        var next = state
        next.config = try state.config.applying(patch)
        try checkConfig(next.config)
        next.navigation = Reconfiguration.reconfigure(state.navigation, from: state.config, to: next.config)
        if next.config.preferredDisplayMode != state.config.preferredDisplayMode {
            next.display.userDisplayMode = nil
        }
        return next
    }

    /// Expanded: the display side decides. Collapsed: there is no display mode to change.
    func displayAction(_ action: DisplayAction, _ state: SceneState) throws(CoreError) -> DisplayMemory {
        guard !state.collapsed else { return state.display }
        return try DisplayResolver.apply(action, config: state.config, size: state.size, memory: state.display)
    }

    // MARK: validation

    /// WIRE.md's ceiling for any id (scene or view controller), whatever
    /// `CoreLimits.maxIdLength` says.
    public static let idLengthCeiling = 128

    /// WIRE.md: 1-128 characters of `[A-Za-z0-9._:-]`.
    public static func checkSceneId(_ id: String) throws(CoreError) {
        let allowed = id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: ":"), UInt8(ascii: "-"): true
            default: false
            }
        }
        guard allowed, (1...idLengthCeiling).contains(id.utf8.count) else {
            throw .badRequest("scene id must be 1-\(idLengthCeiling) characters of [A-Za-z0-9._:-]")
        }
    }

    /// Root ids are view-controller ids; the tab count is limited.
    func checkConfig(_ config: SplitConfig) throws(CoreError) {
        guard config.tabs.count <= limits.maxTabs else {
            throw CoreError(.limitExceeded, "more than \(limits.maxTabs) tabs")
        }
        let roots = [config.roots.primary, config.roots.supplementary, config.roots.secondary,
                     config.roots.compact, config.placeholder].compactMap { $0 } + config.tabs.map(\.root)
        for root in roots { try checkViewControllerId(root, limits: limits) }
    }

    /// show/hideColumn take a column of the style, never `compact` (UIKit refuses it too).
    func checkDisplayedColumn(_ column: Column, _ config: SplitConfig) throws(CoreError) {
        guard column != .compact, config.style.columns.contains(column) else {
            throw .invalidIntent("showColumn/hideColumn: no \(column.rawValue) column in a \(config.style.rawValue) split")
        }
    }
}
