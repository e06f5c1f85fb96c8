import PropertyBased
import Testing
@testable import SplitCore

/// `SplitEngine.apply` reduces a resize in place on one copy of the state, with
/// `Collapse.collapse(_:inout)` and `Expand.expand(_:inout)`. Its transitions must be those
/// of the copying resize kept here as the reference, over random histories, and the in-place
/// collapse and expand must give what the value-returning ones give.
@Suite struct InPlaceResizeTests {
    static let seeds = Gen.int(in: 0...Int(Int32.max))
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 1...30)

    /// The resize as a plain value transformation: a copy of the state, and
    /// collapse or expand returning a new navigation.
    static func referenceResize(_ state: SceneState, to size: Size) throws(CoreError) -> (SceneState, TransitionNote) {
        guard size.isValidWindowSize else { throw .badRequest("invalid size \(size)") }
        guard size != state.size else { return (state, .none) }
        let traits = try engine.catalog.traits(device: state.device, size: size, previous: state.traits)
        var next = state
        next.size = size
        // Revision 2 (SEMANTICS 1): the interface orientation by the rule, else the last one.
        let held = engine.interfaceOrientation(of: state)
        engine.setInterfaceOrientation(
            engine.catalog.interfaceOrientationRule(device: state.device, size: size) ?? held, of: &next)
        next.traits = traits
        next.display = DisplayResolver.expire(
            state.display, from: state.size, to: size,
            oldTraits: state.traits, newTraits: traits)
        next.display.lastTraits = traits
        var note = TransitionNote.none
        let compact = traits.horizontalSizeClass == .compact
        if compact, !state.collapsed {
            var current = state.navigation
            current.expandedFrom = nil
            // The collapsed navigation the last expand started from, if nothing navigated since.
            if let memory = state.navigation.expandedFrom {
                let (again, movedOut) = Expand.expand(memory.navigation, config: state.config)
                if again == current {
                    next.navigation = memory.navigation
                    note.collapsed = movedOut
                    return (next, note)
                }
            }
            let (nav, moved) = Collapse.collapse(current, config: state.config)
            next.navigation = nav
            note.collapsed = moved
        } else if !compact, state.collapsed {
            let (nav, moved) = Expand.expand(state.navigation, config: state.config)
            next.navigation = nav
            if let collapsed = state.navigation.collapsed, Collapse.buildStack(nav, config: state.config) != collapsed {
                next.navigation.expandedFrom = ExpandedFrom(state.navigation)
            }
            note.expanded = moved
        }
        return (next, note)
    }

    static func referenceApply(_ size: Size, _ state: SceneState) throws(CoreError) -> Transition {
        var (next, note) = try referenceResize(state, to: size)
        guard next != state else {
            return Transition(state: state, layout: engine.layout(of: state), events: [], changed: false)
        }
        next.revision = state.revision + 1
        let old = engine.layout(of: state), new = engine.layout(of: next)
        return Transition(
            state: next, layout: new, events: EventOrder.events(from: old, to: new, note: note), changed: true)
    }

    @Test func resizeInPlaceGivesTheCopyingResizesTransition() async {
        await propertyCheck(count: 200, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            for step in steps {
                var dice = Dice(step)
                // Every other step a resize (half of them flipping the size class), so that
                // collapse and expand meet every kind of navigation the history built.
                let change =
                    dice.chance(50)
                    ? RandomScene.change(state, &dice)
                    : .resize(
                        (state.collapsed ? RandomScene.regularSize(for: state) : RandomScene.compactSize(for: state))
                            ?? RandomScene.size(device: state.device, &dice))
                if case .resize(let size) = change {
                    let expected = transitionOutcome { () throws(CoreError) in try Self.referenceApply(size, state) }
                    let actual = transitionOutcome { () throws(CoreError) in
                        try engine.apply(change, to: state, currentLayout: engine.layout(of: state))
                    }
                    expectSameOutcome(actual, as: expected, for: change)
                }
                if case let .success(t) = transitionOutcome({ () throws(CoreError) in
                    try engine.apply(change, to: state)
                }) {
                    state = t.state
                }
            }
        }
    }

    @Test func collapseAndExpandInPlaceMatchTheValueReturningOnes() async {
        await propertyCheck(count: 200, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            for step in steps {
                var dice = Dice(step)
                if case let .success(t) = transitionOutcome({ () throws(CoreError) in
                    try engine.apply(RandomScene.change(state, &dice), to: state)
                }) {
                    state = t.state
                }
                if state.collapsed {
                    let (expected, expectedMoved) = Expand.expand(state.navigation, config: state.config)
                    var navigation = state.navigation
                    let moved = Expand.expand(&navigation, config: state.config)
                    #expect(navigation == expected)
                    #expect(moved == expectedMoved)
                } else {
                    let (expected, expectedMoved) = Collapse.collapse(state.navigation, config: state.config)
                    var navigation = state.navigation
                    let moved = Collapse.collapse(&navigation, config: state.config)
                    #expect(navigation == expected)
                    #expect(moved == expectedMoved)
                }
            }
        }
    }
}
