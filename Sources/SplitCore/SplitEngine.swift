/// The result of applying one change.
public struct Transition: Sendable {
    public var state: SceneState
    public var layout: Layout
    /// The events of protocol 1's kinds, in order (SEMANTICS 7).
    public var events: [SceneEvent]
    /// The events of revision 2's kinds, each placed before the event of `events` at its
    /// `position` (`events.count`: after the last); `timeline` merges the two.
    public var revision2Events: [PositionedEvent]
    /// The app-switcher session a change entering `background` ran (SEMANTICS 10), to be
    /// recorded under the id its `snapshotTaken` event names; nil for any other change.
    public var backgroundSnapshot: SnapshotResult?
    /// False for a no-op: `state` is the input, revision kept, `events` empty.
    public var changed: Bool

    public init(state: SceneState, layout: Layout, events: [SceneEvent], changed: Bool) {
        self.init(
            state: state, layout: layout, events: events, revision2Events: [], backgroundSnapshot: nil, changed: changed
        )
    }

    public init(
        state: SceneState, layout: Layout, events: [SceneEvent], revision2Events: [PositionedEvent],
        backgroundSnapshot: SnapshotResult?, changed: Bool
    ) {
        self.state = state
        self.layout = layout
        self.events = events
        self.revision2Events = revision2Events
        self.backgroundSnapshot = backgroundSnapshot
        self.changed = changed
    }

