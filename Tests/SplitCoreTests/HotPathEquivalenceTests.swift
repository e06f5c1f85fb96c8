import PropertyBased
import Testing
@testable import SplitCore

/// `SplitEngine.apply` is written for the daemon's hot path (the caller's layout
/// instead of resolving the old one again, a resize's `changed` without comparing whole
/// states, events appended in place). Its transitions must be exactly those of the
/// straightforward reducer kept here as the reference, over random histories.
@Suite struct HotPathEquivalenceTests {
    static let seeds = Gen.int(in: 0...Int(Int32.max))
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 1...30)

    /// The reducer as first written: compare the states, resolve both layouts, collect the
    /// events step by step.
    func reference(_ change: SceneChange, _ state: SceneState) throws(CoreError) -> Transition {
        var (next, note) = try engine.reduce(change, state)
        guard next != state else {
            return Transition(state: state, layout: engine.layout(of: state), events: [], changed: false)
        }
        next.revision = state.revision + 1
        let old = engine.layout(of: state), new = engine.layout(of: next)
        var events = Self.referenceEvents(from: old, to: new, note: note)
        // Revision 2 (SEMANTICS 5): showDetail's dismissal of a revealed sidebar reports the
        // mode change after the routing's appear/disappear.
        if note.modeChangeFollowsRouting { EventOrder.moveModeChangeAfterVisibility(&events) }
        return Transition(state: next, layout: new, events: events, changed: true)
    }

    static func referenceEvents(from old: Layout, to new: Layout, note: TransitionNote) -> [SceneEvent] {
        var events: [SceneEvent] = []
        if old.traits != new.traits { events.append(.traitsChanged(from: old.traits, to: new.traits)) }
        if let moved = note.collapsed { events += [.willCollapse(moved: moved), .didCollapse(moved: moved)] }
        if let moved = note.expanded { events += [.willExpand(moved: moved), .didExpand(moved: moved)] }
        if old.displayMode != new.displayMode {
            events.append(.displayModeChanged(from: old.displayMode, to: new.displayMode))
        }
        if old.size != new.size { events.append(.viewWillTransition(to: new.size)) }
        let before = tops(old), after = tops(new)
        events += before.filter { top in !after.contains { $0.vc == top.vc } }.map {
            .disappear(vc: $0.vc, column: $0.column)
        }
        events += after.filter { top in !before.contains { $0.vc == top.vc } }.map {
            .appear(vc: $0.vc, column: $0.column)
        }
        var common = 0
        while common < min(old.presentations.count, new.presentations.count),
            old.presentations[common].vc == new.presentations[common].vc,
            old.presentations[common].style == new.presentations[common].style
        {
            common += 1
        }
        events += old.presentations[common...].reversed().map { .dismissed(vc: $0.vc) }
        events += new.presentations[common...].map { .presented(vc: $0.vc, style: $0.effectiveStyle) }
        return events
    }

    static func tops(_ layout: Layout) -> [(vc: String, column: Column)] {
        guard !layout.presentations.contains(where: { $0.effectiveStyle == .fullScreen }) else { return [] }
        var tops: [(vc: String, column: Column)] = []
        for column in layout.columns where column.visible {
            guard let top = column.stack.last, !tops.contains(where: { $0.vc == top }) else { continue }
            tops.append((top, column.column))
        }
        return tops
    }

    @Test func applyWithTheKeptLayoutGivesTheReferenceTransition() async {
        await propertyCheck(count: 200, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            for step in steps {
                var dice = Dice(step)
                let change = RandomScene.change(state, &dice)
                let expected = transitionOutcome { () throws(CoreError) in try reference(change, state) }
                let kept = transitionOutcome { () throws(CoreError) in
                    try engine.apply(change, to: state, currentLayout: engine.layout(of: state))
                }
                let plain = transitionOutcome { () throws(CoreError) in try engine.apply(change, to: state) }
                for actual in [kept, plain] {
                    expectSameOutcome(actual, as: expected, for: change)
                }
                if case let .success(t) = expected { state = t.state }
            }
        }
    }

    @Test func eventsBetweenAnyTwoLayoutsOfAHistoryMatchTheReference() async {
        await propertyCheck(count: 100, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            var layouts = [engine.layout(of: state)]
            for step in steps {
                var dice = Dice(step)
                if case let .success(t) = transitionOutcome({ () throws(CoreError) in
                    try engine.apply(RandomScene.change(state, &dice), to: state)
                }) {
                    state = t.state
                    layouts.append(t.layout)
                }
            }
            // Pairs a single change never makes (far apart in the history, either order).
            var dice = Dice(seed)
            for _ in 0..<20 {
                let old = dice.pick(layouts), new = dice.pick(layouts)
                let note = TransitionNote(
                    collapsed: dice.chance(20) ? ["x", "y"] : nil,
                    expanded: dice.chance(20) ? ["z"] : nil)
                #expect(
                    EventOrder.events(from: old, to: new, note: note)
                        == Self.referenceEvents(from: old, to: new, note: note))
            }
        }
    }
}
