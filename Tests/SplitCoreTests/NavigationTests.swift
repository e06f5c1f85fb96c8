import Testing
@testable import SplitCore

/// SEMANTICS 6 intents on expanded and collapsed scenes.
@Suite struct NavigationTests {
    func expanded(_ build: (inout SplitConfigPatch) -> Void = { _ in }) throws -> SceneState {
        try makeScene {
            $0.roots = ColumnRoots(primary: "list", secondary: "detail")
            build(&$0)
        }
    }

    @Test func pushPopAndPopToRootEditTheColumnStack() throws {
        var s = try run([.push(column: .primary, vc: "a"), .push(column: .primary, vc: "b")], on: expanded())
        #expect(s.visibleStack(.primary) == ["list", "a", "b"])
        s = try run([.pop(column: .primary)], on: s)
        #expect(s.visibleStack(.primary) == ["list", "a"])
        s = try run([.push(column: .secondary, vc: "c"), .popToRoot(column: .primary)], on: s)
        #expect(s.visibleStack(.primary) == ["list"])
        #expect(s.visibleStack(.secondary) == ["detail", "c"])
    }

    @Test func showIsAPushInTheSendersColumn() throws {
        let s = try expanded()
        #expect(
            try run([.show(vc: "x", column: .secondary)], on: s) == run([.push(column: .secondary, vc: "x")], on: s))
    }

    @Test func popAtARootIsAnErrorAndLeavesTheStateAlone() throws {
        let s = try expanded()
        #expect(errorCode { _ = try engine.apply(.intent(.pop(column: .primary)), to: s) } == .invalidIntent)
        let empty = try makeScene()
        #expect(errorCode { _ = try engine.apply(.intent(.pop(column: .secondary)), to: empty) } == .invalidIntent)
    }

    @Test func popToRootAtTheRootIsANoOp() throws {
        let s = try expanded()
        let t = try engine.apply(.intent(.popToRoot(column: .primary)), to: s)
        #expect(!t.changed && t.events.isEmpty && t.state == s)
    }

    @Test func columnsTheStyleLacksAreInvalid() throws {
        let s = try expanded()
        for intent: Intent in [
            .push(column: .supplementary, vc: "x"), .pop(column: .supplementary),
            .popToRoot(column: .supplementary), .push(column: .compact, vc: "x"),
            .showColumn(.supplementary), .hideColumn(.compact),
        ] {
            #expect(errorCode { _ = try engine.apply(.intent(intent), to: s) } == .invalidIntent)
        }
        let triple = try expanded {
            $0.style = .tripleColumn; $0.roots?.supplementary = "mid"
        }
        #expect(
            try run([.push(column: .supplementary, vc: "x")], on: triple).visibleStack(.supplementary) == ["mid", "x"])
    }

    @Test func viewControllerIdsMustBeOneTo128Characters() throws {
        let s = try expanded()
        for vc in ["", String(repeating: "v", count: 129)] {
            for intent: Intent in [
                .push(column: .primary, vc: vc), .showDetail(vc: vc), .present(vc: vc, style: .pageSheet),
            ] {
                #expect(errorCode { _ = try engine.apply(.intent(intent), to: s) } == .badRequest)
            }
        }
        #expect(try run([.push(column: .primary, vc: String(repeating: "v", count: 128))], on: s).revision == 2)
    }

    @Test func stacksStopAtTheDepthLimit() throws {
        var limits = CoreLimits()
        limits.maxStackDepth = 3
        let small = SplitEngine(limits: limits)
        var s = try small.createScene(
            id: "a", device: "ipad-pro-12.9", size: padLandscape,
            config: patch { $0.roots = ColumnRoots(primary: "list") })
        for vc in ["a", "b"] { s = try small.apply(.intent(.push(column: .primary, vc: vc)), to: s).state }
        #expect(errorCode { _ = try small.apply(.intent(.push(column: .primary, vc: "c")), to: s) } == .limitExceeded)
        let collapsed = try small.apply(.resize(padThird), to: s).state
        #expect(errorCode { _ = try small.apply(.intent(.showDetail(vc: "c")), to: collapsed) } == .limitExceeded)
    }

    @Test func showDetailReplacesTheSecondaryByDefault() throws {
        let s = try run([.push(column: .secondary, vc: "old"), .showDetail(vc: "d")], on: expanded())
        #expect(s.visibleStack(.secondary) == ["d"])
    }

    @Test func showDetailResetAndPushKeepsThePlaceholderRoot() throws {
        let s = try run(
            [.showDetail(vc: "d1"), .push(column: .secondary, vc: "d2"), .showDetail(vc: "d3")],
            on: makeScene {
                $0.roots = ColumnRoots(primary: "list"); $0.placeholder = "empty"; $0.detailRouting = .resetAndPush
            })
        #expect(s.visibleStack(.secondary) == ["empty", "d3"])
    }

    @Test func showingTheSameDetailAgainIsANoOp() throws {
        let s = try run([.showDetail(vc: "d")], on: expanded())
        #expect(try !engine.apply(.intent(.showDetail(vc: "d")), to: s).changed)
    }

    @Test func showDetailWhileCollapsedPushesDetailContent() throws {
        let s = try run(
            [.showDetail(vc: "d")], on: resized(expanded { $0.collapsePolicy = .keepPrimary }, padThird).state)
        #expect(s.collapsedStack == ["list", "d"])
        #expect(s.navigation.collapsed?.entries.last == StackEntry(vc: "d", origin: .detail))
    }

    @Test func backPopsTheLastNavigatedColumn() throws {
        var s = try run([.push(column: .secondary, vc: "s1"), .push(column: .primary, vc: "p1")], on: expanded())
        s = try run([.back], on: s)
        #expect(s.visibleStack(.primary) == ["list"] && s.visibleStack(.secondary) == ["detail", "s1"])
        s = try run([.back], on: s)
        #expect(s.visibleStack(.secondary) == ["detail"])
        #expect(errorCode { _ = try engine.apply(.intent(.back), to: s) } == .invalidIntent)
    }

    @Test func backUntilLayoutChangePopsTheColumnToItsRoot() throws {
        let s = try run(
            [.push(column: .secondary, vc: "s1"), .push(column: .secondary, vc: "s2"), .back],
            on: expanded { $0.backBehavior = .popUntilLayoutChange })
        #expect(s.visibleStack(.secondary) == ["detail"])
    }

    @Test func columnsWithoutConfiguredRootsStartAtDefaultRoots() throws {
        let s = try engine.createScene(id: "defaults", device: "ipad-pro-12.9", size: nil, config: nil)
        let layout = engine.layout(of: s)
        #expect(layout.columns.map(\.stack) == [["primary"], ["secondary"]])
        let pushed = try run([.push(column: .primary, vc: "p1")], on: s)
        #expect(pushed.visibleStack(.primary) == ["primary", "p1"])
        let popped = try run([.pop(column: .primary)], on: pushed)
        #expect(popped.visibleStack(.primary) == ["primary"])
        #expect(errorCode { _ = try engine.apply(.intent(.pop(column: .primary)), to: popped) } == .invalidIntent)
        var triple = SplitConfigPatch()
        triple.style = .tripleColumn
        let t = try engine.createScene(id: "t", device: "ipad-pro-12.9", size: nil, config: triple)
        #expect(engine.layout(of: t).columns.map(\.stack) == [["primary"], ["supplementary"], ["secondary"]])
        // UIKit's default collapse shows the secondary on top of the primary on an iPhone.
        let phone = try engine.createScene(id: "p", device: "iphone-14", size: nil, config: nil)
        #expect(phone.collapsedStack == ["primary", "secondary"])
    }

    @Test func collapsedIntentsMayNameTheCompactColumnTheLayoutShows() throws {
        let s = try makeScene("iphone-14", size: phonePortrait) {
            $0.style = .doubleColumn
            $0.roots = ColumnRoots(primary: "list", secondary: "detail")
        }
        #expect(engine.layout(of: s).columns.map(\.column) == [.compact])
        let pushed = try run([.push(column: .compact, vc: "x")], on: s)
        #expect(pushed.collapsedStack == ["list", "detail", "x"])
        let popped = try run([.pop(column: .compact)], on: pushed)
        #expect(popped.collapsedStack == ["list", "detail"])
        let rooted = try run([.popToRoot(column: .compact)], on: popped)
        #expect(rooted.collapsedStack == ["list"])
        #expect(errorCode { _ = try engine.apply(.intent(.pop(column: .compact)), to: rooted) } == .invalidIntent)
        // Expanded, `compact` is no column of a doubleColumn split.
        let wide = try makeScene { $0.style = .doubleColumn }
        #expect(
            errorCode { _ = try engine.apply(.intent(.push(column: .compact, vc: "x")), to: wide) } == .invalidIntent)
    }

    @Test func backAtTheRootOfTheCollapsedStackIsAnError() throws {
        let s = try makeScene("iphone-14", size: phonePortrait) {
            $0.roots = ColumnRoots(primary: "list")
            $0.collapsePolicy = .keepPrimary
        }
        #expect(s.collapsedStack == ["list"])
        #expect(errorCode { _ = try engine.apply(.intent(.back), to: s) } == .invalidIntent)
        #expect(errorCode { _ = try engine.apply(.intent(.pop(column: .primary)), to: s) } == .invalidIntent)
        let deeper = try run([.push(column: .primary, vc: "a"), .back], on: s)
        #expect(deeper.collapsedStack == ["list"])
    }

    @Test func collapsedBackUntilLayoutChangeLeavesTheDetailAtOnce() throws {
        let s = try run(
            [.push(column: .secondary, vc: "s1"), .push(column: .secondary, vc: "s2")],
            on: expanded { $0.backBehavior = .popUntilLayoutChange })
        let collapsed = try resized(s, padThird).state
        #expect(collapsed.collapsedStack == ["list", "detail", "s1", "s2"])
        let back = try run([.push(column: .primary, vc: "pushed"), .back], on: collapsed)
        #expect(back.collapsedStack == ["list"])
    }

    @Test func selectTabSavesAndRestoresTheDetailStack() throws {
        var s = try makeScene {
            $0.tabs = [TabConfig(root: "chats"), TabConfig(root: "contacts")]
            $0.placeholder = "empty"
            $0.detailRouting = .resetAndPush
        }
        s = try run(
            [
                .showDetail(vc: "chat1"), .push(column: .secondary, vc: "profile"),
                .push(column: .primary, vc: "search"),
                .selectTab(index: 1),
            ], on: s)
        #expect(s.visibleStack(.primary) == ["contacts"])
        #expect(s.visibleStack(.secondary) == ["empty"])
        #expect(s.layout.selectedTab == 1)
        s = try run([.showDetail(vc: "card"), .selectTab(index: 0)], on: s)
        #expect(s.visibleStack(.primary) == ["chats", "search"])
        #expect(s.visibleStack(.secondary) == ["empty", "chat1", "profile"])
        s = try run([.selectTab(index: 1)], on: s)
        #expect(s.visibleStack(.secondary) == ["empty", "card"])
    }

    /// Under `replace` routing the detail stack no longer starts at the placeholder; coming
    /// back to the tab restores it as it was, without a placeholder slipped under it.
    @Test func selectTabRestoresAReplacedDetailExactly() throws {
        let s = try run(
            [.showDetail(vc: "chat1"), .push(column: .secondary, vc: "profile")],
            on: makeScene {
                $0.tabs = [TabConfig(root: "chats"), TabConfig(root: "contacts")]
                $0.placeholder = "empty"
            })
        #expect(s.visibleStack(.secondary) == ["chat1", "profile"])
        let away = try run([.selectTab(index: 1)], on: s)
        #expect(away.visibleStack(.secondary) == ["empty"])
        let back = try run([.selectTab(index: 0)], on: away)
        #expect(back.navigation == s.navigation)
        #expect(back.visibleStack(.secondary) == ["chat1", "profile"])
        // Collapsed, the same trip shows the same stack again.
        let collapsed = try resized(s, padThird).state
        #expect(collapsed.collapsedStack == ["chats", "chat1", "profile"])
        let trip = try run([.selectTab(index: 1), .selectTab(index: 0)], on: collapsed)
        #expect(trip.collapsedStack == ["chats", "chat1", "profile"])
        #expect(try resized(trip, padLandscape).state.navigation == s.navigation)
    }

    @Test func selectTabErrorsAndNoOps() throws {
        let tabs = try makeScene { $0.tabs = [TabConfig(root: "a"), TabConfig(root: "b")] }
        for index in [-1, 2] {
            #expect(errorCode { _ = try engine.apply(.intent(.selectTab(index: index)), to: tabs) } == .invalidIntent)
        }
        #expect(errorCode { _ = try engine.apply(.intent(.selectTab(index: 0)), to: makeScene()) } == .invalidIntent)
        #expect(try !engine.apply(.intent(.selectTab(index: 0)), to: tabs).changed)
    }

    @Test func selectTabWorksWhileCollapsed() throws {
        var s = try makeScene {
            $0.tabs = [TabConfig(root: "chats"), TabConfig(root: "contacts")]
            $0.placeholder = "empty"
            $0.collapsePolicy = .moveDetailExceptRoot
            $0.detailRouting = .resetAndPush
        }
        s = try run([.showDetail(vc: "chat1")], on: s)
        s = try resized(s, padThird).state
        #expect(s.collapsedStack == ["chats", "chat1"])
        s = try run([.selectTab(index: 1)], on: s)
        #expect(s.collapsedStack == ["contacts"])
        s = try run([.push(column: .primary, vc: "card"), .selectTab(index: 0)], on: s)
        #expect(s.collapsedStack == ["chats", "chat1"])
        s = try run([.selectTab(index: 1)], on: s)
        #expect(s.collapsedStack == ["contacts", "card"])
    }

    @Test func presentationsAdaptToPageSheetInACompactWidth() throws {
        let styles: [PresentationStyle] = [.popover, .formSheet, .pageSheet, .fullScreen]
        // Revision 2: a popover shown as a popover needs an anchor (seed 003).
        let anchored = try engine.apply(
            .present(PresentationRequest(vc: "popover", style: .popover, anchor: "displayModeButton")),
            to: expanded()
        ).state
        let s = try run(styles.dropFirst().map { .present(vc: $0.rawValue, style: $0) }, on: anchored)
        #expect(s.layout.presentations.map(\.effectiveStyle) == styles)
        let compact = try resized(s, padThird).state
        #expect(compact.layout.presentations.map(\.style) == styles)
        #expect(
            compact.layout.presentations.map(\.effectiveStyle) == [.pageSheet, .pageSheet, .pageSheet, .fullScreen])
    }

    @Test func dismissPopsTheTopPresentationAndFailsWhenNothingIsPresented() throws {
        let s = try run(
            [.present(vc: "a", style: .pageSheet), .present(vc: "b", style: .formSheet), .dismiss], on: expanded())
        #expect(s.layout.presentations.map(\.vc) == ["a"])
        #expect(errorCode { _ = try engine.apply(.intent(.dismiss), to: expanded()) } == .invalidIntent)
    }

    @Test func presentationsStopAtTheLimit() throws {
        var limits = CoreLimits()
        limits.maxPresentations = 1
        let small = SplitEngine(limits: limits)
        let s = try small.apply(.intent(.present(vc: "a", style: .pageSheet)), to: expanded()).state
        #expect(
            errorCode { _ = try small.apply(.intent(.present(vc: "b", style: .pageSheet)), to: s) } == .limitExceeded)
    }

    @Test func settingThePreferredModeItAlreadyHasIsANoOp() throws {
        let s = try expanded()
        #expect(try !engine.apply(.intent(.setPreferredDisplayMode(.automatic)), to: s).changed)
        let t = try engine.apply(.intent(.setPreferredDisplayMode(.secondaryOnly)), to: s)
        #expect(t.changed && t.state.config.preferredDisplayMode == .secondaryOnly)
        #expect(try !engine.apply(.intent(.setPreferredDisplayMode(.secondaryOnly)), to: t.state).changed)
        // Still a no-op while the user has chosen another mode: the preference did not change.
        let chosen = try run([.displayModeButton], on: s)
        #expect(chosen.layout.displayMode == .secondaryOnly)
        let again = try engine.apply(.intent(.setPreferredDisplayMode(.automatic)), to: chosen)
        #expect(!again.changed && again.events.isEmpty && again.state.revision == chosen.revision)
    }

    /// A new preferred mode is the app's request: it supersedes the user's choice, whether it
    /// comes as setPreferredDisplayMode or inside setConfig.
    @Test func aNewPreferredModeSupersedesTheUsersChoice() throws {
        let chosen = try run([.displayModeButton], on: expanded())  // landscape: sidebar hidden
        #expect(chosen.layout.displayMode == .secondaryOnly)
        for intent: Intent in [
            .setPreferredDisplayMode(.oneBesideSecondary),
            .setConfig(patch { $0.preferredDisplayMode = .oneBesideSecondary }),
        ] {
            let t = try engine.apply(.intent(intent), to: chosen)
            #expect(t.layout.displayMode == .oneBesideSecondary)
            #expect(t.state.display.userDisplayMode == nil)
            #expect(t.events.contains(.displayModeChanged(from: .secondaryOnly, to: .oneBesideSecondary)))
        }
        // Other configuration changes leave the user's choice alone.
        let widened = try engine.apply(.intent(.setConfig(patch { $0.maximumPrimaryColumnWidth = 400 })), to: chosen)
        #expect(widened.layout.displayMode == .secondaryOnly)
    }

    @Test func displayActionsWhileCollapsedChangeNothing() throws {
        let s = try resized(expanded(), padThird).state
        for intent: Intent in [.displayModeButton, .gesture, .tapDimmed] {
            #expect(try !engine.apply(.intent(intent), to: s).changed)
        }
    }

    @Test func collapsedShowColumnPushesOrPopsDownToTheColumn() throws {
        let triple = try makeScene {
            $0.style = .tripleColumn
            $0.roots = ColumnRoots(primary: "p", supplementary: "m", secondary: "d")
            $0.topColumnForCollapsing = .primary
        }
        let s = try resized(triple, padThird).state
        #expect(s.collapsedStack == ["p"])
        let shown = try run([.showColumn(.secondary)], on: s)
        #expect(shown.collapsedStack == ["p", "m", "d"])
        let back = try run([.push(column: .secondary, vc: "d2"), .showColumn(.supplementary)], on: shown)
        #expect(back.collapsedStack == ["p", "m"])
        #expect(try !engine.apply(.intent(.showColumn(.supplementary)), to: back).changed)
        #expect(try run([.showColumn(.primary)], on: shown).collapsedStack == ["p"])
    }

    @Test func showColumnThenPopIsTheSameStateAgain() throws {
        let s = try resized(
            makeScene {
                $0.style = .doubleColumn
                $0.roots = ColumnRoots(primary: "p")
                $0.placeholder = "ph"
                $0.topColumnForCollapsing = .primary
            }, padThird
        ).state
        let t = try run([.showColumn(.secondary), .pop(column: .secondary)], on: s)
        #expect(t.navigation == s.navigation)
    }

    @Test func collapsedHideColumnPopsItWhenOnTopAndIgnoresThePrimary() throws {
        let s = try resized(
            makeScene {
                $0.style = .doubleColumn
                $0.roots = ColumnRoots(primary: "p", secondary: "d")
            }, padThird
        ).state
        #expect(s.collapsedStack == ["p", "d"])
        #expect(try !engine.apply(.intent(.hideColumn(.primary)), to: s).changed)
        let hidden = try run([.push(column: .secondary, vc: "d2"), .hideColumn(.secondary)], on: s)
        #expect(hidden.collapsedStack == ["p"])
        #expect(try !engine.apply(.intent(.hideColumn(.secondary)), to: hidden).changed)
    }

    @Test func setConfigRootChangeRestartsOnlyThatColumn() throws {
        let s = try run(
            [
                .push(column: .primary, vc: "a"), .push(column: .secondary, vc: "b"),
                .setConfig(patch { $0.roots = ColumnRoots(primary: "list", secondary: "other") }),
            ], on: expanded())
        #expect(s.visibleStack(.primary) == ["list", "a"])
        #expect(s.visibleStack(.secondary) == ["other"])
    }

    @Test func setConfigStyleChangeKeepsTheSupplementaryStack() throws {
        var s = try makeScene {
            $0.style = .tripleColumn; $0.roots = ColumnRoots(primary: "p", supplementary: "m", secondary: "d")
        }
        s = try run([.push(column: .supplementary, vc: "m2"), .setConfig(patch { $0.style = .doubleColumn })], on: s)
        #expect(s.layout.columns.map(\.column) == [.primary, .secondary])
        s = try run([.setConfig(patch { $0.style = .tripleColumn })], on: s)
        #expect(s.visibleStack(.supplementary) == ["m", "m2"])
    }

    @Test func setConfigWithNothingNewIsANoOpAndInvalidValuesThrow() throws {
        let s = try expanded()
        #expect(try !engine.apply(.intent(.setConfig(SplitConfigPatch())), to: s).changed)
        #expect(try !engine.apply(.intent(.setConfig(patch { $0.style = .classic })), to: s).changed)
        let bad = patch { $0.minimumPrimaryColumnWidth = -500 }
        #expect(errorCode { _ = try engine.apply(.intent(.setConfig(bad)), to: s) } == .badRequest)
    }

    @Test func setConfigTabsKeepTheirStacksWhenTheirRootStays() throws {
        var s = try makeScene {
            $0.tabs = [TabConfig(root: "a"), TabConfig(root: "b")]; $0.placeholder = "ph"
        }
        s = try run(
            [
                .push(column: .primary, vc: "a1"), .selectTab(index: 1), .push(column: .primary, vc: "b1"),
                .setConfig(patch { $0.tabs = [TabConfig(root: "a"), TabConfig(root: "b"), TabConfig(root: "c")] }),
            ], on: s)
        #expect(s.layout.selectedTab == 1 && s.visibleStack(.primary) == ["b", "b1"])
        s = try run([.selectTab(index: 0)], on: s)
        #expect(s.visibleStack(.primary) == ["a", "a1"])
        s = try run([.setConfig(patch { $0.tabs = [TabConfig(root: "z")] })], on: s)
        #expect(s.layout.selectedTab == 0 && s.visibleStack(.primary) == ["z"])
        s = try run(
            [
                .setConfig(
                    patch {
                        $0.tabs = []; $0.roots = ColumnRoots(primary: "home")
                    })
            ], on: s)
        #expect(s.layout.selectedTab == nil && s.visibleStack(.primary) == ["home"])
    }

    @Test func setConfigWithFewerTabsThanTheSelectedIndexSelectsTheFirst() throws {
        let s = try run(
            [.selectTab(index: 2), .setConfig(patch { $0.tabs = [TabConfig(root: "a")] })],
            on: makeScene { $0.tabs = ["a", "b", "c"].map { TabConfig(root: $0) } })
        #expect(s.layout.selectedTab == 0 && s.visibleStack(.primary) == ["a"])
    }

    @Test func setConfigAddingACompactColumnWhileCollapsedShowsIt() throws {
        let s = try resized(expanded(), padThird).state
        let t = try run(
            [.setConfig(patch { $0.roots = ColumnRoots(primary: "list", secondary: "detail", compact: "phone") })],
            on: s)
        #expect(t.collapsedStack == ["phone"])
    }
}
