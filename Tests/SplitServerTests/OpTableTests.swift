@testable import SplitServer
import SplitWire
import Testing

/// The daemon's op table (`Op.table`): one entry per op of protocol 1, each reached by its
/// wire name, and an op not in it answered as the wire decoder answers it.
@Suite("Op table", .serialized)
struct OpTableTests {
    @Test func everyOpHasOneEntryAtItsIndexInTheWireOrder() {
        #expect(Op.table.count == Op.allCases.count)
        for (index, entry) in Op.table.enumerated() {
            #expect(entry.op.rawValue == index, "entry '\(entry.name)' is not at its op's index")
        }
        #expect(Op.table.map(\.name) == Request.Operation.allNames)
    }

    /// The dispatcher reads each request's route (`Op.routes`), not its entry: every op's route
    /// carries its entry's reply kind.
    @Test func everyOpsRouteIsItsEntrys() {
        #expect(Op.routes.count == Op.table.count)
        for op in Op.allCases {
            #expect(op.route.reply == op.entry.reply, "route of '\(op.entry.name)'")
        }
    }

    /// A valid request of `op` against the scenes `everyOpInTheTableIsReachableOverTheWire`
    /// sets up: "s" (attached to nothing), "gone" (to delete) and snapshot session `session`.
    private func request(of op: Op, session: String) -> JSONObject {
        switch op {
        case .hello: ["op": "hello", "protocol": 1, "client": "op-table-test"]
        case .sceneCreate: ["op": "scene.create", "scene": "new", "device": "ipad-pro-11"]
        case .sceneGet: ["op": "scene.get", "scene": "s"]
        case .sceneList: ["op": "scene.list"]
        case .sceneDelete: ["op": "scene.delete", "scene": "gone"]
        case .sceneAttach:
            ["op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 1024, "height": 768]]
        case .sceneDetach: ["op": "scene.detach", "scene": "s"]
        // Not the fast path's plain form: the entry's own decoder reads it.
        case .resize:
            ["op": "resize", "scene": "s", "width": 678, "height": 1024, "interfaceOrientation": "landscape"]
        case .intent: ["op": "intent", "scene": "s", "intent": ["kind": "displayModeButton"]]
        case .snapshot: ["op": "snapshot", "scene": "s", "preset": "appSwitcher"]
        case .snapshotList: ["op": "snapshot.list", "scene": "s"]
        case .snapshotGet: ["op": "snapshot.get", "session": .string(session)]
        case .stats: ["op": "stats"]
        case .ping: ["op": "ping"]
        case .devices: ["op": "devices"]
        case .explain: ["op": "explain", "scene": "s"]
        case .sweep: ["op": "sweep", "scene": "s", "from": 600, "to": 700]
        case .sceneAt: ["op": "scene.at", "scene": "s", "revision": 1]
        }
    }

    @Test func everyOpInTheTableIsReachableOverTheWire() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]).isOK)
        #expect(try client.request(["op": "scene.create", "scene": "gone", "device": "ipad-pro-11"]).isOK)
        let snapshot = try client.request(["op": "snapshot", "scene": "s", "sizes": [["width": 375, "height": 1024]]])
        let session = try #require(snapshot["session"]?.string)
        for entry in Op.table {
            let response = try client.request(request(of: entry.op, session: session))
            #expect(response.isOK, "\(entry.name): \(response)")
        }
        // Each op did what it says, not merely answered: the scene list shows the create and
        // the delete, and the scene has the resize's size.
        let scenes = try client.request(["op": "scene.list"])["scenes"]?.array?.compactMap { $0["scene"]?.string }
        #expect(scenes == ["new", "s"])
        #expect(try client.request(["op": "scene.get", "scene": "s"])["layout"]?["size"]?["width"] == 678)
    }

    @Test func anUnknownOpIsAnsweredAsTheWireDecoderAnswersIt() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let line = #"{"id":"u1","op":"scene.rename","scene":"s"}"#
        try client.send(raw: line + "\n")
        let response = try client.readMessage()
        var expected: RequestFailure?
        do { _ = try RequestDecoder.decode(line) } catch { expected = error }
        let failure = try #require(expected)
        #expect(response["id"] == "u1")
        #expect(response.errorCode == "unknown_op")
        #expect(response["error"]?["message"]?.string == failure.error.message)
        let listed = "(ops: " + Request.Operation.allNames.joined(separator: ", ") + ")"
        #expect(response["error"]?["message"]?.string?.hasSuffix(listed) == true)
    }
}
