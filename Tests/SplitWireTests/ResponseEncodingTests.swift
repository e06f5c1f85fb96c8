import Foundation
import PropertyBased
import SplitCore
import SplitTestSupport
import SplitWire
import Testing

/// The hand-written encoders against the Codable conformances of SplitCore (the reference
/// for field names) and WIRE.md's shapes.
@Suite("ResponseEncoding")
struct ResponseEncodingTests {
    /// Foundation's encoding of `value`, parsed into a JSONValue.
    private func reference(_ value: some Encodable) throws -> JSONValue {
        try JSONParser.parse(Array(try JSONEncoder().encode(value)))
    }

    private func fast(_ write: (inout JSONWriter) -> Void) throws -> JSONValue {
        var writer = JSONWriter()
        write(&writer)
        return try JSONParser.parse(writer.bytes)
    }

    private func line(_ append: (inout [UInt8]) -> Void) throws -> JSONValue {
        var buffer: [UInt8] = []
        append(&buffer)
        #expect(buffer.last == UInt8(ascii: "\n"))
        #expect(buffer.dropLast().contains(UInt8(ascii: "\n")) == false)
        return try JSONParser.parse(buffer)
    }

    static let wireExample = Layout(
        size: Size(width: 1366, height: 1024), orientation: .landscape, traits: .regularRegular, collapsed: false,
        displayMode: .oneBesideSecondary, splitBehavior: .tile,
        columns: [
            ColumnLayout(column: .primary, visible: true, x: 0, width: 320, stack: ["inbox"]),
            ColumnLayout(column: .secondary, visible: true, x: 320, width: 1046, stack: ["placeholder"]),
        ],
        presentations: [])