    /// Every event of the change in order, revision 2's kinds included.
    public var timeline: [TimelineEvent] {
        var merged: [TimelineEvent] = []
        merged.reserveCapacity(events.count + revision2Events.count)
        var pending = revision2Events[...]
        for (index, event) in events.enumerated() {
            while let next = pending.first, next.position <= index {
                merged.append(next.event)
                pending = pending.dropFirst()
            }
            merged.append(.scene(event))
        }
        merged.append(contentsOf: pending.map(\.event))
        return merged
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
    public func createScene(
        id: String, device: String, size: Size?, config: SplitConfigPatch?
    ) throws(CoreError) -> SceneState {
        try Self.checkSceneId(id)
        guard catalog.contains(device: device) else { throw CoreError(.unknownDevice, "unknown device '\(device)'") }
        guard let size = size ?? catalog.defaultSize(device: device) else {
            throw .badRequest("device '\(device)' is a rule set: a size is required")
        }
        guard size.isValidWindowSize else { throw .badRequest("invalid size \(size)") }
        let splitConfig =
            try config.map { patch throws(CoreError) in try SplitConfig().applying(patch) } ?? SplitConfig()
        try checkConfig(splitConfig)
        let traits = try resolveTraits(device: device, overrides: splitConfig.traitOverrides, size: size, previous: nil)
        var state = SceneState(
            id: id, device: device, size: size, traits: traits, config: splitConfig, revision: 1,
            navigation: .initial(for: splitConfig), display: DisplayMemory(lastTraits: traits))
        if traits.horizontalSizeClass == .compact {
            state.navigation = Collapse.collapse(state.navigation, config: splitConfig).0
        }
        return state
    }

    /// The layout a client draws for `state` (WIRE.md).
    public func layout(of state: SceneState) -> Layout {
        LayoutAssembly.layout(of: state, interfaceOrientation: interfaceOrientation(of: state))
    }

    /// Applies a change. Throws (state untouched) for invalid input. A change that leaves the
    /// state as it was is a no-op: `changed` false, same revision, no events.
    public func apply(_ change: SceneChange, to state: SceneState) throws(CoreError) -> Transition {
        try apply(change, to: state, currentLayout: layout(of: state))
    }

    /// `apply` for a caller that holds `layout(of: state)` already (the daemon keeps each
    /// scene's layout): the same transition without resolving the old layout again.
    /// `currentLayout` must be `layout(of: state)`.
    public func apply(
        _ change: SceneChange, to state: SceneState, currentLayout: Layout
    ) throws(CoreError) -> Transition {
        try apply(.change(change), to: state, currentLayout: currentLayout)
    }

    /// Applies a command, revision 2's included (`SceneCommand`). Throws (state untouched)
    /// for invalid input; a command that leaves the state as it was is a no-op.
    public func apply(_ command: SceneCommand, to state: SceneState) throws(CoreError) -> Transition {
        try apply(command, to: state, currentLayout: layout(of: state))
    }

    /// `apply(_:to:)` for a caller that holds `layout(of: state)` already.
    public func apply(
        _ command: SceneCommand, to state: SceneState, currentLayout: Layout
    ) throws(CoreError) -> Transition {
        // A resize, the daemon's most frequent change, is reduced in place on one copy of the
        // state: going through `reduce`'s returned tuple copied the whole state (a retain and
        // a release of each of its strings and arrays) three more times per change.
        var next: SceneState
        var note = TransitionNote.none
        switch command {
        case .change(.resize(let size)):
            next = state
            note = try resize(&next, to: size)
            note.columnVisibilityEvents = true
        case let .resize(size, stated):
            next = state
            note = try resize(&next, to: size, interfaceOrientation: stated)
            note.columnVisibilityEvents = true
        case .change(.intent(let intent)):
            (next, note) = try reduce(intent, state, layout: currentLayout)
        case .change(.reconfigure(let patch, let size)):
            (next, note) = try reduceReconfigure(patch, size: size, state, layout: currentLayout)
        case .present(let request):
            next = try reducePresent(request, state, layout: currentLayout)
        case .activation(let activation, _):
            next = state
            next.activationState = activation == .foregroundActive ? nil : activation
        case .inspector(let intent):
            next = try reduceInspector(intent, state)
        }
        guard isChange(command, from: state, to: next) else {
            return Transition(state: state, layout: currentLayout, events: [], changed: false)
        }
        next.revision = state.revision + 1
        let newLayout = layout(of: next)
        var events = EventOrder.events(from: currentLayout, to: newLayout, note: note)
        if note.modeChangeFollowsRouting { EventOrder.moveModeChangeAfterVisibility(&events) }
        var revision2Events: [PositionedEvent] = []
        if note.columnVisibilityEvents {
            EventOrder.appendColumnVisibilityEvents(
                from: currentLayout, to: newLayout, placedIn: events, to: &revision2Events)
        }
        appendInspectorVisibilityEvents(from: state, to: next, placedIn: events, to: &revision2Events)
        var backgroundSnapshot: SnapshotResult?
        if case let .activation(activation, session) = command {
            revision2Events.append(
                PositionedEvent(.activationChanged(from: state.activation, to: activation), at: events.count))
            // SEMANTICS 10: the session runs on the revision that entered background; the
            // live state is only its activation (isolation, SEMANTICS 8.1).
            if activation == .background, next.config.snapshotOnBackground {
                backgroundSnapshot = try snapshot(next, preset: "appSwitcher")
                revision2Events.append(PositionedEvent(.snapshotTaken(session: session), at: events.count))
            }
        }
        return Transition(
            state: next, layout: newLayout, events: events, revision2Events: revision2Events,
            backgroundSnapshot: backgroundSnapshot, changed: true)
    }

    /// Whether `reduce` changed the state. A resize to another size always does (the size is
    /// part of the state, and an equal size returns the input), which spares comparing the
    /// whole state on the hot path.
    private func isChange(_ command: SceneCommand, from state: SceneState, to next: SceneState) -> Bool {
        switch command {
        case .change(.resize(let size)), .resize(let size, _): if size != state.size { return true }
        default: break
        }
        return next != state
    }

    /// `apply` without the events and the layout before the change: the same state, layout
    /// and `changed`, at half the cost. For replaying a journal at start, whose events were
    /// delivered when the changes were accepted.
    public func replay(_ change: SceneChange, to state: SceneState) throws(CoreError) -> Transition {
        try replay(.change(change), to: state)
    }

    /// `replay` of any command. Entering `background` does not run the app-switcher session
    /// again: it was recorded when the change was accepted.
    public func replay(_ command: SceneCommand, to state: SceneState) throws(CoreError) -> Transition {
        var next: SceneState
        switch command {
        case .change(let change):
            next = try reduce(change, state).0
        case let .resize(size, stated):
            next = state
            _ = try resize(&next, to: size, interfaceOrientation: stated)
        case .present(let request):
            next = try reducePresent(request, state, layout: layout(of: state))
        case .activation(let activation, _):
            next = state
            next.activationState = activation == .foregroundActive ? nil : activation
        case .inspector(let intent):
            next = try reduceInspector(intent, state)
        }
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
        case .intent(let intent): try reduce(intent, state, layout: nil)
        case .reconfigure(let patch, let size):
            try reduceReconfigure(patch, size: size, state, layout: nil)
        }
    }

