import Testing
@testable import SplitCore

/// SEMANTICS 6 round-trip guarantee: collapse then expand with no navigation in between
/// restores every stack, the selected tab, the saved tab stacks and the config exactly.
@Suite struct RoundTripTests {
    static let collapsePolicies = CollapsePolicy.allCases
    static let expandPolicies = ExpandPolicy.allCases

    /// A scene with something in every column and in a saved tab.
    func busyScene(
        style: SplitStyle, collapse: CollapsePolicy, expand: ExpandPolicy,
        top: TopColumnForCollapsing, tabs: Bool
    ) throws -> SceneState {
        let s = try makeScene {
            $0.style = style
            $0.roots = ColumnRoots(primary: "p", supplementary: "m", secondary: tabs ? nil : "d")
            $0.placeholder = "ph"
            if tabs { $0.tabs = [TabConfig(root: "t0"), TabConfig(root: "t1")] }
            $0.collapsePolicy = collapse
            $0.expandPolicy = expand
            $0.topColumnForCollapsing = top
        }
        var intents: [Intent] = [.push(column: .primary, vc: "p1"), .push(column: .secondary, vc: "d1")]
        if tabs {
            intents += [
                .selectTab(index: 1), .push(column: .primary, vc: "q1"), .showDetail(vc: "e1"), .selectTab(index: 0),
            ]
        }
        if style == .tripleColumn { intents.append(.push(column: .supplementary, vc: "m1")) }
        intents.append(.push(column: .secondary, vc: "d2"))
        return try run(intents, on: s)
    }

    @Test(arguments: collapsePolicies, expandPolicies)
    func collapseThenExpandRestoresEverything(_ collapse: CollapsePolicy, _ expand: ExpandPolicy) throws {
        for style in SplitStyle.allCases {
            for top in TopColumnForCollapsing.allCases {
                for tabs in [false, true] {
                    let s = try busyScene(style: style, collapse: collapse, expand: expand, top: top, tabs: tabs)
                    let c = try resized(s, padThird).state
                    #expect(c.collapsed)
                    let e = try resized(c, s.size).state
                    #expect(e.navigation == s.navigation, "\(style) \(top) tabs:\(tabs)")
                    #expect(e.config == s.config)
                    #expect(e.layout.selectedTab == s.layout.selectedTab)
                    #expect(e.layout.columns.map(\.stack) == s.layout.columns.map(\.stack))
                }
            }
        }
    }

    @Test(arguments: collapsePolicies, expandPolicies)
    func expandThenCollapseRestoresACollapsedScene(_ collapse: CollapsePolicy, _ expand: ExpandPolicy) throws {
        let regular = try busyScene(style: .classic, collapse: collapse, expand: expand, top: .secondary, tabs: true)
        let c = try resized(regular, padThird).state
        let again = try resized(resized(c, padLandscape).state, padThird).state
        #expect(again.navigation == c.navigation)
        #expect(again.collapsedStack == c.collapsedStack)
    }

    @Test func aUserDisplayModeExpiresAcrossTheTrip() throws {
        let s = try makeScene { $0.roots = ColumnRoots(primary: "p", secondary: "d") }
        let hidden = try run([.displayModeButton], on: s)
        #expect(hidden.layout.displayMode != s.layout.displayMode)
        let back = try resized(resized(hidden, padThird).state, padLandscape).state
        #expect(back.navigation == hidden.navigation)
        #expect(back.layout.displayMode == s.layout.displayMode)
    }

    @Test func manySizeChangesInARowStayExact() throws {
        let s = try busyScene(
            style: .tripleColumn, collapse: .moveDetailExceptRoot, expand: .moveAllButRoot,
            top: .lastNavigated, tabs: true)
        var t = s
        for size in [padThird, padHalf, padPortrait, Size(width: 320, height: 1024), padThird, padLandscape] {
            t = try resized(t, size).state
        }
        #expect(t.navigation == s.navigation && t.config == s.config && t.size == s.size)
    }

