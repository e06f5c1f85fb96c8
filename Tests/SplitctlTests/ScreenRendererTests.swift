import SplitCore
import Testing

@testable import splitctl

/// The attach screen's drawing of revision 2's layout fields (docs/TERMINAL.md "Screen"): the
/// inspector as a column at its frame or, collapsed, as the first sheet; the display-mode
/// button as a marker in the secondary's title bar. Layouts come from the engine, as splitd
/// would send them.
@Suite struct ScreenRendererTests {
    let engine = SplitEngine()
    /// 1 column = 8 pt: a 171-column terminal is a 1368-pt window, close to the 12.9-inch iPad.
    let terminal = TerminalSize(columns: 171, rows: 40)

    func scene(_ build: (inout SplitConfigPatch) -> Void = { _ in }) throws -> SceneState {
        var patch = SplitConfigPatch()
        patch.style = .doubleColumn
        patch.roots = ColumnRoots(primary: "notes", secondary: "editor", inspector: "info")
        build(&patch)
        return try engine.createScene(id: "s", device: "ipad-pro-12.9", size: nil, config: patch)
    }

    func applying(_ commands: [SplitCore.SceneCommand], to state: SceneState) throws -> SceneState {
        var state = state
        for command in commands { state = try engine.apply(command, to: state).state }
        return state
    }

    func screen(_ layout: Layout) -> ScreenCanvas {
        var state = AttachState(scene: "s", role: .viewer, terminal: terminal, metrics: CellMetrics())
        state.show(layout, revision: 1, events: [], force: true)
        return ScreenRenderer.render(state)
    }

    func rows(_ canvas: ScreenCanvas) -> [String] { (0..<canvas.height).map { canvas.text(row: $0) } }

    /// The cell range the renderer gives a frame of `x`, `width` points.
    func cells(x: Double, width: Double, of layout: Layout) -> (x: Int, width: Int) {
        let scale = Double(terminal.columns) / layout.size.width
        let left = Int((x * scale).rounded()), right = min(Int(((x + width) * scale).rounded()), terminal.columns)
        return (left, right - left)
    }