    /// `setConfig` then a resize, one change.
    func reduceReconfigure(
        _ patch: SplitConfigPatch, size: Size, _ state: SceneState,
        layout: Layout?
    ) throws(CoreError) -> (SceneState, TransitionNote) {
        var (next, note) = try reduce(.setConfig(patch), state, layout: layout)
        note.merge(try resize(&next, to: size))
        return (next, note)
    }

    /// A `present` with revision 2's fields (`Presentations.swift`).
    func reducePresent(
        _ request: PresentationRequest, _ state: SceneState, layout: Layout
    ) throws(CoreError) -> SceneState {
        var next = state
        try Navigator(config: state.config, limits: limits)
            .present(try presentation(for: request, in: state, layout: layout), &next.navigation)
        next.navigation.expandedFrom = nil
        return next
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
    ///
    /// The interface orientation (SEMANTICS 1): `stated` wins; else the rule for the new
    /// size; else the value it had. Stating it for the current size is a change only when
    /// it differs.
    func resize(
        _ state: inout SceneState, to size: Size, interfaceOrientation stated: Orientation? = nil
    ) throws(CoreError) -> TransitionNote {
        guard size.isValidWindowSize else { throw .badRequest("invalid size \(size)") }
        let held = interfaceOrientation(of: state)
        guard size != state.size else {
            if let stated, stated != held { setInterfaceOrientation(stated, of: &state) }
            return .none
        }
        let oldSize = state.size
        let traits = try resolveTraits(
            device: state.device, overrides: state.config.traitOverrides,
            size: size, previous: state.traits)
        state.size = size
        setInterfaceOrientation(
            stated ?? catalog.interfaceOrientationRule(device: state.device, size: size) ?? held,
            of: &state)
        return applyTraits(traits, to: &state, from: oldSize)
    }

    /// The part of a resize that follows new traits: expiry of a user display mode (from a
    /// window of `oldSize`), and the collapse or expand transition when the horizontal
    /// class flips. `state.size` is already the new size.
    func applyTraits(_ traits: Traits, to state: inout SceneState, from oldSize: Size) -> TransitionNote {
        let oldTraits = state.traits
        let size = state.size
        state.traits = traits
        state.display = DisplayResolver.expire(
            state.display, from: oldSize, to: size,
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

    /// The state after `intent` and what the events need to know. `layout`: the current
    /// layout when the caller has it (a `present` checks its anchor against it).
    func reduce(
        _ intent: Intent, _ state: SceneState, layout currentLayout: Layout?
    ) throws(CoreError) -> (SceneState, TransitionNote) {
        var next = state
        var note = TransitionNote.none
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
            // SEMANTICS 5 (revision 2): a sidebar the user revealed over the secondary, or
            // beside a displaced one, is dismissed when the app shows a detail, unless the
            // app asked for an explicit mode.
            if !state.collapsed, state.config.preferredDisplayMode == .automatic, next.display.userDisplayMode != nil,
                let mode = currentMode(state),
                [.oneOverSecondary, .twoOverSecondary, .twoDisplaceSecondary].contains(mode)
            {
                next.display.userDisplayMode = nil
                note.modeChangeFollowsRouting = true
                note.columnVisibilityEvents = true
            }
        case .back:
            try navigator.back(&next.navigation)
        case let .selectTab(index):
            try navigator.selectTab(index, &next.navigation)
        case let .present(vc, style):
            next = try reducePresent(
                PresentationRequest(vc: vc, style: style), state,
                layout: currentLayout ?? layout(of: state))
        case .dismiss:
            try navigator.dismiss(&next.navigation)
        case let .setPreferredDisplayMode(mode):
            var patch = SplitConfigPatch()
            patch.preferredDisplayMode = mode
            next = try reconfigure(state, with: patch, note: &note)
        case .displayModeButton:
            // SEMANTICS 5 (revision 2): the button exists only while visible. Classic keeps
            // revision 1's button, a no-op while collapsed.
            if state.config.style != .classic,
                !DisplayResolver.isButtonVisible(config: state.config, collapsed: state.collapsed)
            {
                throw .invalidIntent("displayModeButton: the display-mode button is hidden")
            }
            next.display = try displayAction(.displayModeButton, state)
            note.columnVisibilityEvents = true
        case .gesture:
            next.display = try displayAction(.gesture, state)
            note.columnVisibilityEvents = true
        case .tapDimmed:
            next.display = try displayAction(.tapDimmed, state)
            note.columnVisibilityEvents = true
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
            next = try reconfigure(state, with: patch, note: &note)
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
        return (next, note)
    }

    /// The display mode `state` shows; nil while collapsed.
    func currentMode(_ state: SceneState) -> DisplayMode? {
        state.collapsed
            ? nil : DisplayResolver.resolveMode(config: state.config, size: state.size, memory: state.display).mode
    }

    /// `setConfig` and `setPreferredDisplayMode`: the new configuration and its stacks. A new
    /// preferred display mode is the app's explicit request and supersedes a mode the user
    /// chose; setting the mode it already has changes nothing (SEMANTICS 1).
    ///
    /// New `traitOverrides` resolve the classes again for the current size, with the
    /// transitions a resize would have (a class that flips expires a user mode; a
    /// horizontal flip collapses or expands).
    func reconfigure(
        _ state: SceneState, with patch: SplitConfigPatch, note: inout TransitionNote
    ) throws(CoreError) -> SceneState {
        var next = state
        next.config = try state.config.applying(patch)
        try checkConfig(next.config)
        next.navigation = Reconfiguration.reconfigure(state.navigation, from: state.config, to: next.config)
        // The inspector keeps its stack unless its root changes (then it starts hidden at it).
        if next.config.roots.inspector != state.config.roots.inspector {
            next.navigation.inspector = stackOfRoot(next.config.roots.inspector)
            next.navigation.inspectorShown = nil
        } else {
            next.navigation.inspector = state.navigation.inspector
            next.navigation.inspectorShown = state.navigation.inspectorShown
        }
        if next.config.preferredDisplayMode != state.config.preferredDisplayMode {
            next.display.userDisplayMode = nil
        }
        if next.config.traitOverrides != state.config.traitOverrides {
            let traits = try resolveTraits(
                device: next.device, overrides: next.config.traitOverrides,
                size: next.size, previous: nil)
            note.merge(applyTraits(traits, to: &next, from: next.size))
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
                UInt8(ascii: ":"), UInt8(ascii: "-"):
                true
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
        let roots =
            [
                config.roots.primary, config.roots.supplementary, config.roots.secondary,
                config.roots.compact, config.placeholder,
            ].compactMap { $0 } + config.tabs.map(\.root)
        for root in roots { try checkViewControllerId(root, limits: limits) }
        if let overrides = config.traitOverrides, catalog.ruleSet(overrides) == nil {
            throw CoreError(.unknownDevice, "traitOverrides: no rule set named '\(overrides)'")
        }
    }

    /// show/hideColumn take a column of the style, never `compact` (UIKit refuses it too).
    func checkDisplayedColumn(_ column: Column, _ config: SplitConfig) throws(CoreError) {
        guard column != .compact, config.style.columns.contains(column) else {
            throw .invalidIntent(
                "showColumn/hideColumn: no \(column.rawValue) column in a \(config.style.rawValue) split")
        }
    }
}