    /// SEMANTICS 8.3 from a collapsed base: navigation while collapsed, then expand and
    /// collapse again with no navigation in between gives the collapsed scene back exactly,
    /// whatever the policies.
    @Test(arguments: collapsePolicies, expandPolicies)
    func expandThenCollapseAfterNavigatingWhileCollapsedIsExact(
        _ collapse: CollapsePolicy, _ expand: ExpandPolicy
    ) throws {
        for style in SplitStyle.allCases {
            for top in TopColumnForCollapsing.allCases {
                let s = try makeScene("ipad-pro-11", size: Size(width: 375, height: 834)) {
                    $0.style = style
                    $0.roots = ColumnRoots(primary: "P", supplementary: "M", secondary: "S")
                    $0.collapsePolicy = collapse
                    $0.expandPolicy = expand
                    $0.topColumnForCollapsing = top
                }
                #expect(s.collapsed)
                let navigated = try run(
                    [
                        .push(column: .compact, vc: "c1"), .showDetail(vc: "d1"),
                        .push(column: .compact, vc: "x"),
                    ], on: s)
                let expanded = try resized(navigated, Size(width: 1194, height: 834))
                #expect(!expanded.state.collapsed)
                let back = try resized(expanded.state, navigated.size)
                #expect(back.state.navigation == navigated.navigation, "\(style) \(top)")
                #expect(back.state.collapsedStack == navigated.collapsedStack)
                // What the collapse reports as moved back is what the expand moved out.
                #expect(back.events.contains(.didCollapse(moved: movedOut(expanded.events))))
                let session = try engine.snapshot(navigated, preset: "appSwitcher")
                #expect(session.roundTrip.lossless, "\(style) \(top): \(session.roundTrip.differences)")
            }
        }
    }

    /// Navigating while expanded ends it: the collapse policies apply again.
    @Test func navigationWhileExpandedLetsThePoliciesApply() throws {
        let s = try makeScene("ipad-pro-11", size: Size(width: 375, height: 834)) {
            $0.roots = ColumnRoots(primary: "P", secondary: "S")
            $0.collapsePolicy = .keepPrimary
        }
        let navigated = try run([.push(column: .compact, vc: "c1"), .showDetail(vc: "d1")], on: s)
        #expect(navigated.collapsedStack == ["P", "c1", "d1"])
        let expanded = try resized(navigated, Size(width: 1194, height: 834)).state
        #expect(expanded.navigation.expandedFrom != nil)
        // A display-mode action is not navigation: the collapsed scene still comes back.
        let toggled = try run([.displayModeButton], on: expanded)
        #expect(toggled.navigation.expandedFrom != nil)
        #expect(try resized(toggled, navigated.size).state.collapsedStack == ["P", "c1", "d1"])
        // A push is: keepPrimary's collapsed stack is the primary's.
        let pushed = try run([.push(column: .primary, vc: "p2")], on: expanded)
        #expect(pushed.navigation.expandedFrom == nil)
        #expect(try resized(pushed, navigated.size).state.collapsedStack == ["P", "c1", "p2"])
        // So is a configuration that moves the stacks differently; a display key is not.
        let reconfigured = try run([.setConfig(patch { $0.collapsePolicy = .uikit })], on: expanded)
        #expect(reconfigured.navigation.expandedFrom == nil)
        let widened = try run([.setConfig(patch { $0.preferredPrimaryColumnWidth = .some(300) })], on: expanded)
        #expect(widened.navigation.expandedFrom != nil)
        #expect(try resized(widened, navigated.size).state.collapsedStack == ["P", "c1", "d1"])
    }

    func movedOut(_ events: [SceneEvent]) -> [String] {
        events.compactMap { if case let .didExpand(moved) = $0 { moved } else { nil } }.first ?? []
    }
}
