import Testing
@testable import SplitCore

/// SEMANTICS 6, regular -> compact.
@Suite struct CollapseTests {
    /// Classic scene with primary [list, item] and secondary [ph, d1, d2].
    func classic(_ policy: CollapsePolicy) throws -> SceneState {
        try run(
            [
                .push(column: .primary, vc: "item"), .push(column: .secondary, vc: "d1"),
                .push(column: .secondary, vc: "d2"),
            ],
            on: makeScene {
                $0.roots = ColumnRoots(primary: "list"); $0.placeholder = "ph"; $0.collapsePolicy = policy
            })
    }

    @Test func uikitStacksTheWholeSecondaryPlaceholderIncluded() throws {
        let t = try resized(classic(.uikit), padThird)
        #expect(t.state.collapsedStack == ["list", "item", "ph", "d1", "d2"])
        #expect(t.events.contains(.didCollapse(moved: ["ph", "d1", "d2"])))
    }

    @Test func moveDetailExceptRootLeavesTheRootBehind() throws {
        let t = try resized(classic(.moveDetailExceptRoot), padThird)
        #expect(t.state.collapsedStack == ["list", "item", "d1", "d2"])
        #expect(t.events.contains(.didCollapse(moved: ["d1", "d2"])))
    }

    @Test func keepPrimaryShowsThePrimaryOnly() throws {
        let t = try resized(classic(.keepPrimary), padThird)
        #expect(t.state.collapsedStack == ["list", "item"])
        #expect(t.events.contains(.didCollapse(moved: [])))
    }

    @Test func collapseKeepsTheLayoutShapeOfWire() throws {
        let layout = try resized(classic(.uikit), padThird).layout
        #expect(layout.collapsed && layout.displayMode == nil && layout.splitBehavior == nil)
        #expect(layout.columns.map(\.column) == [.compact])
        #expect(layout.columns[0].x == 0 && layout.columns[0].width == padThird.width && layout.columns[0].visible)
        #expect(layout.traits.horizontalSizeClass == .compact)
    }

    /// Triple scene p/m/d with one push in each column.
    func triple(_ top: TopColumnForCollapsing, then intents: [Intent] = []) throws -> SceneState {
        try run(
            [
                .push(column: .primary, vc: "p1"), .push(column: .supplementary, vc: "m1"),
                .push(column: .secondary, vc: "d1"),
            ] + intents,
            on: makeScene {
                $0.style = .tripleColumn
                $0.roots = ColumnRoots(primary: "p", supplementary: "m", secondary: "d")
                $0.topColumnForCollapsing = top
            })
    }

    @Test(arguments: [
        (TopColumnForCollapsing.secondary, ["p", "p1", "m", "m1", "d", "d1"]),
        (.supplementary, ["p", "p1", "m", "m1"]),
        (.primary, ["p", "p1"]),
    ])
    func columnStylesStackUpToTheTopColumn(_ top: TopColumnForCollapsing, _ expected: [String]) throws {
        #expect(try resized(triple(top), padThird).state.collapsedStack == expected)
    }

    @Test func lastNavigatedPutsTheColumnNavigatedLastOnTop() throws {
        let supplementaryLast = try triple(.lastNavigated, then: [.push(column: .supplementary, vc: "m2")])
        #expect(try resized(supplementaryLast, padThird).state.collapsedStack == ["p", "p1", "m", "m1", "m2"])
        let primaryLast = try triple(.lastNavigated, then: [.pop(column: .primary)])
        #expect(try resized(primaryLast, padThird).state.collapsedStack == ["p"])
        let nothingYet = try makeScene {
            $0.style = .doubleColumn
            $0.roots = ColumnRoots(primary: "p", secondary: "d")
            $0.topColumnForCollapsing = .lastNavigated
        }
        #expect(try resized(nothingYet, padThird).state.collapsedStack == ["p", "d"])
    }

    @Test func supplementaryTopInATwoColumnStyleFallsBackToTheSecondary() throws {
        let s = try makeScene {
            $0.style = .doubleColumn
            $0.roots = ColumnRoots(primary: "p", secondary: "d")
            $0.topColumnForCollapsing = .supplementary
        }
        #expect(try resized(s, padThird).state.collapsedStack == ["p", "d"])
    }

    @Test func aCompactColumnReplacesTheStackedColumns() throws {
        let s = try run(
            [.push(column: .secondary, vc: "d1")],
            on: makeScene {
                $0.style = .doubleColumn
                $0.roots = ColumnRoots(primary: "p", secondary: "d", compact: "phone")
            })
        let t = try resized(s, padThird)
        #expect(t.state.collapsedStack == ["phone"])
        #expect(t.events.contains(.didCollapse(moved: [])))
        let pushed = try run([.push(column: .compact, vc: "phone2")], on: t.state)
        let back = try resized(pushed, padLandscape).state
        #expect(back.visibleStack(.primary) == ["p"] && back.visibleStack(.secondary) == ["d", "d1"])
        #expect(back.navigation.compact == ["phone", "phone2"])
        #expect(try resized(back, padThird).state.collapsedStack == ["phone", "phone2"])
    }

    @Test func collapseOnlyHappensOnAHorizontalCompactSize() throws {
        let s = try classic(.uikit)
        #expect(try !resized(s, padHalf).state.collapsed)
        #expect(try !resized(s, padPortrait).state.collapsed)
        #expect(try resized(s, padThird).state.collapsed)
    }

    @Test func ruleSetsDecideCollapseAsSeed000Does() throws {
        let s = try engine.createScene(
            id: "w", device: "compact-below-1000", size: Size(width: 1200, height: 900),
            config: patch { $0.roots = ColumnRoots(primary: "tabs") })
        #expect(!s.collapsed)
        #expect(try resized(s, Size(width: 999, height: 900)).state.collapsed)
        #expect(try !resized(s, Size(width: 1000, height: 900)).state.collapsed)
    }
}
