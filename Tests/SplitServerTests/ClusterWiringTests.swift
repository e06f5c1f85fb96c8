import Foundation
import Glibc
import SplitStore
import SplitWire
import Testing
@testable import SplitServer

/// A `ClusterMember` scripted by the test, over the daemon's memory store: which scenes this
/// node owns, who owns the others, and how a commit ends per scene. What the loop makes of
/// each answer is the daemon's own code.
final class ScriptedCluster: ClusterMember, @unchecked Sendable {
    // @unchecked: the test thread scripts it between requests; the loop reads it while
    // handling them, never at the same time (each request waits for its answer).
    let store: MemorySceneStore
    let node: String
    let endpoints = ["http://127.0.0.1:2379"]
    var owned: Set<String> = []
    var otherOwners: [String: String] = [:]
    /// The next commit's outcome for these scenes (then cleared); others commit.
    var failNext: [String: SceneFailure] = [:]
    var fenceNext: Set<String> = []
    var reachable = true
    /// Whether `forward` sends (else etcd "did not take" it), what was sent, what a
    /// withdrawal finds, the answers etcd holds, and the answers commits carried.
    var forwarding = false
    var forwardedLines: [(scene: String, request: String, line: [UInt8])] = []
    var withdrawals: [String: Bool] = [:]
    var storedAnswers: [String: [UInt8]] = [:]
    var committedAnswers: [(scene: String, request: String, reply: [UInt8])] = []
    private var forwardCounter = 0
    private var deliver: (@Sendable ([ClusterEvent]) -> Void)?

    init(store: MemorySceneStore, node: String = "node-a") {
        self.store = store
        self.node = node
    }

    var ownedScenes: Int { owned.count }

    func claim(_ scene: String, take: Bool) -> ClusterClaim {
        guard reachable else { return .unreachable("etcd down (scripted)") }
        if owned.contains(scene) { return .owned }
        if let other = otherOwners[scene] { return .ownedElsewhere(node: other, record(scene)) }
        if take {
            owned.insert(scene)
            return .acquired(record(scene))
        }
        return .ownedElsewhere(node: nil, record(scene))
    }

    private func record(_ scene: String) -> ClusterSceneRecord {
        let stored = (try? store.loadScenes())?.first { $0.id == scene }
        let journal = ((try? store.journalTails()) ?? []).filter { $0.scene == scene }
        return ClusterSceneRecord(checkpoint: stored, journal: journal)
    }

    func owners() -> [String: String]? {
        var out = otherOwners
        for scene in owned { out[scene] = node }
        return out
    }

    func owner(of scene: String) -> String? { owned.contains(scene) ? node : otherOwners[scene] }

    func commitTurn(_ batch: StoreBatch) -> ClusterCommitReport {
        var report = ClusterCommitReport()
        var kept = StoreBatch()
        for operation in batch.operations {
            let scene: String? =
                switch operation {
                case .upsertScene(let id, _, _, _), .deleteScene(let id): id
                case .appendJournal(let scene, _, _, _): scene
                case .insertSnapshotSession(let session): session.scene
                case .answerForwarded(let scene, _, _): scene
                case .setMeta: nil
                }
            switch scene.flatMap({ failNext[$0] }) {
            case .unavailable(let why)?: report.notApplied[scene!] = why
            case .indeterminate?: report.indeterminate.insert(scene!)
            case nil:
                switch operation {
                case .upsertScene(let id, let device, let revision, let state):
                    kept.upsertScene(id: id, device: device, revision: revision, state: state)
                case .deleteScene(let id): kept.deleteScene(id: id)
                case .appendJournal(let scene, let revision, let change, let layoutHash):
                    kept.appendJournal(
                        scene: scene, revision: revision, change: Array(batch.change(of: change)),
                        layoutHash: layoutHash)
                case .insertSnapshotSession(let session): kept.insertSnapshotSession(session)
                case .setMeta(let key, let value): kept.setMeta(key: key, value: value)
                case .answerForwarded(let scene, let request, let reply):
                    committedAnswers.append((scene, request, reply))
                }
            }
        }
        report.fenced = fenceNext
        for scene in fenceNext { owned.remove(scene) }
        failNext = [:]
        fenceNext = []
        try? store.commit(kept)
        return report
    }