    @Test("the layout of WIRE.md's example encodes to WIRE.md's text")
    func wireExampleLayout() throws {
        let expected = #"""
            {"size":{"width":1366,"height":1024},"orientation":"landscape",
             "traits":{"horizontalSizeClass":"regular","verticalSizeClass":"regular"},"collapsed":false,
             "displayMode":"oneBesideSecondary","splitBehavior":"tile",
             "columns":[{"column":"primary","visible":true,"x":0,"width":320,"overlay":false,"dimmed":false,
              "stack":["inbox"]},
              {"column":"secondary","visible":true,"x":320,"width":1046,"overlay":false,"dimmed":false,
              "stack":["placeholder"]}],
             "presentations":[]}
            """#.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
        var writer = JSONWriter()
        writer.write(Self.wireExample)
        // Byte for byte: field order as in WIRE.md, integers without ".0".
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test("collapsed layouts carry explicit null display mode and behavior; selectedTab only when set")
    func collapsedNulls() throws {
        let layout = Layout(
            size: Size(width: 375, height: 667), orientation: .portrait, traits: .compactRegular,
            collapsed: true, displayMode: nil, splitBehavior: nil,
            columns: [
                ColumnLayout(
                    column: .compact, visible: true, x: 0, width: 375,
                    stack: ["a", "b"])
            ],
            presentations: [PresentationLayout(vc: "p", style: .formSheet, effectiveStyle: .pageSheet)])
        let value = try fast { $0.write(layout) }
        #expect(value["displayMode"] == .null)
        #expect(value["splitBehavior"] == .null)
        #expect(value.object?.keys.contains("selectedTab") == false)
        #expect(value["presentations"]?[0] == ["vc": "p", "style": "formSheet", "effectiveStyle": "pageSheet"])
        var tabbed = layout
        tabbed.selectedTab = 1
        #expect(try fast { $0.write(tabbed) }["selectedTab"] == .int(1))
    }

    @Test("layouts encode as SplitCore's Codable does")
    func layoutsMatchCodable() async {
        await propertyCheck(count: 300, input: WireGenerators.layout) { layout throws in
            #expect(try fast { $0.write(layout) } == reference(layout))
        }
    }

    @Test("events encode as SplitCore's Codable does")
    func eventsMatchCodable() async {
        await propertyCheck(count: 300, input: WireGenerators.events) { events throws in
            #expect(try fast { $0.write(events) } == reference(events))
        }
    }

    @Test("layouts and events decode back to the same values")
    func decodeBack() async {
        await propertyCheck(count: 300, input: WireGenerators.layout, WireGenerators.events) { layout, events throws in
            #expect(try Layout(json: fast { $0.write(layout) }) == layout)
            #expect(try SceneEvent.list(json: fast { $0.write(events) }) == events)
            for event in events { #expect(try SceneEvent(json: fast { $0.write(event) }) == event) }
        }
    }

    @Test("a change response: id, ok, revision, layout, events")
    func changeResponse() throws {
        let events: [SceneEvent] = [
            .viewWillTransition(to: Size(width: 375, height: 1024)),
            .traitsChanged(from: .regularRegular, to: .compactRegular),
        ]
        let value = try line {
            WireEncoder.appendResponse(
                id: "r1", reply: .change(revision: 12, layout: Self.wireExample, events: events),
                to: &$0)
        }
        #expect(value.object?.keys == ["id", "ok", "revision", "layout", "events"])
        #expect(value["id"] == "r1")
        #expect(value["ok"] == true)
        #expect(value["revision"] == 12)
        #expect(try Layout(json: value["layout"] ?? nil) == Self.wireExample)
        #expect(try SceneEvent.list(json: value["events"] ?? nil) == events)

        let noop = try line {
            WireEncoder.appendResponse(
                id: 2, reply: .change(revision: 12, layout: Self.wireExample, events: []),
                to: &$0)
        }
        #expect(noop["events"] == .array([]))
    }

    @Test("shared change fields give the same response and push as direct encoding")
    func sharedChangeFields() throws {
        let events: [SceneEvent] = [.appear(vc: "chat", column: .secondary), .disappear(vc: "inbox", column: .primary)]
        let change = ChangeFields(revision: 5, layout: Self.wireExample, events: events)
        var shared: [UInt8] = []
        WireEncoder.appendResponse(id: 9, change: change, to: &shared)
        WireEncoder.appendLayoutPush(scene: "s1", change: change, to: &shared)
        var direct: [UInt8] = []
        WireEncoder.appendResponse(
            id: 9, reply: .change(revision: 5, layout: Self.wireExample, events: events),
            to: &direct)
        WireEncoder.appendLayoutPush(scene: "s1", revision: 5, layout: Self.wireExample, events: events, to: &direct)
        #expect(shared == direct)
    }

    @Test("a layout push: event, scene, revision, layout, events and no id")
    func push() throws {
        let value = try line {
            WireEncoder.appendLayoutPush(
                scene: "s\"1", revision: 3, layout: Self.wireExample,
                events: [.dismissed(vc: "x")], to: &$0)
        }
        #expect(value.object?.keys == ["event", "scene", "revision", "layout", "events"])
        #expect(value["event"] == "layout")
        #expect(value["scene"] == "s\"1")
        #expect(value["revision"] == 3)
        #expect(value["id"] == nil)
        #expect(value["events"] == [["type": "dismissed", "vc": "x"]])
    }

    @Test("error responses carry code and message; unreadable ids are null")
    func errors() throws {
        for code in WireErrorCode.protocolOne {
            let value = try line { WireEncoder.appendError(id: 4, error: WireError(code, "why \"not\"\n"), to: &$0) }
            #expect(
                value == [
                    "id": 4, "ok": false,
                    "error": ["code": .string(code.rawValue), "message": "why \"not\"\n"],
                ])
        }
        let failure = RequestFailure(id: nil, error: WireError(.badJSON, "invalid JSON"))
        let value = try line { WireEncoder.appendFailure(failure, to: &$0) }
        #expect(value["id"] == .null)
        #expect(value.object?.keys.first == "id")
        #expect(value["error"]?["code"] == "bad_json")
    }

    @Test("every WIRE.md error code is spelled as WIRE.md spells it")
    func errorCodeSpelling() {
        let wire =
            "bad_json bad_request unknown_op version_mismatch unknown_scene scene_exists unknown_device "
            + "invalid_intent conflict frame_too_large limit_exceeded unauthorized storage internal"
        #expect(WireErrorCode.protocolOne.map(\.rawValue) == wire.split(separator: " ").map(String.init))
        for code in [CoreError.Code.badRequest, .unknownDevice, .invalidIntent, .limitExceeded] {
            #expect(WireErrorCode.protocolOne.contains(WireErrorCode(code)))
            #expect(WireError(CoreError(code, "m")).code.rawValue == code.rawValue)
        }
    }

    @Test("result fields of every reply")
    func replies() throws {
        func result(_ reply: Reply) throws -> JSONValue {
            try line { WireEncoder.appendResponse(id: 1, reply: reply, to: &$0) }
        }
        #expect(
            try result(.hello(protocol: 1, server: "splitd 0.1"))
                == ["id": 1, "ok": true, "protocol": 1, "server": "splitd 0.1"])
        let scene = try result(.scene(scene: "s", revision: 1, layout: Self.wireExample))
        #expect(scene.object?.keys == ["id", "ok", "scene", "revision", "layout"])
        let detail = try result(
            .sceneDetail(
                scene: "s", revision: 2, layout: Self.wireExample,
                state: ["config": ["style": "classic"]]))
        #expect(detail["state"]?["config"]?["style"] == "classic")
        #expect(detail["revision"] == 2)
        #expect(
            try result(.sceneList([SceneListing(scene: "a", revision: 3, device: "mac")]))["scenes"]
                == [["scene": "a", "revision": 3, "device": "mac"]])
        #expect(try result(.empty) == ["id": 1, "ok": true])
        #expect(
            try result(.stats(["scenes": 2, "clients": 1, "requests": 99]))
                == ["id": 1, "ok": true, "scenes": 2, "clients": 1, "requests": 99])
        let listing = SnapshotListing(session: "7", baseRevision: 4, sizes: [Size(width: 1, height: 2)], hash: "ab")
        #expect(
            try result(.snapshotSessions([listing]))["sessions"]
                == [["session": "7", "baseRevision": 4, "sizes": [["width": 1, "height": 2]], "hash": "ab"]])
        let device = DeviceListing(
            device: "ipad-pro-11", kind: .profile, defaultSize: Size(width: 1194, height: 834),
            presets: [
                NamedSize(
                    name: "1/2", orientation: .landscape,
                    size: Size(width: 592, height: 834))
            ])
        #expect(
            try result(.devices([device]))["devices"] == [
                [
                    "device": "ipad-pro-11", "kind": "profile", "defaultSize": ["width": 1194, "height": 834],
                    "presets": [["name": "1/2", "orientation": "landscape", "size": ["width": 592, "height": 834]]],
                ]
            ])
        #expect(try result(.fields(["pong": true])) == ["id": 1, "ok": true, "pong": true])
    }

    @Test("snapshot results encode as SplitCore's Codable does and read back")
    func snapshots() throws {
        let reference = #"""
            {"baseRevision":3,"snapshots":[{"size":{"width":375,"height":1024},"layout":LAYOUT}],
             "roundTrip":{"lossless":false,"differences":["secondary stack differs"]}}
            """#.replacingOccurrences(of: "LAYOUT", with: JSONWriter.string(try fast { $0.write(Self.wireExample) }))
        let result = try JSONDecoder().decode(SnapshotResult.self, from: Data(reference.utf8))
        let record = SnapshotRecord(session: "12", scene: "s", hash: "f00d", result: result)
        let value = try line { WireEncoder.appendResponse(id: 1, reply: .snapshot(record), to: &$0) }
        #expect(value["session"] == "12")
        #expect(value["hash"] == "f00d")
        var withoutExtras = value.object!
        for key in ["id", "ok", "session", "scene", "hash"] { withoutExtras[key] = nil }
        #expect(JSONValue.object(withoutExtras) == (try JSONParser.parse(reference)))
        #expect(try SnapshotRecord(json: value) == record)
    }

    @Test("snapshot session bodies stored by earlier builds read back and re-encode to the same bytes")
    func storedSnapshotBodies() throws {
        for (index, text) in StoredFormatFixtures.snapshotBodies.enumerated() {
            let stored = Array(text.utf8)
            let result = try JSONDecoder().decode(SnapshotResult.self, from: Data(stored))
            #expect(try SnapshotResult(json: JSONParser.parse(stored)) == result, "fixture \(index)")
            #expect(SnapshotResultCodec.encode(result) == stored, "fixture \(index)")
        }
    }

    @Test("snapshot session bodies are SplitCore's Codable JSON; Foundation and SplitWire read them back")
    func snapshotBodies() async {
        await propertyCheck(count: 200, input: WireGenerators.layout) { layout throws in
            let result = SnapshotResult(
                baseRevision: Int(layout.size.width), snapshots: [SizedLayout(size: layout.size, layout: layout)],
                roundTrip: RoundTripReport(lossless: layout.collapsed, differences: layout.columns.flatMap(\.stack)))
            let body = SnapshotResultCodec.encode(result)
            #expect(try JSONParser.parse(body) == JSONParser.parse(Array(JSONEncoder().encode(result))))
            #expect(try JSONDecoder().decode(SnapshotResult.self, from: Data(body)) == result)
            #expect(try SnapshotResult(json: JSONParser.parse(body)) == result)
        }
    }
}
