import Foundation
import PropertyBased
import Testing
@testable import SplitCore

/// Invariants over random histories: random devices and sizes, random configurations,
/// random (valid and invalid) intents.
@Suite struct PropertyTests {
    static let seeds = Gen.int(in: 0...Int(Int32.max))
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 1...30)

    /// Runs a random history, calling `check` with each state before a change and its outcome.
    func history(
        _ seed: Int, _ steps: [Int], check: (SceneState, SceneChange, Result<Transition, CoreError>) throws -> Void
    ) throws {
        var state = try RandomScene.scene(seed)
        for step in steps {
            var dice = Dice(step)
            let change = RandomScene.change(state, &dice)
            let before = state
            let outcome: Result<Transition, CoreError>
            do throws(CoreError) {
                outcome = .success(try engine.apply(change, to: state))
            } catch {
                outcome = .failure(error)
            }
            try check(before, change, outcome)
            if case let .success(t) = outcome { state = t.state }
        }
    }

    @Test func layoutInvariantsHold() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            try history(seed, steps) { _, _, outcome in
                guard case let .success(t) = outcome else { return }
                checkLayout(t.state, t.layout)
            }
        }
    }

    func checkLayout(_ state: SceneState, _ layout: Layout) {
        #expect(layout == engine.layout(of: state))
        #expect(layout.collapsed == state.collapsed)
        #expect(layout.collapsed == (layout.traits.horizontalSizeClass == .compact))
        #expect((layout.displayMode == nil) == layout.collapsed)
        #expect((layout.splitBehavior == nil) == layout.collapsed)
        #expect(layout.displayMode != .automatic && layout.splitBehavior != .automatic)
        #expect(layout.orientation == (layout.size.width > layout.size.height ? .landscape : .portrait))
        if layout.collapsed {
            #expect(layout.columns.map(\.column) == [.compact])
            #expect(layout.columns.first?.stack == state.navigation.collapsed?.vcs)
            return
        }
        #expect(layout.columns.map(\.column) == state.config.style.columns)
        // WIRE: a stack's last element is the visible top; no column is ever left without one.
        for column in layout.columns { #expect(!column.stack.isEmpty, "\(column.column) has an empty stack") }
        let c = state.config
        for column in layout.columns where column.visible {
            let displaced = column.column == .secondary && layout.splitBehavior == .displace
            // Overlaid sidebars may reach past the trailing edge of a narrow window.
            let overlaid = column.column != .secondary && layout.splitBehavior == .overlay
            if !displaced && !overlaid {
                #expect(
                    column.x >= -1e-9 && column.x + column.width <= layout.size.width + 1e-9,
                    "\(column.column) \(column.x)+\(column.width) outside \(layout.size)")
            }
            if column.column == .primary {
                #expect(
                    column.width >= c.minimumPrimaryColumnWidth - 1e-9
                        && column.width <= c.maximumPrimaryColumnWidth + 1e-9)
            }
            if column.column == .supplementary {
                #expect(
                    column.width >= c.minimumSupplementaryColumnWidth - 1e-9
                        && column.width <= c.maximumSupplementaryColumnWidth + 1e-9)
            }
        }
        if let selected = layout.selectedTab { #expect(state.navigation.tabs.indices.contains(selected)) }
    }

    @Test func revisionsGrowOnChangeAndStayOnNoOpsAndErrorsChangeNothing() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            try history(seed, steps) { before, change, outcome in
                switch outcome {
                case let .success(t) where t.changed:
                    #expect(t.state.revision == before.revision + 1)
                    #expect(t.state != before)
                case let .success(t):
                    #expect(t.state == before && t.events.isEmpty && t.state.revision == before.revision)
                case .failure:
                    // The reducer is pure: the same request fails again on the same state.
                    #expect(throws: CoreError.self) { try engine.apply(change, to: before) }
                }
            }
        }
    }

    @Test func appearAndDisappearAreExact() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            try history(seed, steps) { before, _, outcome in
                guard case let .success(t) = outcome else { return }
                let old = Set(EventOrder.visibleControllers(engine.layout(of: before)).map(\.vc))
                let new = Set(EventOrder.visibleControllers(t.layout).map(\.vc))
                #expect(Set(appeared(t.events)) == new.subtracting(old))
                #expect(Set(disappeared(t.events)) == old.subtracting(new))
                #expect(appeared(t.events).count == Set(appeared(t.events)).count)
                #expect(disappeared(t.events).count == Set(disappeared(t.events)).count)
            }
        }
    }

    @Test func collapseExpandRoundTripIsLossless() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            try history(seed, steps) { before, _, _ in
                if !before.collapsed, let compact = RandomScene.compactSize(for: before) {
                    let back = try resized(resized(before, compact).state, before.size).state
                    guard !back.collapsed else { return }  // rule-set hysteresis kept it compact
                    #expect(back.navigation == before.navigation)
                    #expect(back.config == before.config && back.size == before.size)
                } else if before.collapsed, let regular = RandomScene.regularSize(for: before) {
                    let back = try resized(resized(before, regular).state, before.size).state
                    guard back.collapsed else { return }
                    #expect(back.navigation == before.navigation)
                }
            }
        }
    }

    /// The hot path's in-place check agrees with building the stack and comparing.
    @Test func wouldRebuildAgreesWithBuildStack() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            try history(seed, steps) { before, _, _ in
                guard let collapsed = before.navigation.collapsed else { return }
                let expanded = Expand.expand(before.navigation, config: before.config).0
                #expect(
                    Collapse.wouldRebuild(collapsed, from: expanded, config: before.config)
                        == (Collapse.buildStack(expanded, config: before.config) == collapsed))
            }
        }
    }

    @Test func snapshotsArePureAndPathIndependent() async {
        await propertyCheck(count: 60, input: Self.seeds, Self.steps) { seed, steps in
            var dice = Dice(seed)
            try history(seed, steps) { before, _, _ in
                guard dice.chance(30) else { return }
                let sizes = (0..<3).map { _ in RandomScene.size(device: before.device, &dice) }
                let copy = before
                let forward = try engine.snapshot(before, sizes: sizes)
                let backward = try engine.snapshot(before, sizes: sizes.reversed())
                #expect(before == copy)
                #expect(forward.snapshots == Array(backward.snapshots.reversed()))
                #expect(forward.baseRevision == before.revision)
                for snap in forward.snapshots {
                    #expect(snap.layout == (try engine.apply(.resize(snap.size), to: before).layout))
                }
                let exact = RandomScene.isFresh(before)
                let final = try sizes.reduce(before) { s, size in try engine.apply(.resize(size), to: s).state }
                let home = try engine.apply(.resize(before.size), to: final).state
                if exact && home.traits == before.traits {
                    // Revision 2 (SEMANTICS 8.3): a display mode the user chose and the live
                    // replay expired is the one loss, named `displayMode`.
                    if before.display.userDisplayMode == nil
                        || home.display.userDisplayMode == before.display.userDisplayMode
                    {
                        #expect(forward.roundTrip.lossless, "\(forward.roundTrip.differences)")
                    } else {
                        #expect(forward.roundTrip.lost == ["displayMode"], "\(forward.roundTrip.differences)")
                    }
                }
            }
        }
    }

    @Test func sceneStateCodableRoundTripsExactly() async {
        await propertyCheck(count: 100, input: Self.seeds, Self.steps) { seed, steps in
            try history(seed, steps) { _, _, outcome in
                guard case let .success(t) = outcome else { return }
                let data = try JSONEncoder().encode(t.state)
                #expect(try JSONDecoder().decode(SceneState.self, from: data) == t.state)
            }
        }
    }
}