    func leaderReachable() -> Bool { reachable }
    func holds(_ scene: String) -> Bool { owned.contains(scene) }
    func startWatching(_ deliver: @escaping @Sendable ([ClusterEvent]) -> Void) { self.deliver = deliver }
    func stopWatching() { deliver = nil }
    /// Times the watch "was opened again", as `stats.cluster.watchReopened` reports it.
    var reopenedWatches = 0
    var watchStatus: (open: Bool, reopened: Int) { (deliver != nil, reopenedWatches) }

    func forward(_ requests: [(line: [UInt8], scene: String)]) -> [String]? {
        guard reachable, forwarding else { return nil }
        return requests.map { request in
            forwardCounter += 1
            let id = "\(node)/1-\(forwardCounter)"
            forwardedLines.append((request.scene, id, request.line))
            return id
        }
    }

    func withdraw(_ request: String, scene: String) -> Bool? { withdrawals[request] ?? true }
    func answer(to request: String) -> [UInt8]? { storedAnswers[request] }
    func discardAnswers(_ requests: [String]) {}
    func ownedSince(_ scene: String) -> Int64? { owned.contains(scene) ? 1 : nil }
    var released: [String] = []
    func release(_ scene: String) {
        owned.remove(scene)
        released.append(scene)
    }

    /// Delivers events as the watch would (from another thread).
    func send(_ events: [ClusterEvent]) { deliver?(events) }
}

@Suite("Cluster wiring without etcd", .serialized)
struct ClusterWiringTests {
    private func create(_ scene: String) -> JSONObject {
        ["op": "scene.create", "scene": .string(scene), "device": "mac", "size": ["width": 800, "height": 600]]
    }

    private func resize(_ scene: String, _ width: Int) -> JSONObject {
        ["op": "resize", "scene": .string(scene), "width": .int(Int64(width)), "height": 600]
    }

