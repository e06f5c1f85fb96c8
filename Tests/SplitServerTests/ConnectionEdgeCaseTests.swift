import Foundation
import Glibc
import SplitStore
import SplitWire
import Testing
@testable import SplitServer

/// Edges of serving clients: half-closed clients, read backpressure, size policy changes,
/// reads in a rolled-back turn, id limits.
@Suite("Connection edge cases", .serialized)
struct ConnectionEdgeCaseTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]

    // WIRE: exactly one response per request, even when the client half-closes right after
    // pipelining more answers than the socket buffer holds.
    @Test func aHalfClosedClientGetsEveryAnswerThenEOF() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        // More than a turn's share of lines, and more answers than the socket buffer holds.
        let count = 3000
        client.sendInBackground(
            raw: (1...count).map { #"{"id":\#($0),"op":"scene.get","scene":"s"}"# + "\n" }.joined(),
            thenShutdown: true)
        let lines = try client.readUntilClosed()
        let ids = try lines.map { try JSONParser.parse($0)["id"]?.int ?? -1 }
        #expect(ids == Array(1...count))
        #expect(try lines.allSatisfy { try JSONParser.parse($0)["revision"] == 1 })
    }

    // A graceful stop answers every request already sent, those held back by backpressure too.
    @Test func aStopAnswersInputHeldBackByBackpressure() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        let count = 3000
        try client.send(raw: (1...count).map { #"{"id":\#($0),"op":"scene.get","scene":"s"}"# + "\n" }.joined())
        #expect(try client.readMessage()["id"] == 1)
        daemon.requestStop()
        let ids = try client.readUntilClosed().map { try JSONParser.parse($0)["id"]?.int ?? -1 }
        daemon.waitUntilFinished()
        #expect(ids == Array(2...count))
    }

    @Test func aHalfClosedClientWithNothingPendingIsClosed() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(["op": "ping"]).isOK)
        client.shutdownWriting()
        #expect(client.isClosedByPeer())
        // The daemon keeps serving others.
        #expect(try daemon.connect().request(["op": "ping"]).isOK)
    }

    // A client that pipelines tiny lines faster than it reads is throttled, not dropped:
    // the hard limit (far below the flood's total output) never trips on its own answers.
    @Test func aFloodWithASlowReaderGetsEveryAnswer() throws {
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 32 * 1024
            $0.outputHardLimit = 256 * 1024
        }
        defer { daemon.stop() }
        let flooder = try daemon.connect()
        let bystander = try daemon.connect()
        #expect(try bystander.request(create).isOK)
        let count = 60_000
        let payload = (1...count).map { #"{"id":\#($0),"op":"ping"}"# + "\n" }.joined()
        flooder.sendInBackground(raw: payload)
        var received = 0
        var inOrder = true
        while received < count {
            guard let line = try flooder.readLine(timeout: 5000) else { break }
            received += 1
            if try JSONParser.parse(line)["id"]?.int != received { inOrder = false }
            // Read slowly, so output piles up in the daemon while it reads.
            if received % 2000 == 0 {
                usleep(2_000)
                // Others are served meanwhile.
                #expect(try bystander.request(["op": "ping"]).isOK)
            }
        }
        #expect(received == count)
        #expect(inOrder)
        let stats = try bystander.request(["op": "stats"])
        #expect(stats["slowClientsDisconnected"] == 0)
    }

    // A client that never reads its own answers is throttled (its input waits in the kernel),
    // not dropped at the hard limit, and gets every answer once it reads.
    @Test func aClientThatStopsReadingIsThrottledThenAnsweredInFull() throws {
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 4096
            $0.outputHardLimit = 64 * 1024
        }
        defer { daemon.stop() }
        let writer = try daemon.connect()
        #expect(try writer.request(create).isOK)
        let stalled = try daemon.connect()
        let count = 2000
        try stalled.send(raw: (1...count).map { #"{"id":\#($0),"op":"scene.get","scene":"s"}"# + "\n" }.joined())
        // The writer is served meanwhile; its changes come after some of the reads.
        for step in 0..<50 {
            #expect(
                try writer.request(["op": "resize", "scene": "s", "width": .int(Int64(700 + step)), "height": 1024])
                    .isOK)
        }
        let stats = try writer.request(["op": "stats"])
        #expect(stats["slowClientsDisconnected"] == 0)
        var ids: [Int] = []
        while ids.count < count, let line = try stalled.readLine(timeout: 5000) {
            ids.append(try JSONParser.parse(line)["id"]?.int ?? -1)
        }
        #expect(ids == Array(1...count))
    }

    // A read in a turn whose commit failed changed nothing: its error must not say a change
    // was refused, and it must not show the rolled-back change.
    @Test func aListInARolledBackTurnIsARefusedReadNotARefusedChange() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        daemon.store.failure = StoreError(
            kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)
        try client.send(
            raw: #"{"id":"c","op":"scene.create","scene":"t","device":"ipad-pro-11"}"# + "\n"
                + #"{"id":"l","op":"scene.list"}"# + "\n")
        let change = try client.readMessage()
        #expect(change["id"] == "c")
        #expect(change.errorCode == "storage")
        let list = try client.readMessage()
        #expect(list["id"] == "l")
        #expect(list.errorCode == "storage")
        let message = list["error"]?["message"]?.string ?? ""
        #expect(!message.contains("not applied") && message.contains("scene list"), "\(message)")
        // A list in a turn without changes reads committed state and is answered as usual.
        let plain = try client.request(["op": "scene.list"])
        #expect(plain["scenes"]?.array?.count == 1)
        daemon.store.failure = nil
    }

    // SEMANTICS 9: under largest/smallest the size is the aggregate of the attached windows,
    // from the moment the policy is set (not from the next window event).
    @Test func settingASizePolicyResizesToTheWindowsAtOnce() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let a = try daemon.connect(), b = try daemon.connect(), c = try daemon.connect()
        var manual: JSONObject = create
        manual["config"] = ["sizePolicy": "manual"]
        #expect(try a.request(manual).isOK)
        #expect(
            try a.request([
                "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 1200, "height": 800],
            ]).isOK)
        #expect(
            try b.request([
                "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 1000, "height": 900],
            ]).isOK)
        let resized = try c.request(["op": "resize", "scene": "s", "width": 900, "height": 700])
        #expect(resized["layout"]?["size"] == ["width": 900, "height": 700])
        let before = resized["revision"]?.int ?? 0

        try a.drainPushes()
        let pushesBefore = a.pushes.count
        let set = try c.request([
            "op": "intent", "scene": "s", "intent": ["kind": "setConfig", "config": ["sizePolicy": "smallest"]],
        ])
        #expect(set.isOK)
        // One accepted change, one revision (SEMANTICS 1): the answer itself has the new
        // size and its transition (the request made two revisions, the answer the older one).
        #expect(set["revision"]?.int == before + 1)
        #expect(set["layout"]?["size"] == ["width": 1000, "height": 800])
        #expect(set["events"]?.array?.contains { $0["type"] == "viewWillTransition" } == true)
        let now = try c.request(["op": "scene.get", "scene": "s"])
        #expect(now["layout"]?["size"] == ["width": 1000, "height": 800])
        #expect(now["revision"]?.int == before + 1)
        // Attached windows are told the new size, in one push.
        try a.drainPushes()
        #expect(a.pushes.count == pushesBefore + 1)
        #expect(a.pushes.last?["layout"]?["size"] == ["width": 1000, "height": 800])
        #expect(a.pushes.last?["revision"] == now["revision"])

        _ = try c.request([
            "op": "intent", "scene": "s", "intent": ["kind": "setConfig", "config": ["sizePolicy": "largest"]],
        ])
        #expect(try c.request(["op": "scene.get", "scene": "s"])["layout"]?["size"] == ["width": 1200, "height": 900])
        // A window that re-attaches as a viewer stops counting.
        #expect(try a.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        #expect(try c.request(["op": "scene.get", "scene": "s"])["layout"]?["size"] == ["width": 1000, "height": 900])
    }

    // One rule for scene and view-controller ids: impossible ids (over 128 characters, a
    // scene id outside [A-Za-z0-9._:-]) are bad_request; valid ids over the configured
    // limits.maxIdLength are limit_exceeded.
    @Test func idsOverTheConfiguredLimitAreLimitExceededAndImpossibleIdsBadRequest() throws {
        let daemon = try TestDaemon { $0.coreLimits.maxIdLength = 8 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        func createCode(_ scene: String, config: JSONObject? = nil) throws -> String? {
            var request: JSONObject = ["op": "scene.create", "scene": .string(scene), "device": "ipad-pro-12.9"]
            if let config { request["config"] = .object(config) }
            return try client.request(request).errorCode
        }
        #expect(try createCode(String(repeating: "s", count: 9)) == "limit_exceeded")
        #expect(try createCode(String(repeating: "s", count: 129)) == "bad_request")
        #expect(try createCode("bad/id") == "bad_request")
        #expect(
            try createCode("s", config: ["roots": ["secondary": .string(String(repeating: "r", count: 9))]])
                == "limit_exceeded")
        #expect(
            try createCode("s", config: ["roots": ["secondary": .string(String(repeating: "r", count: 129))]])
                == "bad_request")
        #expect(try createCode("s") == nil)

        func pushCode(_ vc: String) throws -> String? {
            try client.request([
                "op": "intent", "scene": "s", "intent": ["kind": "push", "column": "secondary", "vc": .string(vc)],
            ]).errorCode
        }
        #expect(try pushCode(String(repeating: "v", count: 9)) == "limit_exceeded")
        #expect(try pushCode(String(repeating: "v", count: 129)) == "bad_request")
        #expect(try pushCode(String(repeating: "v", count: 8)) == nil)
        let present = try client.request([
            "op": "intent", "scene": "s",
            "intent": ["kind": "present", "vc": .string(String(repeating: "p", count: 9)), "style": "formSheet"],
        ])
        #expect(present.errorCode == "limit_exceeded")
        let setConfig = try client.request([
            "op": "intent", "scene": "s",
            "intent": ["kind": "setConfig", "config": ["placeholder": .string(String(repeating: "h", count: 9))]],
        ])
        #expect(setConfig.errorCode == "limit_exceeded")
        // Nothing refused changed the scene: created at 1, one push accepted.
        #expect(try client.request(["op": "scene.get", "scene": "s"])["revision"] == 2)
    }
}