/// SEMANTICS 5 and 6 rules that hold for all histories.
@Suite struct HistoryRuleTests {
    func history(_ seed: Int, _ steps: [Int], check: (SceneState) throws -> Void) throws {
        var state = try RandomScene.scene(seed)
        for step in steps {
            var dice = Dice(step)
            try check(state)
            if let t = try? engine.apply(RandomScene.change(state, &dice), to: state) { state = t.state }
        }
    }

    /// A user-chosen mode expires on a change of orientation or size class, and only then.
    @Test func userModesExpireOnOrientationOrSizeClassChangeOnly() async {
        await propertyCheck(count: 150, input: PropertyTests.seeds, PropertyTests.steps) { seed, steps in
            var dice = Dice(seed)
            try history(seed, steps) { state in
                let chosen = try engine.apply(.intent(.displayModeButton), to: state).state
                guard let user = chosen.display.userDisplayMode else { return }
                let size = RandomScene.size(device: chosen.device, &dice)
                let after = try engine.apply(.resize(size), to: chosen).state
                let kept = after.traits == chosen.traits && size.orientation == chosen.size.orientation
                #expect(after.display.userDisplayMode == (kept ? user : nil), "\(chosen.size) -> \(size)")
            }
        }
    }

    /// selectTab away and back restores the navigation exactly (SEMANTICS 6: the tab's detail
    /// stack is saved and restored), expanded or freshly collapsed.
    @Test func tabTripsRestoreTheNavigation() async {
        await propertyCheck(count: 150, input: PropertyTests.seeds, PropertyTests.steps) { seed, steps in
            try history(seed, steps) { state in
                guard let current = state.navigation.selectedTab, state.navigation.tabs.count > 1,
                    RandomScene.isFresh(state)
                else { return }
                let other = (current + 1) % state.navigation.tabs.count
                let back = try run([.selectTab(index: other), .selectTab(index: current)], on: state)
                // Switching tabs is navigation: what the last expand kept is dropped.
                var expected = state.navigation
                expected.expandedFrom = nil
                #expect(back.navigation == expected)
                #expect(back.layout == state.layout)
            }
        }
    }
}

