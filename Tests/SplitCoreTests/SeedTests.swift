import Testing
@testable import SplitCore

/// The seed articles' flows, end to end through the engine.
@Suite struct SeedTests {
    /// Seed 000: WeChat-like iPad app. Tab bar in the primary, EmptyController placeholder,
    /// showDetail resets the secondary to the placeholder and pushes, custom collapse
    /// (secondary pops to its root, the rest moves) and expand (everything above the
    /// primary's root goes back on top of the placeholder).
    func weChat(device: String = "ipad-pro-12.9", size: Size = padLandscape) throws -> SceneState {
        try engine.createScene(
            id: "wechat", device: device, size: size,
            config: patch {
                $0.tabs = ["chats", "contacts", "discover", "me"].map { TabConfig(root: $0) }
                $0.placeholder = "empty"
                $0.detailRouting = .resetAndPush
                $0.collapsePolicy = .moveDetailExceptRoot
                $0.expandPolicy = .moveAllButRoot
                $0.preferredDisplayMode = .oneBesideSecondary
                $0.preferredPrimaryColumnWidthFraction = 1.0
                $0.maximumPrimaryColumnWidth = 380
            })
    }

    @Test func weChatShowsTabsBesideThePlaceholder() throws {
        let layout = try weChat().layout
        #expect(layout.displayMode == .oneBesideSecondary && layout.selectedTab == 0)
        let primary = try #require(layout.columns.first { $0.column == .primary })
        // fraction 1.0 of the window, clamped to the 380 pt maximum.
        #expect(primary.visible && primary.width == 380 && primary.stack == ["chats"])
        #expect(layout.columns.first { $0.column == .secondary }?.stack == ["empty"])
    }

    @Test func weChatRoutesDetailsFromTheTabsAndPushesInsideTheDetail() throws {
        let s = try run(
            [
                .showDetail(vc: "chat:alice"), .push(column: .secondary, vc: "profile:alice"),
                .showDetail(vc: "chat:bob"),
            ], on: weChat())
        #expect(s.visibleStack(.secondary) == ["empty", "chat:bob"])
    }

    @Test func weChatOnAOneThirdWindowHidesThePlaceholder() throws {
        let empty = try resized(weChat(), padThird).state
        #expect(empty.collapsedStack == ["chats"])
        let chatting = try run(
            [.showDetail(vc: "chat:alice"), .push(column: .secondary, vc: "profile:alice")], on: weChat())
        let t = try resized(chatting, padThird)
        #expect(t.state.collapsedStack == ["chats", "chat:alice", "profile:alice"])
        #expect(t.events.contains(.didCollapse(moved: ["chat:alice", "profile:alice"])))
    }

    @Test func weChatExpandsBackWithMoveAllButRoot() throws {
        let chatting = try run([.showDetail(vc: "chat:alice")], on: weChat())
        let third = try run([.push(column: .primary, vc: "profile:alice")], on: resized(chatting, padThird).state)
        let back = try resized(third, padLandscape)
        #expect(back.state.visibleStack(.primary) == ["chats"])
        #expect(back.state.visibleStack(.secondary) == ["empty", "chat:alice", "profile:alice"])
        #expect(back.events.contains(.didExpand(moved: ["chat:alice", "profile:alice"])))
    }

    @Test func weChatTabSwitchSavesAndRestoresTheDetailStack() throws {
        var s = try run(
            [
                .showDetail(vc: "chat:alice"), .push(column: .secondary, vc: "profile:alice"),
                .selectTab(index: 1),
            ], on: weChat())
        #expect(s.visibleStack(.primary) == ["contacts"] && s.visibleStack(.secondary) == ["empty"])
        s = try run([.showDetail(vc: "card:bob"), .selectTab(index: 0)], on: s)
        #expect(s.visibleStack(.secondary) == ["empty", "chat:alice", "profile:alice"])
        s = try run([.selectTab(index: 1)], on: s)
        #expect(s.visibleStack(.secondary) == ["empty", "card:bob"])
    }

    @Test func weChatContainerRuleCollapsesBelow1000Points() throws {
        let s = try weChat(device: "compact-below-1000", size: Size(width: 1194, height: 834))
        #expect(!s.collapsed)
        let portrait = try resized(run([.showDetail(vc: "chat:alice")], on: s), Size(width: 834, height: 1194))
        #expect(portrait.state.collapsedStack == ["chats", "chat:alice"])
    }

    /// Seed 000's surprise: with UIKit's default collapse an iPhone opens on the placeholder.
    @Test func uikitDefaultShowsThePlaceholderOnIPhone() throws {
        let s = try engine.createScene(
            id: "phone", device: "iphone-14", size: phonePortrait,
            config: patch {
                $0.roots = ColumnRoots(primary: "tabs")
                $0.placeholder = "empty"
            })
        #expect(s.collapsedStack == ["tabs", "empty"])
        #expect(s.layout.columns.first?.stack.last == "empty")
    }

    /// Seed 004: photo browser on a container that is regular above 414 pt. With no photo
    /// selected the collapse keeps the primary (the empty photo page is not shown) and the
    /// expand shows the empty photo page; with a photo selected it is stacked on the list.
    func photos() throws -> SceneState {
        try engine.createScene(
            id: "photos", device: "regular-above-414", size: Size(width: 736, height: 414),
            config: patch {
                $0.roots = ColumnRoots(primary: "photoList")
                $0.placeholder = "emptyPhoto"
                $0.detailRouting = .resetAndPush
                $0.collapsePolicy = .moveDetailExceptRoot
            })
    }

    @Test func photoBrowserIsRegularOnlyAbove414Points() throws {
        let s = try photos()
        #expect(!s.collapsed)
        #expect(try resized(s, Size(width: 414, height: 736)).state.collapsed)
        #expect(try !resized(s, Size(width: 415, height: 736)).state.collapsed)
    }

    @Test func photoBrowserCollapsesToTheListWithoutASelection() throws {
        let c = try resized(photos(), Size(width: 414, height: 736)).state
        #expect(c.collapsedStack == ["photoList"])
        let e = try resized(c, Size(width: 736, height: 414)).state
        #expect(e.visibleStack(.secondary) == ["emptyPhoto"])
    }

    @Test func photoBrowserStacksTheSelectedPhoto() throws {
        let s = try run([.showDetail(vc: "photo:1")], on: photos())
        let c = try resized(s, Size(width: 414, height: 736)).state
        #expect(c.collapsedStack == ["photoList", "photo:1"])
        let deselected = try run([.back], on: c)
        let e = try resized(deselected, Size(width: 736, height: 414)).state
        #expect(e.visibleStack(.secondary) == ["emptyPhoto"])
        #expect(e.visibleStack(.primary) == ["photoList"])
    }
}