    @Test func aChangeNotAppliedInEtcdIsUnavailableAndRolledBack() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create("s"))["revision"] == 1)
        #expect(try client.request(resize("s", 900))["revision"] == 2)
        cluster.failNext = ["s": .unavailable("etcd refused (scripted)")]
        let refused = try client.request(resize("s", 1000))
        #expect(refused.errorCode == "unavailable")
        // Rolled back exactly as a refused SQLite commit: the next change is revision 3,
        // from the width that was stored.
        let detail = try client.request(["op": "scene.get", "scene": "s"])
        #expect(detail["revision"] == 2)
        #expect(detail["layout"]?["size"]?["width"] == 900)
        #expect(try client.request(resize("s", 1000))["revision"] == 3)
        #expect(try store.journal(scene: "s", from: 0).map(\.revision) == [1, 2, 3])
    }

    @Test func onlyTheFailedSceneOfATurnIsRolledBack() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create("a")).isOK)
        #expect(try client.request(create("b")).isOK)
        cluster.failNext = ["b": .unavailable("scripted")]
        // Both in one turn: pipelined on one connection.
        try client.send(
            raw: #"{"id":10,"op":"resize","scene":"a","width":900,"height":600}"# + "\n"
                + #"{"id":11,"op":"resize","scene":"b","width":900,"height":600}"# + "\n")
        let first = try client.response(id: 10), second = try client.response(id: 11)
        if first["revision"] == 2 {
            #expect(second.errorCode == "unavailable")
        } else {
            // The two requests were read in two turns: the scripted failure hit b's alone.
            #expect(first["revision"] == 2 || second.errorCode == "unavailable")
        }
        #expect(try client.request(["op": "scene.get", "scene": "a"])["revision"] == 2)
        #expect(try client.request(["op": "scene.get", "scene": "b"])["revision"] == 1)
    }

    @Test func anIndeterminateChangeIsNeitherAcknowledgedNorFailed() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create("s")).isOK)
        cluster.failNext = ["s": .indeterminate]
        try client.send(raw: #"{"id":5,"op":"resize","scene":"s","width":1000,"height":600}"# + "\n")
        // No answer at all: the connection closes.
        #expect(client.isClosedByPeer())
        let other = try daemon.connect()
        #expect(try other.request(["op": "ping"]).isOK)
    }

    @Test func aSceneOwnedByAnotherNodeRefusesChangesAndShowsItsOwner() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create("s")).isOK)
        #expect(try client.request(["op": "scene.get", "scene": "s"])["owner"] == "node-a")
        cluster.owned.remove("s")
        cluster.otherOwners["s"] = "node-b"
        #expect(try client.request(resize("s", 1000)).errorCode == "unavailable")
        let detail = try client.request(["op": "scene.get", "scene": "s"])
        #expect(detail["owner"] == "node-b")
        #expect(detail["revision"] == 1)
        let list = try client.request(["op": "scene.list"])
        #expect(list["scenes"]?[0]?["owner"] == "node-b")
        cluster.reachable = false
        #expect(try client.request(resize("s", 1000)).errorCode == "unavailable")
    }

    @Test func aRefusedCreationGivesTheSceneUpAgain() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        let refused = try client.request(["op": "scene.create", "scene": "x", "device": "no-such-device"])
        #expect(refused.errorCode == "unknown_device")
        #expect(cluster.released == ["x"])
        #expect(cluster.ownedScenes == 0)
        // A creation that succeeds keeps its scene.
        #expect(try client.request(create("y")).isOK)
        #expect(cluster.released == ["x"])
        #expect(cluster.holds("y"))
    }

    @Test func statsReportTheCluster() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create("s")).isOK)
        cluster.reopenedWatches = 2
        let stats = try client.request(["op": "stats"])
        #expect(stats["cluster"]?["watching"] == true)
        #expect(stats["cluster"]?["watchReopened"] == 2)
        #expect(stats["cluster"]?["node"] == "node-a")
        #expect(stats["cluster"]?["ownedScenes"] == 1)
        #expect(stats["cluster"]?["leaderReachable"] == true)
        #expect(stats["cluster"]?["endpoints"] == ["http://127.0.0.1:2379"])
        let hello = try client.request(["op": "hello", "protocol": 1])
        #expect(hello["features"] == ["revision2", "explain", "sweep", "cluster"])
    }

    @Test func aSingleHostDaemonReportsNoOwnerAndNoCluster() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create("s")).isOK)
        #expect(try client.request(["op": "scene.get", "scene": "s"])["owner"] == nil)
        #expect(try client.request(["op": "stats"])["cluster"] == nil)
        #expect(
            try client.request(["op": "hello", "protocol": 1])["features"] == [
                "revision2", "explain", "sweep", "scene.at",
            ])
    }

    /// Two daemons over one store, as two nodes over one etcd: a change acknowledged on A
    /// reaches B's viewer through the watch with A's revision and layout; a gap reads the
    /// scene again; when A's ownership is gone, B takes the scene and continues at the next
    /// revision.
    /// `stats.cluster` once `until` holds: watch events reach the loop through its mailbox,
    /// not the client's socket, so a request may overtake them. At most 1000 requests.
    private func clusterStats(of client: TestClient, until: (JSONValue) -> Bool) throws -> JSONValue {
        var last: JSONValue = .null
        for _ in 0..<1000 {
            last = try client.request(["op": "stats"])["cluster"] ?? .null
            if until(last) { break }
        }
        return last
    }

    @Test func anotherNodesChangeIsFollowedAndItsSceneTakenOver() throws {
        let store = MemorySceneStore()
        let clusterA = ScriptedCluster(store: store, node: "node-a")
        let clusterB = ScriptedCluster(store: store, node: "node-b")
        let nodeA = try TestDaemon(store: store, cluster: clusterA)
        defer { nodeA.stop() }
        let nodeB = try TestDaemon(store: store, cluster: clusterB)
        defer { nodeB.stop() }
        let writer = try nodeA.connect(), viewer = try nodeB.connect()
        #expect(try writer.request(create("s"))["revision"] == 1)
        clusterB.otherOwners["s"] = "node-a"
        let attached = try viewer.request(["op": "scene.attach", "scene": "s", "role": "viewer"])
        #expect(attached["revision"] == 1)
        let change = try writer.request(resize("s", 900))
        #expect(change["revision"] == 2)
        let entries = try store.journal(scene: "s", from: 2)
        clusterB.send(entries.map { .journal($0) })
        let push = try viewer.readMessage()
        #expect(push["revision"] == 2)
        #expect(push["layout"] == change["layout"])
        // B refuses changes to A's scene.
        #expect(try viewer.request(resize("s", 1000)).errorCode == "unavailable")
        // A gap (revision 4 after 2) reads the scene again instead of guessing.
        clusterB.send([.journal(JournalEntry(scene: "s", revision: 4, change: [], layoutHash: nil, at: 0))])
        var stats = try clusterStats(of: viewer) { $0["resyncs"] == 1 }
        #expect(stats["changesFollowed"] == 1)
        #expect(stats["resyncs"] == 1)
        // A is gone: B, with a client of the scene, takes it over and goes on at revision 3.
        clusterA.owned.remove("s")
        clusterB.otherOwners["s"] = nil
        clusterB.send([.ownerGone("s")])
        stats = try clusterStats(of: viewer) { $0["takeovers"] == 1 }
        #expect(stats["takeovers"] == 1)
        #expect(try viewer.request(["op": "scene.get", "scene": "s"])["owner"] == "node-b")
        #expect(try viewer.request(resize("s", 1000))["revision"] == 3)
        #expect(try store.journal(scene: "s", from: 0).map(\.revision) == [1, 2, 3])
    }

    /// Polls `condition` (set by the loop thread) for up to 5 s.
    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Two daemons over one store, node B forwarding to node A.
    private func forwardingNodes() throws -> (
        MemorySceneStore, ScriptedCluster, ScriptedCluster, TestDaemon, TestDaemon
    ) {
        let store = MemorySceneStore()
        let clusterA = ScriptedCluster(store: store, node: "node-a")
        let clusterB = ScriptedCluster(store: store, node: "node-b")
        clusterB.forwarding = true
        return (
            store, clusterA, clusterB, try TestDaemon(store: store, cluster: clusterA),
            try TestDaemon(store: store, cluster: clusterB)
        )
    }

    @Test func aChangeToASceneOwnedElsewhereIsForwardedAndAppliedOnce() throws {
        let (store, clusterA, clusterB, nodeA, nodeB) = try forwardingNodes()
        defer {
            nodeA.stop()
            nodeB.stop()
        }
        let writerA = try nodeA.connect()
        #expect(try writerA.request(create("s"))["revision"] == 1)
        clusterB.otherOwners["s"] = "node-a"
        clusterB.forwarding = true
        let requester = try nodeB.connect(), viewer = try nodeB.connect()
        #expect(try requester.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        #expect(try viewer.request(["op": "scene.attach", "scene": "s", "role": "viewer"]).isOK)
        try requester.send(
            raw: #"{"id":"r1","op":"resize","scene":"s","width":900,"height":600}"# + "\n"
                + #"{"id":"r2","op":"ping"}"# + "\n")
        #expect(eventually { clusterB.forwardedLines.count == 1 })
        let sent = try #require(clusterB.forwardedLines.first)
        #expect(sent.scene == "s")
        #expect(String(decoding: sent.line, as: UTF8.self).contains(#""id":"r1""#))
        // Parked: not even the ping behind it is answered before the owner's answer.
        #expect(try requester.readLine(timeout: 300) == nil)
        // The owner runs it once, although it reaches it twice (the watch, and the record it
        // read when it took the scene).
        let forwarded = ForwardedRequest(request: sent.request, line: sent.line)
        clusterA.send([.forwarded(scene: "s", forwarded, at: 2), .forwarded(scene: "s", forwarded, at: 3)])
        #expect(eventually { clusterA.committedAnswers.count == 1 })
        #expect(try writerA.request(["op": "ping"]).isOK)
        #expect(clusterA.committedAnswers.count == 1)
        #expect(try store.journal(scene: "s", from: 0).map(\.revision) == [1, 2])
        let answer = try #require(clusterA.committedAnswers.first)
        #expect(answer.scene == "s")
        #expect(answer.request == sent.request)
        // The sender: the scene's record, then the answer, as one watch response brings them.
        let entries = try store.journal(scene: "s", from: 2)
        clusterB.send(entries.map { .journal($0) } + [.answered(request: sent.request, reply: answer.reply)])
        // The requester gets the answer with its own id, then the push of its change (it is
        // attached), as from a change made on its own node.
        let reply = try requester.readMessage()
        #expect(reply["id"] == "r1")
        #expect(reply["revision"] == 2)
        #expect(reply["layout"]?["size"]?["width"] == 900)
        let ownPush = try requester.readMessage()
        #expect(ownPush["event"] == "layout")
        #expect(ownPush["revision"] == 2)
        #expect(try requester.response(id: "r2").isOK)
        let push = try viewer.readMessage()
        #expect(push["revision"] == 2)
        #expect(push["layout"] == reply["layout"])
        let stats = try viewer.request(["op": "stats"])["cluster"]
        #expect(stats?["forwarded"] == 1)
        #expect(try writerA.request(["op": "stats"])["cluster"]?["forwardsRun"] == 1)
    }

    @Test func aRefusedForwardedRequestIsAnsweredWithTheOwnersError() throws {
        let (store, clusterA, clusterB, nodeA, nodeB) = try forwardingNodes()
        defer {
            nodeA.stop()
            nodeB.stop()
        }
        let writerA = try nodeA.connect()
        #expect(try writerA.request(create("s")).isOK)
        clusterB.otherOwners["s"] = "node-a"
        clusterB.forwarding = true
        let requester = try nodeB.connect()
        try requester.send(
            raw: #"{"id":7,"op":"intent","scene":"s","intent":{"kind":"pop","column":"secondary"}}"# + "\n")
        #expect(eventually { clusterB.forwardedLines.count == 1 })
        let sent = try #require(clusterB.forwardedLines.first)
        clusterA.send([.forwarded(scene: "s", ForwardedRequest(request: sent.request, line: sent.line), at: 2)])
        #expect(eventually { clusterA.committedAnswers.count == 1 })
        let answer = try #require(clusterA.committedAnswers.first)
        clusterB.send([.answered(request: sent.request, reply: answer.reply)])
        let reply = try requester.readMessage()
        #expect(reply["id"] == 7)
        #expect(reply.errorCode == "invalid_intent")
        #expect(try store.journal(scene: "s", from: 0).map(\.revision) == [1])
    }

    @Test func aForwardedRequestNobodyAnswersIsWithdrawnOrReadBack() throws {
        let store = MemorySceneStore()
        let clusterB = ScriptedCluster(store: store, node: "node-b")
        let nodeB = try TestDaemon(store: store, cluster: clusterB)
        defer { nodeB.stop() }
        let setup = try nodeB.connect()
        #expect(try setup.request(create("s")).isOK)
        clusterB.owned.remove("s")
        clusterB.otherOwners["s"] = "node-a"
        clusterB.forwarding = true
        let first = try nodeB.connect(), second = try nodeB.connect()
        try first.send(raw: #"{"id":1,"op":"resize","scene":"s","width":900,"height":600}"# + "\n")
        #expect(eventually { clusterB.forwardedLines.count == 1 })
        // The second one the owner consumed: its answer is in etcd, the watch lost it.
        try second.send(raw: #"{"id":2,"op":"resize","scene":"s","width":1000,"height":600}"# + "\n")
        #expect(eventually { clusterB.forwardedLines.count == 2 })
        let consumed = clusterB.forwardedLines[1].request
        clusterB.withdrawals[consumed] = false
        clusterB.storedAnswers[consumed] = Array(#"{"id":2,"ok":true,"revision":2}"#.utf8)
        // Not consumed: taken back after the patience, never applied.
        let withdrawn = try first.readMessage(timeout: 8000)
        #expect(withdrawn["id"] == 1)
        #expect(withdrawn.errorCode == "unavailable")
        let readBack = try second.readMessage(timeout: 8000)
        #expect(readBack["id"] == 2)
        #expect(readBack["revision"] == 2)
        #expect(try first.request(["op": "stats"])["cluster"]?["forwardsWithdrawn"] == 1)
    }
}
