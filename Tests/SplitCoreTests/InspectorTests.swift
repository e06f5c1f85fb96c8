import Testing
@testable import SplitCore

/// SEMANTICS 6 (revision 2): the inspector column.
@Suite struct InspectorTests {
    func inspected(size: Size = padLandscape, _ build: (inout SplitConfigPatch) -> Void = { _ in }) throws -> SceneState
    {
        try makeScene(size: size) {
            $0.style = .doubleColumn
            $0.roots = ColumnRoots(primary: "list", secondary: "detail", inspector: "info")
            build(&$0)
        }
    }

    func apply(_ intent: InspectorIntent, _ state: SceneState) throws -> Transition {
        try engine.apply(.inspector(intent), to: state)
    }

    @Test func hiddenUntilShownThenTiledAtTheTrailingEdge() throws {
        let s = try inspected()
        let hidden = try #require(engine.inspectorLayout(of: s))
        #expect(!hidden.shown && !hidden.visible && hidden.stack == ["info"])
        let t = try apply(.show, s)
        let inspector = try #require(engine.inspectorLayout(of: t.state))
        #expect(inspector.visible && !inspector.overlay)
        #expect(inspector.x == 1366 - 320 && inspector.width == 320)
        let secondary = try #require(t.layout.columns.first { $0.column == .secondary })
        #expect(secondary.x == 320 && secondary.width == 1366 - 320 - 320)
        #expect(t.timeline.contains(.inspectorAppear(vc: "info")))
        #expect(try !apply(.show, t.state).changed)
        let back = try apply(.hide, t.state)
        #expect(back.layout == s.layout)
        #expect(back.timeline == [.inspectorDisappear(vc: "info")])
    }

    @Test func overlaysWhenTheSecondaryWouldKeepLessThan320() throws {
        // 834 wide: primary 320 + secondary 514; a 320-pt inspector would leave it 194.
        let s = try makeScene("ipad-pro-11", size: Size(width: 1194, height: 834)) {
            $0.style = .doubleColumn; $0.roots = ColumnRoots(primary: "list", secondary: "detail", inspector: "info")
            $0.preferredDisplayMode = .oneBesideSecondary
        }
        let narrow = try engine.apply(.resize(Size(width: 834, height: 1194)), to: try apply(.show, s).state).state
        let inspector = try #require(engine.inspectorLayout(of: narrow))
        #expect(inspector.visible && inspector.overlay)
        #expect(narrow.layout.columns.first { $0.column == .secondary }.map(\.width) == 514.0)
    }

    @Test func widthsAndMirroring() throws {
        let s = try apply(
            .show,
            try inspected {
                $0.preferredInspectorColumnWidthFraction = .some(0.5); $0.maximumInspectorColumnWidth = 300;
                $0.primaryEdge = .trailing
            }
        ).state
        let inspector = try #require(engine.inspectorLayout(of: s))
        #expect(inspector.width == 300 && inspector.x == 0)
        let secondary = try #require(s.layout.columns.first { $0.column == .secondary })
        #expect(secondary.x == 300 && secondary.width == 1366 - 320 - 300)
    }

    @Test func aSheetWhileCollapsedBackInItsColumnOnExpand() throws {
        let shown = try apply(.show, try inspected()).state
        let collapsed = try resized(shown, padThird).state
        let sheet = try #require(engine.inspectorLayout(of: collapsed))
        #expect(sheet.presentedAsSheet && !sheet.visible)
        let expanded = try resized(collapsed, padLandscape).state
        #expect(engine.inspectorLayout(of: expanded)?.visible == true)
        // Shown while collapsed: a sheet at once.
        let late = try apply(.show, try inspected(size: padThird))
        #expect(engine.inspectorLayout(of: late.state)?.presentedAsSheet == true)
        #expect(late.timeline == [.inspectorAppear(vc: "info")])
    }

    @Test func itsOwnStack() throws {
        var s = try apply(.show, try inspected()).state
        s = try apply(.push(vc: "history"), s).state
        #expect(engine.inspectorLayout(of: s)?.stack == ["info", "history"])
        #expect(s.layout.columns.first { $0.column == .secondary }?.stack == ["detail"])
        let popped = try apply(.pop, s)
        #expect(popped.timeline == [.inspectorDisappear(vc: "history"), .inspectorAppear(vc: "info")])
        #expect(errorCode { _ = try apply(.pop, popped.state) } == .invalidIntent)
        #expect(try !apply(.popToRoot, popped.state).changed)
        // Survives collapse and expand; hidden pushes change nothing visible.
        let hidden = try apply(.push(vc: "x"), try inspected())
        #expect(hidden.changed && hidden.timeline.isEmpty)
    }

    @Test func configurationRules() throws {
        #expect(errorCode { _ = try makeScene { $0.roots = ColumnRoots(inspector: "info") } } == .badRequest)
        let none = try makeScene { $0.style = .doubleColumn }
        #expect(engine.inspectorLayout(of: none) == nil)
        #expect(errorCode { _ = try apply(.show, none) } == .invalidIntent)
        // setConfig adding an inspector starts it hidden at its root; other keys keep it.
        let added = try engine.apply(
            .intent(
                .setConfig(patch { $0.roots = ColumnRoots(primary: "list", secondary: "detail", inspector: "info") })),
            to: none
        ).state
        #expect(engine.inspectorLayout(of: added)?.stack == ["info"])
        let shown = try apply(.show, added).state
        let kept = try engine.apply(.intent(.setConfig(patch { $0.preferredDisplayMode = .secondaryOnly })), to: shown)
            .state
        #expect(engine.inspectorLayout(of: kept)?.visible == true)
    }
}
