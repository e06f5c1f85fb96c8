import Foundation
import Glibc
import SplitStore
import SplitWire
import Testing
@testable import SplitServer

/// While the store holds commits back (a WAL checkpoint's last pass), the loop keeps
/// working: the turns it cannot commit wait, unanswered, and are committed together, in
/// order, as soon as the store takes commits again; later turns never overtake them.
@Suite("Commits held back by the store", .serialized)
struct HeldBackCommitTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]
    private let diskFull = StoreError(
        kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)

    private func resizeLine(id: Int, width: Int) -> String {
        #"{"id":\#(id),"op":"resize","scene":"s","width":\#(width),"height":1024}"#
    }

    private func stats(_ client: TestClient) throws -> (commits: Int, heldBack: Int) {
        let reply = try client.request(["op": "stats"])
        return (reply["storeCommits"]?.int ?? -1, reply["commitsHeldBack"]?.int ?? -1)
    }

    @Test("held-back turns are answered after one later commit, in order, with a read behind them")
    func heldBackTurnsCommitTogetherInOrder() throws {
        let daemon = try TestDaemon { $0.checkpointSweepMilliseconds = 0 }
        defer { daemon.store.holdsCommitsBack = false }
        let writer = try daemon.connect(), reader = try daemon.connect(), observer = try daemon.connect()
        #expect(try writer.request(create).isOK)
        let before = try stats(observer)
        daemon.store.holdsCommitsBack = true
        // Separate sends, so that the changes land in several turns.
        for (index, width) in [400, 1366, 700].enumerated() {
            try writer.send(raw: resizeLine(id: 10 + index, width: width) + "\n")
            usleep(30_000)
        }
        try reader.send(raw: #"{"id":7,"op":"scene.get","scene":"s"}"# + "\n")
        #expect(try writer.readLine(timeout: 200) == nil, "no change answered before it is committed")
        #expect(try reader.readLine(timeout: 100) == nil, "no read of uncommitted state answered")
        daemon.store.holdsCommitsBack = false
        var revisions: [Int] = []
        for _ in 0..<3 { revisions.append(try writer.readMessage()["revision"]?.int ?? -1) }
        #expect(revisions == [2, 3, 4])
        #expect(try reader.readMessage()["revision"] == 4)
        let after = try stats(observer)
        #expect(after.heldBack > before.heldBack, "the refusals are counted")
        #expect(after.commits == before.commits + 1, "the held-back turns went in one commit")
        daemon.stop()
        // Read after the loop ended: the in-memory store belongs to the loop's thread.
        let journal = try daemon.store.journal(scene: "s", from: 2)
        #expect(journal.map(\.revision) == [2, 3, 4], "stored in the order they were applied")
    }

    @Test("a held-back group whose commit then fails is rolled back as a whole")
    func failedGroupRollsBack() throws {
        let daemon = try TestDaemon { $0.checkpointSweepMilliseconds = 0 }
        defer { daemon.store.holdsCommitsBack = false; daemon.store.failure = nil; daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        daemon.store.holdsCommitsBack = true
        for (index, width) in [400, 1366].enumerated() {
            try client.send(raw: resizeLine(id: 20 + index, width: width) + "\n")
            usleep(30_000)
        }
        #expect(try client.readLine(timeout: 150) == nil)
        daemon.store.failure = diskFull
        daemon.store.holdsCommitsBack = false
        for id in [20, 21] {
            let reply = try client.readMessage()
            #expect(reply["id"]?.int == id)
            #expect(reply.errorCode == "storage")
        }
        daemon.store.failure = nil
        #expect(
            try client.request(["op": "scene.get", "scene": "s"])["revision"] == 1,
            "back to the last committed revision")
        #expect(try client.request(["op": "resize", "scene": "s", "width": 400, "height": 1024])["revision"] == 2)
    }

    @Test("a graceful stop commits and answers held-back turns before it closes the clients")
    func stopWaitsForHeldBackTurns() throws {
        let daemon = try TestDaemon { $0.checkpointSweepMilliseconds = 0 }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        daemon.store.holdsCommitsBack = true
        let lines = (1...4).map { resizeLine(id: 300 + $0, width: $0 % 2 == 0 ? 1366 : 400) }
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        usleep(50_000)
        daemon.requestStop()
        #expect(try client.readLine(timeout: 150) == nil)
        daemon.store.holdsCommitsBack = false
        var ids: [Int] = []
        while let line = try client.readLine(timeout: 5000) {
            let reply = try JSONParser.parse(line)
            #expect(reply.isOK)
            ids.append(reply["id"]?.int ?? -1)
        }
        daemon.waitUntilFinished()
        #expect(ids == Array(301...304))
    }
}
