import Foundation
@testable import SplitServer
@testable import SplitSettings
import SplitStore
import SplitWire
import Testing

/// The daemon's turn, ordering, subscription and failure rules (docs/PROTOCOL.md), against a
/// real loop and socket in this process, with a store the tests can make fail.
@Suite("Server behavior", .serialized)
struct ServerBehaviorTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]

    private func resize(_ width: Int, _ height: Int, scene: String = "s") -> JSONObject {
        ["op": "resize", "scene": .string(scene), "width": .int(Int64(width)), "height": .int(Int64(height))]
    }

    @Test func aFailedCommitAnswersStorageRollsBackAndKeepsServing() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try client.request(create).isOK)
        #expect(try watcher.request(["op": "scene.attach", "scene": "s", "role": "viewer"])["revision"] == 1)

        daemon.store.failure = StoreError(
            kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)
        let refused = try client.request(resize(678, 1024))
        #expect(refused.errorCode == "storage")
        let after = try client.request(["op": "scene.get", "scene": "s"])
        #expect(after["revision"] == 1)
        #expect(after["layout"]?["size"]?["width"] == 1366)
        #expect(try client.request(["op": "ping"]).isOK)

        daemon.store.failure = nil
        let accepted = try client.request(resize(678, 1024))
        #expect(accepted["revision"] == 2)
        // The watcher never saw the refused change: its first push is revision 2.
        let push = try watcher.readMessage()
        #expect(push["event"] == "layout")
        #expect(push["revision"] == 2)
        #expect(push["layout"]?["size"]?["width"] == 678)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let lines = [
            #"{"id":1,"op":"scene.create","scene":"p","device":"ipad-pro-11"}"#,
            #"{"id":2,"op":"scene.get","scene":"p"}"#,
            #"{"id":3,"op":"intent","scene":"p","intent":{"kind":"displayModeButton"}}"#,
            #"not json"#,
            #"{"id":5,"op":"scene.list"}"#,
        ]
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        var ids: [JSONValue] = []
        for _ in lines { ids.append(try client.readMessage()["id"] ?? .null) }
        #expect(ids == [1, 2, 3, .null, 5])
    }

    @Test func attachedClientsSeeTheSameRevisionsAndTheCauserAnswerComesFirst() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let a = try daemon.connect(), b = try daemon.connect()
        #expect(try a.request(create).isOK)
        #expect(try a.request(["op": "scene.attach", "scene": "s", "role": "viewer"])["revision"] == 1)
        #expect(try b.request(["op": "scene.attach", "scene": "s", "role": "viewer"])["revision"] == 1)
        for width in [981, 678, 375, 1366] {
            let response = try a.request(resize(width, 1024))
            #expect(response.isOK)
            // `request` read the response before any push: the push is still to come.
            #expect(a.pushes.count < 4)
        }
        try a.drainPushes()
        try b.drainPushes()
        let revisions = a.pushes.compactMap { $0["revision"]?.int }
        #expect(revisions == [2, 3, 4, 5])
        #expect(b.pushes.compactMap { $0["revision"]?.int } == revisions)
        #expect(a.pushes.map { $0["layout"] } == b.pushes.map { $0["layout"] })
    }

    @Test func smallestPolicyFollowsWindowsAndRecomputesWhenOneLeaves() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let viewer = try daemon.connect()
        var config: JSONObject = create
        config["config"] = ["sizePolicy": "smallest"]
        #expect(try viewer.request(config).isOK)
        #expect(try viewer.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        #expect(try viewer.request(resize(500, 500)).errorCode == "bad_request")

        let big = try daemon.connect(), small = try daemon.connect()
        let first = try big.request([
            "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 1366, "height": 1024],
        ])
        #expect(first["layout"]?["size"]?["width"] == 1366)
        let second = try small.request([
            "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 981, "height": 1100],
        ])
        // Component-wise minimum: 981 wide, 1024 high.
        #expect(second["layout"]?["size"] == ["width": 981, "height": 1024])
        small.close()
        try viewer.drainPushes()
        #expect(viewer.pushes.last?["layout"]?["size"] == ["width": 1366, "height": 1024])
    }

    @Test func theAttachingClientGetsNoPushForTheRevisionInItsResponse() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let window = try daemon.connect()
        #expect(try window.request(create).isOK)
        let attached = try window.request([
            "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 678, "height": 1024],
        ])
        #expect(attached["revision"] == 2)
        try window.drainPushes()
        #expect(window.pushes.isEmpty)
        #expect(try window.request(resize(375, 1024))["revision"] == 3)
        try window.drainPushes()
        #expect(window.pushes.compactMap { $0["revision"]?.int } == [3])
    }

    @Test func anOverlongLineClosesOnlyItsConnection() throws {
        let daemon = try TestDaemon { $0.maxLineLength = 1024 }
        defer { daemon.stop() }
        let bystander = try daemon.connect()
        #expect(try bystander.request(create).isOK)
        let offender = try daemon.connect()
        try offender.send(raw: String(repeating: "x", count: 5000))
        let error = try offender.readMessage()
        #expect(error.errorCode == "frame_too_large")
        #expect(error["id"] == .null)
        #expect(offender.isClosedByPeer())
        #expect(try bystander.request(["op": "scene.get", "scene": "s"])["revision"] == 1)
    }

    @Test func refusedPeersGetUnauthorizedThenClose() throws {
        // An allow-list without our uid (nor root): we are a stranger.
        let daemon = try TestDaemon { $0.allowList = PeerAllowList(uids: [4_000_000_000]) }
        defer { daemon.stop() }
        let stranger = try daemon.connect()
        let message = try stranger.readMessage()
        #expect(message.errorCode == "unauthorized")
        #expect(stranger.isClosedByPeer())
    }

    @Test func clientsBeyondTheLimitGetLimitExceeded() throws {
        let daemon = try TestDaemon { $0.maxClients = 1 }
        defer { daemon.stop() }
        let first = try daemon.connect()
        #expect(try first.request(["op": "ping"]).isOK)
        let second = try daemon.connect()
        #expect(try second.readMessage().errorCode == "limit_exceeded")
        #expect(second.isClosedByPeer())
        #expect(try first.request(["op": "ping"]).isOK)
    }

    /// WIRE: after an attach, "pushes follow from revision+1, none missed", also for a
    /// client that reads late (`output.slowReaderPushes` `queue`, the default).
    /// A writer, and a viewer of scene "s" with a 4 KiB receive buffer that does not read
    /// yet; the revision the viewer attached at.
    private func writerAndStalledViewer(
        _ daemon: TestDaemon
    ) throws -> (writer: TestClient, stalled: TestClient, attachedAt: Int) {
        let writer = try daemon.connect()
        #expect(try writer.request(create).isOK)
        let stalled = try TestClient(path: daemon.socketPath, receiveBuffer: 4096)
        let attached = try stalled.request(["op": "scene.attach", "scene": "s", "role": "viewer"])
        return (writer, stalled, try #require(attached["revision"]?.int))
    }

    /// Also what `queuedOutputBytes` counts: output the stalled viewer has not taken, 0 again
    /// once it has read everything.
    @Test func aStalledSubscriberGetsEveryRevisionOnceItReads() throws {
        let daemon = try TestDaemon { $0.outputSoftLimit = 4096 }
        defer { daemon.stop() }
        let (writer, stalled, first) = try writerAndStalledViewer(daemon)
        var last = 0
        for step in 0..<1500 {
            last = try writer.request(resize(700 + step % 500, 1024 + step % 2))["revision"]?.int ?? -1
        }
        let stats = try writer.request(["op": "stats"])
        #expect(stats["coalescedPushes"] == 0)
        #expect((stats["queuedOutputBytes"]?.int ?? 0) > 0)
        try stalled.drainPushes(quiet: 500)
        let revisions = stalled.pushes.compactMap { $0["revision"]?.int }
        #expect(revisions == Array((first + 1)...last))
        #expect(try writer.request(["op": "stats"])["queuedOutputBytes"] == 0)
    }

    /// A client that falls `output.hardLimitBytes` behind is disconnected: it sees its
    /// connection close, never a gap in what it read.
    @Test func aStalledSubscriberPastTheHardLimitIsDisconnectedNotSkipped() throws {
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 4096
            $0.outputHardLimit = 64 << 10
        }
        defer { daemon.stop() }
        let (writer, stalled, first) = try writerAndStalledViewer(daemon)
        for step in 0..<1500 {
            #expect(try writer.request(resize(700 + step % 500, 1024 + step % 2)).isOK)
        }
        #expect(try writer.request(["op": "stats"])["slowClientsDisconnected"] == 1)
        let lines = try stalled.readUntilClosed()
        let revisions = lines.compactMap { line in (try? JSONParser.parse(line))?["revision"]?.int }
        #expect(
            !revisions.isEmpty && revisions == Array((first + 1)..<(first + 1 + revisions.count)),
            "\(revisions.prefix(5))...")
    }

    /// Past `output.totalLimitBytes` for all clients together, the clients with the most
    /// unread output are disconnected, largest first, however far each is from its own hard
    /// limit; each sees its connection close, never a gap, and the writer is answered.
    @Test func stalledSubscribersPastTheTotalLimitAreDisconnectedLargestFirst() throws {
        let totalLimit = 1 << 20
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 4096
            $0.outputHardLimit = 1 << 30
            $0.outputTotalLimit = totalLimit
        }
        defer { daemon.stop() }
        // The first viewer attaches 300 changes before the other two, so it always holds the
        // most: it must be the first to go.
        let (writer, first, firstAttachedAt) = try writerAndStalledViewer(daemon)
        for step in 0..<300 {
            #expect(try writer.request(resize(700 + step % 500, 1024 + step % 2)).isOK)
        }
        var later: [(client: TestClient, attachedAt: Int)] = []
        for _ in 0..<2 {
            let viewer = try TestClient(path: daemon.socketPath, receiveBuffer: 4096)
            let attached = try viewer.request(["op": "scene.attach", "scene": "s", "role": "viewer"])
            later.append((viewer, try #require(attached["revision"]?.int)))
        }
        var step = 300
        while try writer.request(["op": "stats"])["slowClientsDisconnected"] == 0, step < 5000 {
            #expect(try writer.request(resize(700 + step % 500, 1024 + step % 2)).isOK)
            step += 1
        }
        #expect(try writer.request(["op": "stats"])["slowClientsDisconnected"] == 1)
        let firstRevisions = try first.readUntilClosed().compactMap { line in
            (try? JSONParser.parse(line))?["revision"]?.int
        }
        #expect(first.isClosedByPeer(within: 1000), "the viewer holding the most went first")
        #expect(
            !firstRevisions.isEmpty
                && firstRevisions == Array((firstAttachedAt + 1)..<(firstAttachedAt + 1 + firstRevisions.count)))
        // The others are still attached; going on, they go too (~1.3 MB of pushes each by the
        // end, 1 GiB allowed each: only the total disconnects them).
        for step in step..<(step + 1500) {
            #expect(try writer.request(resize(700 + step % 500, 1024 + step % 2)).isOK)
        }
        let stats = try writer.request(["op": "stats"])
        #expect(stats["slowClientsDisconnected"] == 3)
        #expect(stats["queuedOutputBytes"] == 0)
        for (viewer, attachedAt) in later {
            let revisions = try viewer.readUntilClosed().compactMap { line in
                (try? JSONParser.parse(line))?["revision"]?.int
            }
            #expect(
                !revisions.isEmpty && revisions == Array((attachedAt + 1)..<(attachedAt + 1 + revisions.count)),
                "\(revisions.prefix(5))...")
        }
    }

    /// What a viewer held leaves the count when it hangs up.
    @Test func queuedOutputLeavesTheCountWithAViewerThatHangsUp() throws {
        let daemon = try TestDaemon { $0.outputSoftLimit = 4096 }
        defer { daemon.stop() }
        let writer = try daemon.connect()
        #expect(try writer.request(create).isOK)
        let leaving = try TestClient(path: daemon.socketPath, receiveBuffer: 4096)
        #expect(try leaving.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        for step in 0..<1500 {
            #expect(try writer.request(resize(700 + step % 500, 1024 + step % 2)).isOK)
        }
        #expect((try writer.request(["op": "stats"])["queuedOutputBytes"]?.int ?? 0) > 0)
        leaving.close()
        var queued = -1
        for _ in 0..<250 where queued != 0 {
            usleep(20_000)
            queued = try writer.request(["op": "stats"])["queuedOutputBytes"]?.int ?? -1
        }
        #expect(queued == 0, "what the viewer held left with it")
    }

    @Test func aStalledSubscriberIsCoalescedToTheNewestLayoutWhenAsked() throws {
        let daemon = try TestDaemon {
            $0.outputSoftLimit = 4096
            $0.outputHardLimit = 1 << 30
            $0.coalescesSlowReaderPushes = true
        }
        defer { daemon.stop() }
        let writer = try daemon.connect()
        #expect(try writer.request(create).isOK)
        let stalled = try daemon.connect()
        #expect(try stalled.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        var last = 0
        for step in 0..<1500 {
            last = try writer.request(resize(700 + step % 500, 1024 + step % 2))["revision"]?.int ?? -1
        }
        let stats = try writer.request(["op": "stats"])
        #expect((stats["coalescedPushes"]?.int ?? 0) > 0)
        // Reading now, the stalled client ends at the newest revision, in increasing order.
        try stalled.drainPushes(quiet: 500)
        let revisions = stalled.pushes.compactMap { $0["revision"]?.int }
        #expect(revisions.last == last)
        #expect(zip(revisions, revisions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(revisions.count < 1500)
    }

    @Test func aRestartOnTheSameStoreRestoresEveryScene() throws {
        let store = MemorySceneStore()
        do {
            let daemon = try TestDaemon(store: store)
            let client = try daemon.connect()
            #expect(try client.request(create).isOK)
            #expect(try client.request(resize(678, 1024))["revision"] == 2)
            #expect(try client.request(["op": "intent", "scene": "s", "intent": ["kind": "displayModeButton"]]).isOK)
            daemon.stop()
        }
        let daemon = try TestDaemon(store: store)
        defer { daemon.stop() }
        let client = try daemon.connect()
        let scene = try client.request(["op": "scene.get", "scene": "s"])
        #expect(scene["revision"] == 3)
        #expect(scene["layout"]?["size"]?["width"] == 678)
    }

    @Test func snapshotSessionsAreRecordedAndReadBack() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        let session = try client.request(["op": "snapshot", "scene": "s", "preset": "appSwitcher"])
        let id = try #require(session["session"]?.string)
        #expect(session["baseRevision"] == 1)
        let listed = try client.request(["op": "snapshot.list", "scene": "s"])
        #expect(listed["sessions"]?.array?.map { $0["session"] } == [.string(id)])
        #expect(listed["sessions"]?[0]?["hash"] == session["hash"])
        let fetched = try client.request(["op": "snapshot.get", "session": .string(id)])
        #expect(fetched["snapshots"] == session["snapshots"])
        #expect(fetched["hash"] == session["hash"])
        // The live scene is untouched (SEMANTICS 8.1).
        #expect(try client.request(["op": "scene.get", "scene": "s"])["revision"] == 1)
    }

    @Test func aGracefulStopAnswersEveryRequestAlreadySent() throws {
        let store = MemorySceneStore()
        let daemon = try TestDaemon(store: store)
        let busy = try daemon.connect(), client = try daemon.connect()
        #expect(try busy.request(create).isOK)
        // Hold the loop in a slow commit; meanwhile the stop is requested, then requests
        // arrive: they were sent before the daemon acted on the stop, so they are answered.
        store.commitDelayMicroseconds = 300_000
        try busy.send(raw: #"{"id":99,"op":"resize","scene":"s","width":400,"height":1024}"# + "\n")
        usleep(100_000)
        daemon.requestStop()
        let count = 400
        let lines = (1...count).map { #"{"id":\#($0),"op":"scene.get","scene":"s"}"# }
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        // Read until the daemon closes the connection (it waits for us to read its replies).
        var ids: [Int] = []
        while let line = try client.readLine(timeout: 5000) {
            ids.append(try JSONParser.parse(line)["id"]?.int ?? -1)
        }
        daemon.waitUntilFinished()
        #expect(ids == Array(1...count))
        #expect(try busy.readMessage()["revision"] == 2)
        #expect(try store.loadScenes().first?.revision == 2)
    }

    @Test func deletingASceneTellsAttachedClientsThatAskedForIt() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let owner = try daemon.connect(), viewer = try daemon.connect(), plain = try daemon.connect()
        #expect(try owner.request(create).isOK)
        #expect(
            try viewer.request(["op": "scene.attach", "scene": "s", "role": "viewer", "notices": ["deleted"]]).isOK)
        #expect(try plain.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        #expect(try owner.request(["op": "scene.delete", "scene": "s"]).isOK)
        let notice = try viewer.readMessage()
        #expect(notice["event"] == "deleted")
        #expect(notice["scene"] == "s")
        #expect(notice["revision"] == 1)
        // WIRE.md's pushes are layout pushes only: a client that did not ask gets no notice,
        // and its next line is the answer to its next request.
        #expect(try plain.request(["op": "ping"]).isOK)
        #expect(try plain.request(["op": "scene.detach", "scene": "s"]).errorCode == "unknown_scene")
        #expect(plain.pushes.isEmpty, "\(plain.pushes)")
        #expect(try owner.request(["op": "scene.get", "scene": "s"]).errorCode == "unknown_scene")
    }
}