    @Test func aTiledInspectorIsAColumnAtItsFrame() throws {
        let state = try applying([.inspector(.show), .inspector(.push(vc: "history"))], to: try scene())
        let layout = engine.layout(of: state)
        let inspector = try #require(layout.revision2?.inspector)
        #expect(inspector.visible && !inspector.overlay)

        let rects = ColumnGeometry.rects(for: layout, columns: terminal.columns)
        let drawn = try #require(rects.first { $0.isInspector })
        let expected = cells(x: inspector.x, width: inspector.width, of: layout)
        #expect(drawn.x == expected.x && drawn.width == expected.width)
        #expect(drawn.column.stack == inspector.stack)
        // Tiled: it starts where the secondary ends.
        let secondary = try #require(rects.first { !$0.isInspector && $0.column.column == .secondary })
        #expect(secondary.x + secondary.width == drawn.x)

        let text = rows(screen(layout))
        let title = "─ inspector \(points(inspector.width))pt"
        let titleRow = try #require(text.first { $0.contains(title) })
        #expect(
            titleRow.firstRange(of: title)?.lowerBound == titleRow.index(titleRow.startIndex, offsetBy: drawn.x + 1))
        // Its stack, top highlighted, inside its box.
        #expect(text.contains { $0.dropFirst(drawn.x + 2).hasPrefix("▸ history") })
        #expect(text.contains { $0.dropFirst(drawn.x + 2).hasPrefix("  info") })
    }

    @Test func anInspectorWithoutRoomLiesOverTheSecondary() throws {
        let state = try applying(
            // Landscape 1/2 with a 360-pt inspector: the secondary would keep less than 320 pt.
            [.inspector(.show), .resize(Size(width: 678, height: 1024), interfaceOrientation: nil)],
            to: try scene { $0.preferredInspectorColumnWidth = .some(360) })
        let layout = engine.layout(of: state)
        let inspector = try #require(layout.revision2?.inspector)
        #expect(!layout.collapsed && inspector.visible && inspector.overlay)
        let rects = ColumnGeometry.rects(for: layout, columns: terminal.columns)
        // Drawn last, over the secondary.
        #expect(rects.last?.isInspector == true)
        let text = rows(screen(layout))
        #expect(text.contains { $0.contains("─ inspector \(points(inspector.width))pt overlay") })
    }

    @Test func aHiddenInspectorIsNotDrawn() throws {
        let layout = engine.layout(of: try scene())
        #expect(layout.revision2?.inspector?.visible == false)
        #expect(!ColumnGeometry.rects(for: layout, columns: terminal.columns).contains { $0.isInspector })
        #expect(!rows(screen(layout)).contains { $0.contains("inspector") })
    }

    @Test func collapsedTheInspectorIsTheFirstSheet() throws {
        let state = try applying(
            [
                .inspector(.show), .inspector(.push(vc: "history")),
                .present(PresentationRequest(vc: "share", style: .popover, anchor: "notes")),
                .resize(Size(width: 375, height: 1024), interfaceOrientation: nil),
            ], to: try scene())
        let layout = engine.layout(of: state)
        #expect(layout.collapsed && layout.revision2?.inspector?.presentedAsSheet == true)
        #expect(!ColumnGeometry.rects(for: layout, columns: terminal.columns).contains { $0.isInspector })
        let lines = ScreenRenderer.presentationLines(layout)
        #expect(lines.first == "inspector: history  sheet")
        let share = try #require(layout.presentations.first)
        #expect(lines.dropFirst().first == "share  popover (as \(share.effectiveStyle.rawValue)) at notes")
        let text = rows(screen(layout))
        #expect(text.contains { $0.contains("─ presented") })
        #expect(text.contains { $0.contains("inspector: history  sheet") })
    }

    @Test func theDisplayModeButtonIsAMarkerInTheSecondarysTitleBar() throws {
        let layout = engine.layout(of: try scene())
        let button = try #require(layout.revision2?.displayModeButton)
        #expect(button.visible)
        let target = try #require(button.target)
        let marker = "[d → \(target.rawValue)]"
        #expect(ScreenRenderer.buttonMarker(layout) == marker)
        let titleRow = try #require(rows(screen(layout)).first { $0.contains("─ secondary ") })
        #expect(titleRow.contains(marker))
        // Only there: not on the primary's title.
        #expect(titleRow.components(separatedBy: "[d →").count == 2)
        #expect(titleRow.firstRange(of: "─ primary")!.lowerBound < titleRow.firstRange(of: marker)!.lowerBound)

        // After a tap the marker names the next target, as the layout does.
        let tapped = engine.layout(of: try applying([.change(.intent(.displayModeButton))], to: try scene()))
        let next = try #require(tapped.revision2?.displayModeButton.target)
        #expect(rows(screen(tapped)).contains { $0.contains("[d → \(next.rawValue)]") })
    }

    @Test func aHiddenButtonHasNoMarker() throws {
        let hidden = engine.layout(of: try scene { $0.displayModeButtonVisibility = .never })
        #expect(hidden.revision2?.displayModeButton.visible == false)
        #expect(ScreenRenderer.buttonMarker(hidden) == nil)
        #expect(!rows(screen(hidden)).contains { $0.contains("[d →") })
        // Collapsed, the button is never shown.
        let collapsed = engine.layout(
            of: try applying([.resize(Size(width: 375, height: 1024), interfaceOrientation: nil)], to: try scene()))
        #expect(collapsed.collapsed && ScreenRenderer.buttonMarker(collapsed) == nil)
        // A layout without revision 2's fields (an older daemon) draws no marker either.
        var old = engine.layout(of: try scene())
        old.revision2 = nil
        #expect(ScreenRenderer.buttonMarker(old) == nil)
    }
}
