import Foundation
import Testing
@testable import SplitCore

@Suite struct EngineTests {
    @Test func createsAtRevisionOneExpandedWithRoots() throws {
        let s = try makeScene { $0.roots = ColumnRoots(primary: "list", secondary: "detail") }
        #expect(s.revision == 1)
        #expect(!s.collapsed)
        #expect(s.visibleStack(.primary) == ["list"])
        #expect(s.visibleStack(.secondary) == ["detail"])
    }

    @Test func placeholderIsTheSecondaryRootWhenNoneIsConfigured() throws {
        let s = try makeScene {
            $0.roots = ColumnRoots(primary: "list"); $0.placeholder = "empty"
        }
        #expect(s.visibleStack(.secondary) == ["empty"])
        let t = try makeScene {
            $0.roots = ColumnRoots(primary: "list", secondary: "detail"); $0.placeholder = "empty"
        }
        #expect(t.visibleStack(.secondary) == ["detail"])
    }

    @Test func tabsPutTheFirstTabRootInThePrimary() throws {
        let s = try makeScene { $0.tabs = [TabConfig(root: "chats"), TabConfig(root: "contacts")] }
        #expect(s.visibleStack(.primary) == ["chats"])
        #expect(s.layout.selectedTab == 0)
        #expect(try makeScene().layout.selectedTab == nil)
    }

    @Test func defaultSizeIsTheFullScreenInLandscape() throws {
        let s = try makeScene(size: nil)
        #expect(s.size.orientation == .landscape)
        #expect(s.size == engine.catalog.defaultSize(device: "ipad-pro-12.9"))
    }

    @Test func createdAtACompactSizeIsCollapsed() throws {
        let s = try makeScene("iphone-14", size: phonePortrait) { $0.roots = ColumnRoots(primary: "list") }
        #expect(s.collapsed)
        let layout = s.layout
        #expect(layout.displayMode == nil && layout.splitBehavior == nil)
        #expect(layout.columns.count == 1)
        let column = try #require(layout.columns.first)
        #expect(column.column == .compact && column.visible && column.x == 0 && column.width == phonePortrait.width)
    }

    @Test(arguments: ["", String(repeating: "a", count: 129), "a b", "é", "a/b", "a\n"])
    func refusesInvalidSceneIds(_ id: String) {
        #expect(errorCode { _ = try engine.createScene(id: id, device: "mac", size: nil, config: nil) } == .badRequest)
    }

    @Test func acceptsTheWholeIdAlphabet() throws {
        let id = "Az09._:-" + String(repeating: "x", count: 120)
        #expect(try engine.createScene(id: id, device: "mac", size: nil, config: nil).id == id)
    }