extension HistoryRuleTests {
    /// SEMANTICS 7 for every accepted change: events come in the order the section lists
    /// them, and each transition event appears exactly when its change happened.
    @Test func eventsFollowTheSection7Order() async {
        let rank: [String: Int] = [
            "traitsChanged": 0, "willCollapse": 1, "didCollapse": 2, "willExpand": 1, "didExpand": 2,
            "displayModeChanged": 3, "viewWillTransition": 4, "disappear": 5, "appear": 6, "dismissed": 7,
            "presented": 8,
        ]
        await propertyCheck(count: 150, input: PropertyTests.seeds, PropertyTests.steps) { seed, steps in
            var dice = Dice(seed)
            try history(seed, steps) { state in
                let change = RandomScene.change(state, &dice)
                guard let t = try? engine.apply(change, to: state) else { return }
                // Revision 2 (SEMANTICS 5): when showDetail dismisses a revealed sidebar, the
                // mode change follows the routing's appear/disappear.
                let dismissal = { if case .intent(.showDetail) = change { !state.collapsed } else { false } }()
                let ranks = t.events.map { event -> Double in
                    if dismissal, event.type == "displayModeChanged" { return 6.5 }
                    return rank[event.type].map(Double.init) ?? -1
                }
                #expect(ranks == ranks.sorted() && !ranks.contains(-1), "\(t.events.map(\.type))")
                let types = t.events.map(\.type)
                func count(_ type: String) -> Int { types.filter { $0 == type }.count }
                #expect(count("traitsChanged") == (t.state.traits != state.traits ? 1 : 0))
                #expect(count("viewWillTransition") == (t.state.size != state.size ? 1 : 0))
                #expect(count("willCollapse") == (t.state.collapsed && !state.collapsed ? 1 : 0))
                #expect(count("didCollapse") == count("willCollapse"))
                #expect(count("willExpand") == (!t.state.collapsed && state.collapsed ? 1 : 0))
                #expect(count("didExpand") == count("willExpand"))
                #expect(count("displayModeChanged") == (t.layout.displayMode != state.layout.displayMode ? 1 : 0))
            }
        }
    }
}
