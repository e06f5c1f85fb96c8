import Testing
@testable import SplitCore

/// SEMANTICS revision 2: interface orientation, trait overrides, the display-mode button,
/// the secondary's showColumn/hideColumn, showDetail's dismissal, presentations,
/// activation and the app-switcher session on entering background.
@Suite struct Revision2Tests {
    func apply(_ command: SceneCommand, _ state: SceneState) throws -> Transition {
        try engine.apply(command, to: state)
    }

    // MARK: 1. interfaceOrientation

    @Test func interfaceOrientationFollowsTheScreenSideTheWindowIsAsHighAs() throws {
        let s = try makeScene()
        #expect(engine.interfaceOrientation(of: s) == .landscape)
        // 375x1024 on a 12.9" iPad: portrait-shaped window, device held in landscape.
        let third = try resized(s, padThird).state
        #expect(third.size.orientation == .portrait)
        #expect(engine.interfaceOrientation(of: third) == .landscape)
        #expect(engine.revision2Layout(of: third).interfaceOrientation == .landscape)
        let portrait = try resized(third, Size(width: 375, height: 1366)).state
        #expect(engine.interfaceOrientation(of: portrait) == .portrait)
        // Within 1 pt.
        #expect(
            engine.catalog.interfaceOrientationRule(device: "ipad-pro-12.9", size: Size(width: 500, height: 1023.5))
                == .landscape)
    }

    @Test func slideOverHeightsKeepTheLastValue() throws {
        let slideOver = Size(width: 375, height: 984)
        let fromLandscape = try resized(try makeScene(), slideOver).state
        #expect(engine.interfaceOrientation(of: fromLandscape) == .landscape)
        #expect(fromLandscape.heldOrientation == .landscape)  // stored: the rule cannot derive it
        let fromPortrait = try resized(try makeScene(size: padPortrait), Size(width: 375, height: 1326)).state
        #expect(engine.interfaceOrientation(of: fromPortrait) == .portrait)
        // A new scene at such a size starts with its window's orientation.
        let born = try makeScene(size: slideOver)
        #expect(engine.interfaceOrientation(of: born) == .portrait)
        #expect(born.heldOrientation == nil)
    }

    @Test func macAndRuleSetsUseTheWindowsOrientation() throws {
        let mac = try makeScene("mac", size: Size(width: 600, height: 900))
        #expect(engine.interfaceOrientation(of: mac) == .portrait)
        let rules = try makeScene("material", size: Size(width: 900, height: 600))
        #expect(engine.interfaceOrientation(of: rules) == .landscape)
    }

    @Test func aStatedInterfaceOrientationWins() throws {
        let s = try makeScene()
        let t = try apply(.resize(Size(width: 375, height: 1000), interfaceOrientation: .portrait), s)
        #expect(engine.interfaceOrientation(of: t.state) == .portrait)
        // Stating it at the same size is a change only when it differs.
        let same = try apply(.resize(t.state.size, interfaceOrientation: .portrait), t.state)
        #expect(!same.changed)
        let flipped = try apply(.resize(t.state.size, interfaceOrientation: .landscape), t.state)
        #expect(flipped.changed && flipped.state.revision == t.state.revision + 1)
        #expect(flipped.events.isEmpty)
    }

    @Test func appSwitcherOtherOrientationIsTheOtherInterfaceOrientation() throws {
        // 375x1024 (1/3 on a landscape 12.9"): the other orientation is portrait.
        let third = try resized(try makeScene(), padThird).state
        let result = try engine.snapshot(third, preset: "appSwitcher")
        #expect(result.snapshots.first?.size == padPortrait)
        // The same window size held in portrait (stated): the other is landscape.
        let stated = try apply(
            .resize(Size(width: 375, height: 1000), interfaceOrientation: .portrait), try makeScene()
        ).state
        let other = try engine.snapshot(stated, preset: "appSwitcher")
        #expect(other.snapshots.first?.size == padLandscape)
        // Stated landscape for a window the size alone would call portrait: the other is portrait.
        let held = try apply(.resize(Size(width: 375, height: 1000), interfaceOrientation: .landscape), try makeScene())
            .state
        #expect(try engine.snapshot(held, preset: "appSwitcher").snapshots.first?.size == padPortrait)
    }

    // MARK: 2. the current device lineup

    @Test func currentLineupRowsCiteTheirSourceAndMarkWhatIsUnpublished() throws {
        let rows: [(String, Size, SizeClass)] = [
            ("ipad-pro-13-m4", Size(width: 1032, height: 1376), .regular),
            ("ipad-pro-11-m4", Size(width: 834, height: 1210), .regular),
            ("ipad-air-13", Size(width: 1024, height: 1366), .regular),
            ("ipad-air-11", Size(width: 820, height: 1180), .regular),
            ("ipad-a16", Size(width: 820, height: 1180), .regular),
            ("ipad-mini-a17-pro", Size(width: 744, height: 1133), .regular),
            ("iphone-16", Size(width: 393, height: 852), .compact),
            ("iphone-16-plus", Size(width: 430, height: 932), .regular),
            ("iphone-16-pro", Size(width: 402, height: 874), .compact),
            ("iphone-16-pro-max", Size(width: 440, height: 956), .regular),
            ("iphone-16e", Size(width: 390, height: 844), .compact),
            ("iphone-17", Size(width: 402, height: 874), .compact),
            ("iphone-air", Size(width: 420, height: 912), .compact),
        ]
        for (id, screen, landscape) in rows {
            let profile = try #require(engine.catalog.profile(id), "\(id)")
            #expect(profile.screen == screen, "\(id)")
            #expect(profile.landscapeHorizontalClass == landscape, "\(id)")
            #expect(profile.source?.contains("developer.apple.com") == true, "\(id)")
            #expect(profile.unpublished != nil, "\(id)")
            // Full-screen presets only: no published multitasking widths are guessed.
            #expect(Set(profile.presets.map(\.name)) == ["full"], "\(id)")
        }
        #expect(engine.catalog.profile("iphone-air")?.unpublished == ["landscapeHorizontalClass"])
        #expect(engine.catalog.profile("ipad-pro-13-m4")?.unpublished == ["multitaskingWidths"])
        #expect(engine.catalog.profile("iphone-16-pro-max")?.unpublished == [])
        // Plus/Max phones are regular in landscape.
        #expect(try makeScene("iphone-16-plus", size: Size(width: 932, height: 430)).traits == .regularCompact)
        #expect(try makeScene("iphone-16", size: Size(width: 852, height: 393)).traits == .compactCompact)
        // A narrower iPad window follows the 640-pt rule on the new iPads too.
        #expect(try makeScene("ipad-pro-13-m4", size: Size(width: 700, height: 1032)).traits == .regularRegular)
        #expect(try makeScene("ipad-pro-13-m4", size: Size(width: 500, height: 1032)).collapsed)
    }

    // MARK: 3. traitOverrides

    @Test func traitOverridesOverrideOnlyTheClassesARuleSets() throws {
        // Seed 004: an iPhone 8 Plus with regular-above-414.
        let plus = try makeScene("iphone-8-plus", size: Size(width: 736, height: 414)) {
            $0.traitOverrides = "regular-above-414"
        }
        #expect(plus.traits == .regularCompact)
        let plusPortrait = try resized(plus, Size(width: 414, height: 736)).state
        #expect(plusPortrait.traits == .compactRegular)
        // An iPhone 8 in landscape is compact/compact alone, regular/compact with the override.
        #expect(try makeScene("iphone-8", size: Size(width: 667, height: 375)).traits == .compactCompact)
        let eight = try makeScene("iphone-8", size: Size(width: 667, height: 375)) {
            $0.traitOverrides = "regular-above-414"
        }
        #expect(eight.traits == .regularCompact)
        #expect(!eight.collapsed)
        // Seed 000: compact-below-1000 collapses an 11" iPad's full portrait screen (834 pt).
        let pad = try makeScene("ipad-pro-11", size: Size(width: 834, height: 1194)) {
            $0.traitOverrides = "compact-below-1000"
        }
        #expect(pad.traits == .compactRegular && pad.collapsed)
        #expect(try resized(pad, Size(width: 1194, height: 834)).state.traits == .regularRegular)
        #expect(try makeScene(size: padPortrait) { $0.traitOverrides = "compact-below-1000" }.traits == .regularRegular)
    }

    @Test func seedRuleSetsAloneKeepTheirRevisionOneClasses() throws {
        for (width, expected) in [(414.0, SizeClass.compact), (414.5, .regular), (1000, .regular)] {
            let s = try makeScene("regular-above-414", size: Size(width: width, height: 800))
            #expect(s.traits.horizontalSizeClass == expected, "width \(width)")
            #expect(s.traits.verticalSizeClass == .regular)
        }
        for (width, expected) in [(999.5, SizeClass.compact), (1000.0, .regular)] {
            let s = try makeScene("compact-below-1000", size: Size(width: width, height: 800))
            #expect(s.traits.horizontalSizeClass == expected, "width \(width)")
        }
    }

    @Test func settingTraitOverridesCollapsesWithItsEvents() throws {
        let s = try makeScene("ipad-pro-11", size: Size(width: 834, height: 1194)) {
            $0.roots = ColumnRoots(primary: "list", secondary: "detail")
        }
        let t = try engine.apply(.intent(.setConfig(patch { $0.traitOverrides = "compact-below-1000" })), to: s)
        #expect(t.state.collapsed)
        #expect(t.events.contains(.willCollapse(moved: ["detail"])))
        #expect(t.events.first == .traitsChanged(from: .regularRegular, to: .compactRegular))
        let back = try engine.apply(.intent(.setConfig(patch { $0.traitOverrides = .some(nil) })), to: t.state)
        #expect(!back.state.collapsed)
        #expect(errorCode { _ = try makeScene { $0.traitOverrides = "nope" } } == .unknownDevice)
        #expect(errorCode { _ = try makeScene { $0.traitOverrides = "ipad-pro-11" } } == .unknownDevice)
    }

    // MARK: 4. displayModeButtonVisibility

    @Test func buttonVisibility() throws {
        func button(
            _ build: (inout SplitConfigPatch) -> Void, size: Size = padLandscape
        ) throws -> DisplayModeButtonLayout {
            engine.revision2Layout(of: try makeScene(size: size, build)).displayModeButton
        }
        #expect(
            try button { $0.style = .doubleColumn } == DisplayModeButtonLayout(visible: true, target: .secondaryOnly))
        #expect(
            try button {
                $0.style = .doubleColumn; $0.presentsWithGesture = false
            } == .hidden)
        #expect(
            try button {
                $0.style = .doubleColumn; $0.presentsWithGesture = false; $0.displayModeButtonVisibility = .always
            }.visible)
        #expect(
            try button {
                $0.style = .doubleColumn; $0.displayModeButtonVisibility = .never
            } == .hidden)
        // Classic ignores the setting and keeps revision 1's button.
        #expect(try button { $0.displayModeButtonVisibility = .never }.visible)
        // Never while collapsed.
        #expect(
            try button(
                {
                    $0.style = .doubleColumn; $0.displayModeButtonVisibility = .always
                }, size: padThird) == .hidden)
        // Portrait overlay: the tap reveals the sidebar.
        #expect(try button({ $0.style = .tripleColumn }, size: padPortrait).target == .oneOverSecondary)
    }

    @Test func theButtonIntentIsRefusedWhileHidden() throws {
        let s = try makeScene {
            $0.style = .doubleColumn; $0.displayModeButtonVisibility = .never
        }
        #expect(errorCode { _ = try engine.apply(.intent(.displayModeButton), to: s) } == .invalidIntent)
        let collapsed = try makeScene(size: padThird) { $0.style = .doubleColumn }
        #expect(errorCode { _ = try engine.apply(.intent(.displayModeButton), to: collapsed) } == .invalidIntent)
        // The gesture depends on presentsWithGesture only.
        let always = try makeScene(size: padPortrait) {
            $0.style = .doubleColumn; $0.displayModeButtonVisibility = .never
        }
        #expect(try engine.apply(.intent(.gesture), to: always).state.display.userDisplayMode == .oneOverSecondary)
        // Classic, collapsed: revision 1's no-op.
        let classic = try makeScene(size: padThird)
        #expect(try engine.apply(.intent(.displayModeButton), to: classic).changed == false)
    }

    @Test func theTargetIsWhatATapShows() throws {
        var s = try makeScene { $0.style = .tripleColumn }
        for _ in 0..<4 {
            let target = try #require(engine.revision2Layout(of: s).displayModeButton.target)
            s = try engine.apply(.intent(.displayModeButton), to: s).state
            #expect(s.layout.displayMode == target)
        }
    }

    // MARK: 5. the secondary column, showDetail's dismissal

    @Test func showColumnSecondaryUncoversTheSecondary() throws {
        let overlay = try run(
            [.showColumn(.primary)], on: try makeScene(size: padPortrait) { $0.style = .doubleColumn })
        #expect(overlay.layout.displayMode == .oneOverSecondary)
        #expect(try run([.showColumn(.secondary)], on: overlay).layout.displayMode == .secondaryOnly)
        let displaced = try run([.displayModeButton], on: try makeScene { $0.style = .tripleColumn })
        #expect(displaced.layout.displayMode == .twoDisplaceSecondary)
        #expect(try run([.showColumn(.secondary)], on: displaced).layout.displayMode == .oneBesideSecondary)
        let tiled = try makeScene { $0.style = .doubleColumn }
        #expect(try engine.apply(.intent(.showColumn(.secondary)), to: tiled).changed == false)
    }

    @Test func hideColumnSecondaryIsRefusedWhileExpanded() throws {
        let s = try makeScene { $0.style = .doubleColumn }
        #expect(errorCode { _ = try engine.apply(.intent(.hideColumn(.secondary)), to: s) } == .invalidIntent)
    }

    @Test func showDetailDismissesARevealedSidebar() throws {
        let s = try makeScene(size: padPortrait) {
            $0.style = .doubleColumn; $0.roots = ColumnRoots(primary: "list", secondary: "detail")
        }
        let revealed = try run([.displayModeButton], on: s)
        #expect(revealed.layout.displayMode == .oneOverSecondary)
        let t = try engine.apply(.intent(.showDetail(vc: "message")), to: revealed)
        #expect(t.layout.displayMode == .secondaryOnly)
        #expect(t.layout.columns.first { $0.column == .secondary }?.stack == ["message"])
        // displayModeChanged follows the routing's events; willHideColumn comes with it.
        let types = t.timeline.map(\.type)
        #expect(types == ["willHideColumn", "disappear", "disappear", "appear", "displayModeChanged"])
        // An explicit preferred mode stays.
        let explicit = try makeScene(size: padPortrait) {
            $0.style = .doubleColumn; $0.preferredDisplayMode = .oneOverSecondary
        }
        #expect(try run([.showDetail(vc: "m")], on: explicit).layout.displayMode == .oneOverSecondary)
    }

    // MARK: 9. willShowColumn / willHideColumn

    @Test func columnEventsComeWithTheButtonAndSizeChangesNotWithShowColumn() throws {
        let s = try makeScene(size: padPortrait) {
            $0.style = .doubleColumn; $0.roots = ColumnRoots(primary: "list", secondary: "detail")
        }
        let button = try engine.apply(.intent(.displayModeButton), to: s)
        #expect(button.timeline.first == .willShowColumn(.primary))
        let rotate = try engine.apply(.resize(padLandscape), to: s)
        #expect(rotate.timeline.contains(.willShowColumn(.primary)))
        let show = try engine.apply(.intent(.showColumn(.primary)), to: s)
        #expect(show.changed && show.revision2Events.isEmpty)
    }

    // MARK: 6. presentations

    @Test func compactHeightAdaptsSheetsToFullScreen() throws {
        for device in ["iphone-14", "iphone-14-plus"] {
            let landscape = try makeScene(
                device, size: Size(width: device == "iphone-14" ? 844 : 926, height: device == "iphone-14" ? 390 : 428))
            for style in [PresentationStyle.pageSheet, .formSheet, .popover] {
                let t = try engine.apply(.intent(.present(vc: "sheet", style: style)), to: landscape)
                #expect(t.layout.presentations.last?.effectiveStyle == .fullScreen, "\(device) \(style)")
                let edge = try engine.apply(
                    .present(PresentationRequest(vc: "sheet", style: style, prefersEdgeAttachedInCompactHeight: true)),
                    to: landscape)
                #expect(edge.layout.presentations.last?.effectiveStyle == .pageSheet, "\(device) \(style)")
            }
        }
    }

    @Test func adaptationIsRecomputedOnEverySize() throws {
        let portrait = try makeScene("iphone-14", size: phonePortrait)
        let presented = try engine.apply(.present(PresentationRequest(vc: "sheet", style: nil)), to: portrait).state
        #expect(presented.layout.presentations.first?.effectiveStyle == .pageSheet)
        #expect(engine.revision2Layout(of: presented).presentations.first?.requestedStyle == "automatic")
        let landscape = try resized(presented, Size(width: 844, height: 390))
        #expect(landscape.layout.presentations.first?.effectiveStyle == .fullScreen)
        // A full-screen presentation hides the columns.
        #expect(landscape.events.contains { $0.isDisappear })
        #expect(try resized(landscape.state, phonePortrait).layout.presentations.first?.effectiveStyle == .pageSheet)
    }

    @Test func popoverAnchors() throws {
        let s = try makeScene { $0.roots = ColumnRoots(primary: "list", secondary: "detail") }
        // Regular width and height: a popover needs a visible anchor.
        #expect(
            errorCode { _ = try engine.apply(.intent(.present(vc: "pop", style: .popover)), to: s) } == .invalidIntent)
        #expect(
            errorCode {
                _ = try engine.apply(
                    .present(PresentationRequest(vc: "pop", style: .popover, anchor: "nowhere")), to: s)
            } == .invalidIntent)
        #expect(
            errorCode {
                _ = try engine.apply(
                    .present(PresentationRequest(vc: "pop", style: .formSheet, anchor: "detail")), to: s)
            } == .invalidIntent)
        let anchored = try engine.apply(
            .present(PresentationRequest(vc: "pop", style: .popover, anchor: "detail")), to: s)
        #expect(anchored.layout.presentations.first?.effectiveStyle == .popover)
        #expect(engine.revision2Layout(of: anchored.state).presentations.first?.anchor == "detail")
        let button = try engine.apply(
            .present(PresentationRequest(vc: "pop", style: .popover, anchor: "displayModeButton")), to: s)
        #expect(button.changed)
        // Where it adapts no anchor is needed; back in regular/regular it is a formSheet.
        let third = try resized(s, padThird).state
        let adapted = try engine.apply(.intent(.present(vc: "pop", style: .popover)), to: third)
        #expect(adapted.layout.presentations.first?.effectiveStyle == .pageSheet)
        #expect(try resized(adapted.state, padLandscape).layout.presentations.first?.effectiveStyle == .formSheet)
    }

    // MARK: 11. activation

    @Test func activationIsAChangeWithItsEvent() throws {
        let s = try makeScene()
        let inactive = try apply(.activation(.foregroundInactive, backgroundSession: "s1"), s)
        #expect(inactive.changed && inactive.state.activation == .foregroundInactive)
        #expect(inactive.timeline == [.activationChanged(from: .foregroundActive, to: .foregroundInactive)])
        #expect(inactive.backgroundSnapshot == nil)
        #expect(try !apply(.activation(.foregroundInactive, backgroundSession: "s2"), inactive.state).changed)
        let active = try apply(.activation(.foregroundActive, backgroundSession: "s2"), inactive.state).state
        #expect(active.activationState == nil)
        #expect(engine.revision2Layout(of: inactive.state).activation == .foregroundInactive)
    }

    @Test func enteringBackgroundTakesTheAppSwitcherSession() throws {
        let s = try makeScene { $0.roots = ColumnRoots(primary: "list", secondary: "detail") }
        let t = try apply(.activation(.background, backgroundSession: "s7"), s)
        #expect(
            t.timeline == [.activationChanged(from: .foregroundActive, to: .background), .snapshotTaken(session: "s7")])
        let session = try #require(t.backgroundSnapshot)
        #expect(session.baseRevision == t.state.revision)
        #expect(session == (try engine.snapshot(t.state, preset: "appSwitcher")))
        // The live state is the base with only its activation and revision changed.
        var expected = s
        expected.activationState = .background
        expected.revision = s.revision + 1
        #expect(t.state == expected)
        // snapshotOnBackground false: no session.
        let off = try makeScene { $0.snapshotOnBackground = false }
        let quiet = try apply(.activation(.background, backgroundSession: "s8"), off)
        #expect(quiet.backgroundSnapshot == nil && quiet.revision2Events.count == 1)
        // Layout changes are still accepted in the background.
        #expect(try resized(t.state, padThird).state.collapsed)
    }
}
