import SplitCore
import SplitWire
import Testing

/// Layouts of revision 2 read back by `Layout(json:)` and written again give the same bytes:
/// a client that decodes a layout and encodes it (a bridge, a recorder) passes on what splitd
/// sent. The inspector is the delicate part: a column entry while expanded, a sheet
/// (`source: inspector`) while collapsed, absent while collapsed and hidden.
@Suite struct LayoutRoundTripTests {
    let engine = SplitEngine()

    private func bytes(_ layout: Layout) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(layout)
        return writer.bytes
    }

    /// encode → decode → encode is identical, and decoding the second encoding gives the
    /// first decoding back.
    private func expectRoundTrip(_ layout: Layout, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let first = bytes(layout)
        let decoded = try Layout(json: try JSONParser.parse(first))
        let second = bytes(decoded)
        #expect(
            String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self),
            sourceLocation: sourceLocation)
        #expect(try Layout(json: try JSONParser.parse(second)) == decoded, sourceLocation: sourceLocation)
    }

    private func inspected(device: String = "ipad-pro-12.9") throws -> SceneState {
        var patch = SplitConfigPatch()
        patch.style = .doubleColumn
        patch.roots = ColumnRoots(primary: "list", secondary: "detail", inspector: "info")
        return try engine.createScene(id: "s", device: device, size: nil, config: patch)
    }

    private func applying(_ commands: [SceneCommand], to state: SceneState) throws -> SceneState {
        var state = state
        for command in commands { state = try engine.apply(command, to: state).state }
        return state
    }

    @Test func aCollapsedSceneWithTheInspectorShownAsASheet() throws {
        let state = try applying(
            [
                .inspector(.show), .inspector(.push(vc: "history")),
                .resize(Size(width: 375, height: 1024), interfaceOrientation: .landscape),
            ], to: try inspected())
        let layout = engine.layout(of: state)
        #expect(layout.collapsed)
        let inspector = try #require(layout.revision2?.inspector)
        #expect(inspector.presentedAsSheet && !inspector.visible)
        let wire = try JSONParser.parse(bytes(layout))
        #expect(wire["presentations"]?[0]?["source"] == "inspector")
        #expect(wire["presentations"]?[0]?["vc"] == "history")
        try expectRoundTrip(layout)

        // Under modals the app presented (an anchored popover, an automatic sheet). An anchor
        // is the top of a visible column: here the collapsed stack's.
        let anchor = try #require(layout.visibleColumns.last?.stack.last)
        let presented = try applying(
            [
                .present(PresentationRequest(vc: "share", style: .popover, anchor: anchor)),
                .present(PresentationRequest(vc: "note", style: nil, prefersEdgeAttachedInCompactHeight: true)),
            ], to: state)
        let over = engine.layout(of: presented)
        #expect(over.presentations.count == 2)
        try expectRoundTrip(over)
        let decoded = try Layout(json: try JSONParser.parse(bytes(over)))
        #expect(decoded.presentations == over.presentations)
        #expect(decoded.revision2?.presentations == over.revision2?.presentations)
        #expect(decoded.revision2?.inspector?.presentedAsSheet == true)
        #expect(decoded.revision2?.inspector?.stack.last == "history")
    }

    @Test func everyInspectorStateOnPadAndPhone() throws {
        for device in ["ipad-pro-12.9", "iphone-14-plus", "iphone-8"] {
            let start = try inspected(device: device)
            let size = start.size
            let sizes = [size, Size(width: size.height, height: size.width), Size(width: 375, height: 1024)]
            for shown in [false, true] {
                var state = shown ? try applying([.inspector(.show)], to: start) : start
                for size in sizes where size.isValidWindowSize {
                    state = try applying([.resize(size, interfaceOrientation: nil)], to: state)
                    try expectRoundTrip(engine.layout(of: state))
                }
            }
        }
    }
}
