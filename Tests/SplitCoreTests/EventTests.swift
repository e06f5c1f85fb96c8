import Foundation
import Testing
@testable import SplitCore

/// SEMANTICS 7: ordered events, exact appear/disappear counts, none on no-ops.
@Suite struct EventTests {
    /// Classic iPad scene, landscape: list beside detail.
    func scene(_ build: (inout SplitConfigPatch) -> Void = { _ in }) throws -> SceneState {
        try makeScene {
            $0.roots = ColumnRoots(primary: "list", secondary: "detail")
            build(&$0)
        }
    }

    /// SEMANTICS 7 order: traits, collapse, display mode, size, visibility. The trait change
    /// comes before the size change (seed 003: willTransition(to:) before viewWillTransition).
    @Test func collapseEventsInOrder() throws {
        let t = try resized(scene(), padThird)
        #expect(
            t.events == [
                .traitsChanged(from: .regularRegular, to: .compactRegular),
                .willCollapse(moved: ["detail"]),
                .didCollapse(moved: ["detail"]),
                .displayModeChanged(from: .oneBesideSecondary, to: nil),
                .viewWillTransition(to: padThird),
                // detail stays visible (top of the collapsed stack): no event for it.
                .disappear(vc: "list", column: .primary),
            ])
    }

    @Test func expandEventsInOrder() throws {
        let c = try resized(scene(), padThird).state
        let t = try resized(c, padLandscape)
        #expect(
            t.events == [
                .traitsChanged(from: .compactRegular, to: .regularRegular),
                .willExpand(moved: ["detail"]),
                .didExpand(moved: ["detail"]),
                .displayModeChanged(from: nil, to: .oneBesideSecondary),
                .viewWillTransition(to: padLandscape),
                .appear(vc: "list", column: .primary),
            ])
    }

    @Test func rotationHidesTheSidebarWithoutTraitChange() throws {
        let t = try resized(scene(), padPortrait)
        #expect(
            t.events == [
                .displayModeChanged(from: .oneBesideSecondary, to: .secondaryOnly),
                .viewWillTransition(to: padPortrait),
                .disappear(vc: "list", column: .primary),
            ])
    }

    /// A change of the vertical class alone is a trait change too (material: below 480 pt
    /// high is vertically compact), announced before the size.
    @Test func verticalClassChangeAloneIsATraitChange() throws {
        let s = try engine.createScene(
            id: "m", device: "material", size: Size(width: 1000, height: 500),
            config: patch { $0.roots = ColumnRoots(primary: "list", secondary: "detail") })
        let short = Size(width: 1000, height: 470)
        #expect(
            try resized(s, short).events == [
                .traitsChanged(from: .regularRegular, to: .regularCompact),
                .viewWillTransition(to: short),
            ])
    }

    @Test func sameClassResizeOnlyAnnouncesTheSize() throws {
        let t = try resized(scene(), Size(width: 1366, height: 1000))
        #expect(t.changed && t.events == [.viewWillTransition(to: Size(width: 1366, height: 1000))])
    }

    @Test func pushSwapsExactlyTheTopOfTheColumn() throws {
        let t = try engine.apply(.intent(.push(column: .primary, vc: "a")), to: scene())
        #expect(t.events == [.disappear(vc: "list", column: .primary), .appear(vc: "a", column: .primary)])
    }

    @Test func navigationInAHiddenColumnChangesStateButNoVisibility() throws {
        let portrait = try resized(scene(), padPortrait).state
        let t = try engine.apply(.intent(.push(column: .primary, vc: "a")), to: portrait)
        #expect(t.changed && t.events.isEmpty)
    }

    @Test func fullScreenHidesTheColumnsSheetsDoNot() throws {
        let s = try scene()
        let sheet = try engine.apply(.intent(.present(vc: "m", style: .pageSheet)), to: s)
        #expect(sheet.events == [.presented(vc: "m", style: .pageSheet)])
        let full = try engine.apply(.intent(.present(vc: "f", style: .fullScreen)), to: sheet.state)
        #expect(
            full.events == [
                .disappear(vc: "list", column: .primary), .disappear(vc: "detail", column: .secondary),
                .presented(vc: "f", style: .fullScreen),
            ])
        let dismissed = try engine.apply(.intent(.dismiss), to: full.state)
        #expect(
            dismissed.events == [
                .appear(vc: "list", column: .primary), .appear(vc: "detail", column: .secondary),
                .dismissed(vc: "f"),
            ])
    }

    @Test func presentedCarriesTheAdaptedStyle() throws {
        let c = try resized(scene(), padThird).state
        let t = try engine.apply(.intent(.present(vc: "p", style: .popover)), to: c)
        #expect(t.events == [.presented(vc: "p", style: .pageSheet)])
    }

    @Test func displayModeButtonShowsTheSidebar() throws {
        let portrait = try resized(scene(), padPortrait).state
        let t = try engine.apply(.intent(.displayModeButton), to: portrait)
        #expect(t.changed)
        #expect(
            t.events == [
                .displayModeChanged(from: .secondaryOnly, to: t.layout.displayMode),
                .appear(vc: "list", column: .primary),
            ])
    }

    @Test func noOpsEmitNothing() throws {
        let s = try scene()
        for change: SceneChange in [
            .resize(padLandscape), .intent(.popToRoot(column: .secondary)),
            .intent(.setPreferredDisplayMode(.automatic)), .intent(.setConfig(SplitConfigPatch())),
        ] {
            let t = try engine.apply(change, to: s)
            #expect(!t.changed && t.events.isEmpty && t.state.revision == s.revision)
        }
    }

    @Test func aViewControllerVisibleInTwoColumnsIsCountedOnce() throws {
        let s = try run([.push(column: .primary, vc: "same")], on: scene())
        let t = try engine.apply(.intent(.push(column: .secondary, vc: "same")), to: s)
        #expect(t.events == [.disappear(vc: "detail", column: .secondary)])
    }

    @Test func collapsedPushAppearsInTheCompactColumn() throws {
        let c = try resized(scene(), padThird).state
        let t = try engine.apply(.intent(.push(column: .secondary, vc: "x")), to: c)
        #expect(t.events == [.disappear(vc: "detail", column: .compact), .appear(vc: "x", column: .compact)])
    }

    @Test func eventsRoundTripThroughJSON() throws {
        let t = try resized(scene(), padThird)
        let data = try JSONEncoder().encode(t.events)
        #expect(try JSONDecoder().decode([SceneEvent].self, from: data) == t.events)
    }
}