    @Test func refusesUnknownDevicesMissingAndInvalidSizes() {
        #expect(
            errorCode { _ = try engine.createScene(id: "a", device: "nokia-3310", size: nil, config: nil) }
                == .unknownDevice)
        #expect(
            errorCode { _ = try engine.createScene(id: "a", device: "material", size: nil, config: nil) } == .badRequest
        )
        #expect(
            errorCode {
                _ = try engine.createScene(id: "a", device: "mac", size: Size(width: 0, height: 10), config: nil)
            } == .badRequest)
        #expect(
            errorCode {
                _ = try engine.createScene(id: "a", device: "mac", size: Size(width: 100_001, height: 10), config: nil)
            } == .badRequest)
    }

    @Test func refusesTooManyTabsAndInvalidRootIds() {
        var limits = CoreLimits()
        limits.maxTabs = 2
        let small = SplitEngine(limits: limits)
        let tabs = patch { $0.tabs = ["a", "b", "c"].map { TabConfig(root: $0) } }
        #expect(
            errorCode { _ = try small.createScene(id: "a", device: "mac", size: nil, config: tabs) } == .limitExceeded)
        let empty = patch { $0.roots = ColumnRoots(primary: "") }
        #expect(
            errorCode { _ = try engine.createScene(id: "a", device: "mac", size: nil, config: empty) } == .badRequest)
    }

    @Test func resizeToTheSameSizeIsANoOp() throws {
        let s = try makeScene()
        let t = try resized(s, s.size)
        #expect(!t.changed && t.events.isEmpty && t.state == s && t.state.revision == 1)
    }

    @Test func acceptedResizeBumpsTheRevisionAndAnnouncesTheSize() throws {
        let s = try makeScene()
        let t = try resized(s, padPortrait)
        #expect(t.changed && t.state.revision == 2)
        #expect(t.events.filter { $0.type == "viewWillTransition" } == [.viewWillTransition(to: padPortrait)])
        #expect(t.layout == engine.layout(of: t.state))
    }

    /// WIRE.md: sides are > 0 and <= 100000; anything else (zero, negative, NaN, infinite,
    /// huge) is a bad_request for create, resize and snapshot alike.
    static let invalidSizes: [Size] = [
        Size(width: 0, height: 10), Size(width: 10, height: 0), Size(width: -1, height: 10),
        Size(width: .nan, height: 10), Size(width: 10, height: .nan), Size(width: .infinity, height: 10),
        Size(width: 10, height: -.infinity), Size(width: 100_000.5, height: 10), Size(width: 10, height: 1e9),
    ]

    @Test(arguments: invalidSizes)
    func invalidSizesAreBadRequests(size: Size) throws {
        let s = try makeScene()
        #expect(errorCode { _ = try resized(s, size) } == .badRequest)
        #expect(errorCode { _ = try engine.snapshot(s, sizes: [padPortrait, size]) } == .badRequest)
        #expect(
            errorCode { _ = try engine.createScene(id: "a", device: "material", size: size, config: nil) }
                == .badRequest)
        #expect(try resized(s, Size(width: 100_000, height: 100_000)).changed)
    }

    /// SEMANTICS 4 widths that are no width (NaN, infinite, negative, a fraction outside
    /// 0...1, min > max) are refused at creation and by setConfig.
    @Test func badWidthsInAConfigAreBadRequests() throws {
        let s = try makeScene()
        let bad = [
            patch { $0.preferredPrimaryColumnWidth = .some(.nan) },
            patch { $0.maximumPrimaryColumnWidth = .infinity },
            patch { $0.minimumSupplementaryColumnWidth = -1 },
            patch { $0.preferredSupplementaryColumnWidthFraction = .some(1.5) },
            patch { $0.maximumSupplementaryColumnWidth = -320 },
        ]
        for config in bad {
            #expect(
                errorCode { _ = try engine.createScene(id: "a", device: "mac", size: nil, config: config) }
                    == .badRequest)
            #expect(errorCode { _ = try engine.apply(.intent(.setConfig(config)), to: s) } == .badRequest)
        }
    }

    @Test func layoutIsNeverAutomaticAndListsTheStyleColumns() throws {
        for style in SplitStyle.allCases {
            let s = try makeScene { $0.style = style }
            let layout = s.layout
            #expect(layout.displayMode != nil && layout.displayMode != .automatic)
            #expect(layout.splitBehavior != nil && layout.splitBehavior != .automatic)
            #expect(layout.columns.map(\.column) == style.columns)
        }
    }

    @Test func navigationDecodesMissingKeysAsEmpty() throws {
        let nav = try JSONDecoder().decode(NavigationState.self, from: Data(#"{"primary":["p"]}"#.utf8))
        var expected = NavigationState()
        expected.primary = ["p"]
        #expect(nav == expected)
    }

    @Test func sceneStateRoundTripsThroughJSON() throws {
        let s = try run(
            [.push(column: .primary, vc: "a"), .present(vc: "m", style: .formSheet)],
            on: makeScene {
                $0.tabs = [TabConfig(root: "t0"), TabConfig(root: "t1")]; $0.placeholder = "ph"
            })
        let collapsed = try resized(s, padThird).state
        for state in [s, collapsed] {
            let data = try JSONEncoder().encode(state)
            #expect(try JSONDecoder().decode(SceneState.self, from: data) == state)
        }
    }
}
