import Testing
@testable import SplitCore

/// SEMANTICS 6, compact -> regular, after navigation while collapsed (without navigation
/// the round trip is exact: RoundTripTests).
@Suite struct ExpandTests {
    func collapsed(_ build: (inout SplitConfigPatch) -> Void) throws -> SceneState {
        let s = try run(
            [.push(column: .secondary, vc: "d1")],
            on: makeScene {
                $0.roots = ColumnRoots(primary: "list")
                $0.placeholder = "ph"
                build(&$0)
            })
        return try resized(s, padThird).state
    }

    @Test func uikitSendsSecondaryEntriesAndWhatWasPushedAboveThemBack() throws {
        let s = try run([.push(column: .secondary, vc: "d2")], on: collapsed { _ in })
        #expect(s.collapsedStack == ["list", "ph", "d1", "d2"])
        let t = try resized(s, padLandscape)
        #expect(t.state.visibleStack(.primary) == ["list"])
        #expect(t.state.visibleStack(.secondary) == ["ph", "d1", "d2"])
        #expect(t.events.contains(.didExpand(moved: ["ph", "d1", "d2"])))
    }

    @Test func uikitKeepsPrimaryPushesInThePrimary() throws {
        let s = try collapsed { $0.collapsePolicy = .keepPrimary }
        let pushed = try run([.push(column: .primary, vc: "item")], on: s)
        let t = try resized(pushed, padLandscape)
        #expect(t.state.visibleStack(.primary) == ["list", "item"])
        #expect(t.state.visibleStack(.secondary) == ["ph", "d1"])
        #expect(t.events.contains(.didExpand(moved: [])))
    }

    @Test func uikitPutsTheRootBackUnderWhatMoveDetailExceptRootMoved() throws {
        let s = try run(
            [.push(column: .primary, vc: "d2")], on: collapsed { $0.collapsePolicy = .moveDetailExceptRoot })
        #expect(s.collapsedStack == ["list", "d1", "d2"])
        let t = try resized(s, padLandscape)
        #expect(t.state.visibleStack(.secondary) == ["ph", "d1", "d2"])
        #expect(t.state.visibleStack(.primary) == ["list"])
    }

    @Test func uikitFallsBackToThePlaceholderWhenTheSecondaryWasPoppedAway() throws {
        let s = try run([.pop(column: .primary), .pop(column: .primary)], on: collapsed { _ in })
        #expect(s.collapsedStack == ["list"])
        let t = try resized(s, padLandscape).state
        #expect(t.visibleStack(.secondary) == ["ph"])
    }

    @Test func detailContentFollowsTheDetailRouting() throws {
        let replace = try run([.showDetail(vc: "x")], on: collapsed { $0.collapsePolicy = .keepPrimary })
        #expect(try resized(replace, padLandscape).state.visibleStack(.secondary) == ["x"])
        let reset = try run(
            [.showDetail(vc: "x"), .push(column: .primary, vc: "y")],
            on: collapsed {
                $0.collapsePolicy = .keepPrimary; $0.detailRouting = .resetAndPush
            })
        let t = try resized(reset, padLandscape)
        #expect(t.state.visibleStack(.secondary) == ["ph", "x", "y"])
        #expect(t.state.visibleStack(.primary) == ["list"])
        #expect(t.events.contains(.didExpand(moved: ["x", "y"])))
    }

    /// A compact column is a navigation of its own (PROTOCOL.md, ours): detail content shown
    /// while collapsed stays in it across an expand and a collapse, and the secondary keeps
    /// its stack; a configuration change that rebuilds the stacks keeps both as they were.
    @Test(arguments: [DetailRouting.replace, .resetAndPush])
    func aCompactColumnKeepsWhatWasShownInIt(_ routing: DetailRouting) throws {
        let start = try makeScene {
            $0.style = .tripleColumn
            $0.roots = ColumnRoots(primary: "side", supplementary: "list", secondary: "det", compact: "cmp")
            $0.detailRouting = routing
        }
        let collapsedScene = try resized(start, padThird).state
        let navigated = try run([.showDetail(vc: "d"), .push(column: .compact, vc: "e")], on: collapsedScene)
        #expect(navigated.collapsedStack == ["cmp", "d", "e"])
        let expanded = try resized(navigated, padLandscape)
        #expect(expanded.state.visibleStack(.secondary) == ["det"])
        #expect(expanded.state.navigation.compact == ["cmp", "d", "e"])
        #expect(expanded.events.contains(.didExpand(moved: [])))
        #expect(try resized(expanded.state, padThird).state.collapsedStack == ["cmp", "d", "e"])
        var placeholder = SplitConfigPatch()
        placeholder.placeholder = "ph"
        let reconfigured = try run([.setConfig(placeholder), .pop(column: .compact)], on: navigated)
        #expect(reconfigured.collapsedStack == ["cmp", "d"])
        #expect(try resized(reconfigured, padLandscape).state.visibleStack(.secondary) == ["det"])
    }

    @Test func moveAllButRootMovesEverythingAboveThePrimaryRoot() throws {
        let s = try run(
            [.push(column: .primary, vc: "a")],
            on: collapsed {
                $0.collapsePolicy = .moveDetailExceptRoot; $0.expandPolicy = .moveAllButRoot
            })
        #expect(s.collapsedStack == ["list", "d1", "a"])
        let t = try resized(s, padLandscape)
        #expect(t.state.visibleStack(.primary) == ["list"])
        #expect(t.state.visibleStack(.secondary) == ["ph", "d1", "a"])
        #expect(t.events.contains(.didExpand(moved: ["d1", "a"])))
    }

    /// `moveAllButRoot` after a `uikit` collapse, which moved the secondary's root up too:
    /// the root is not stacked on a second copy of itself.
    @Test func moveAllButRootDoesNotDuplicateARootThatCameAlong() throws {
        let s = try run([.push(column: .compact, vc: "a3")], on: collapsed { $0.expandPolicy = .moveAllButRoot })
        #expect(s.collapsedStack == ["list", "ph", "d1", "a3"])
        let e = try resized(s, padLandscape).state
        #expect(e.visibleStack(.primary) == ["list"])
        #expect(e.visibleStack(.secondary) == ["ph", "d1", "a3"])
        // A collapse-navigate-expand cycle does not grow it either.
        let again = try run([.push(column: .compact, vc: "a4")], on: resized(e, padThird).state)
        #expect(try resized(again, padLandscape).state.visibleStack(.secondary) == ["ph", "d1", "a3", "a4"])
    }

    @Test func columnStylesGiveEachColumnItsEntriesBack() throws {
        let s = try run(
            [.push(column: .supplementary, vc: "m1")],
            on: makeScene {
                $0.style = .tripleColumn
                $0.roots = ColumnRoots(primary: "p", supplementary: "m", secondary: "d")
            })
        let c = try run([.push(column: .secondary, vc: "d1")], on: resized(s, padThird).state)
        #expect(c.collapsedStack == ["p", "m", "m1", "d", "d1"])
        let e = try resized(c, padLandscape).state
        #expect(e.visibleStack(.primary) == ["p"])
        #expect(e.visibleStack(.supplementary) == ["m", "m1"])
        #expect(e.visibleStack(.secondary) == ["d", "d1"])
    }

    /// WIRE: a visible column's stack has a top; popping a tripleColumn's supplementary
    /// entries away while collapsed must not leave it empty on expand.
    @Test(arguments: [
        [Intent.back, .back], [.pop(column: .compact), .pop(column: .compact)],
        [.popToRoot(column: .supplementary)],
    ])
    func aSupplementaryPoppedAwayWhileCollapsedComesBackAsItsRoot(_ intents: [Intent]) throws {
        let s = try makeScene {
            $0.style = .tripleColumn
            $0.roots = ColumnRoots(primary: "P", supplementary: "S", secondary: "D")
        }
        let c = try resized(s, padThird).state
        #expect(c.collapsedStack == ["P", "S", "D"])
        let popped = try run(intents, on: c)
        #expect(popped.collapsedStack == ["P"])
        let t = try resized(popped, padLandscape)
        #expect(t.state.visibleStack(.supplementary) == ["S"])
        #expect(t.state.visibleStack(.secondary) == ["D"])
        #expect(t.state.navigation.supplementary == ["S"])
        #expect(appeared(t.events).contains("S"))
        // And it can be navigated as before: push, then pop back to its root.
        let pushed = try run([.push(column: .supplementary, vc: "n"), .pop(column: .supplementary)], on: t.state)
        #expect(pushed.visibleStack(.supplementary) == ["S"])
    }

    @Test func aCompactCollapsedSceneCreatedSoExpandsToItsColumns() throws {
        let s = try makeScene("iphone-14-plus", size: Size(width: 428, height: 926)) {
            $0.roots = ColumnRoots(primary: "list")
            $0.placeholder = "ph"
        }
        #expect(s.collapsedStack == ["list", "ph"])
        let pushed = try run([.push(column: .primary, vc: "d")], on: s)
        // A Plus phone is regular in landscape (SEMANTICS 2).
        let e = try resized(pushed, Size(width: 926, height: 428)).state
        #expect(e.visibleStack(.primary) == ["list"] && e.visibleStack(.secondary) == ["ph", "d"])
    }
}
