import EtcdAPI
import SplitStore
import XCTest
@testable import SplitCluster

final class TxnPlannerTests: XCTestCase {
    let keys = ClusterKeys(prefix: "/t/")

    func claim(_ token: Int64) -> SceneClaim {
        SceneClaim(token: token, headModRevision: 0, head: nil)
    }

    func drain(_ batch: StoreBatch, claims: [String: SceneClaim], maxOps: Int = 128) -> [PlannedTxn] {
        var (order, queues, meta) = TxnPlanner.segments(of: batch, maxOps: maxOps)
        var plans: [PlannedTxn] = []
        while let plan = TxnPlanner.next(
            order: order, queues: queues, claims: claims, meta: meta, keys: keys, now: 1, maxOps: maxOps)
        {
            plans.append(plan)
            for scene in plan.scenes { queues[scene]!.removeFirst() }
            meta = []
        }
        return plans
    }

    func testEveryTransactionStaysWithinEtcdsOperationLimit() {
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "d", revision: 1, state: [1])
        for revision in 2...400 {
            batch.appendJournal(scene: "a", revision: Int64(revision), change: [UInt8(revision % 250)])
        }
        for scene in 0..<100 { batch.upsertScene(id: "s\(scene)", device: "d", revision: 1, state: [2]) }
        var claims = ["a": claim(5)]
        for scene in 0..<100 { claims["s\(scene)"] = claim(6) }
        let plans = drain(batch, claims: claims)
        XCTAssertGreaterThan(plans.count, 3)
        for plan in plans {
            XCTAssertLessThanOrEqual(plan.request.success.count, 128)
            XCTAssertLessThanOrEqual(plan.request.compare.count, 128)
            XCTAssertEqual(plan.request.compare.count, 2 * plan.scenes.count)
        }
        // Every journal revision is written exactly once, in order.
        let written = plans.flatMap { $0.request.success }.compactMap { op -> Int64? in
            guard case let .requestPut(put)? = op.request, let entry = keys.journalEntry(ofKey: Array(put.key)),
                entry.scene == "a"
            else { return nil }
            return entry.revision
        }
        XCTAssertEqual(written, Array(2...400).map(Int64.init))
    }

    func testComparesAreTheFencingTokenAndTheHeadsModRevision() {
        var batch = StoreBatch()
        batch.appendJournal(scene: "m", revision: 8, change: [1])
        let head = SceneHead(revision: 7, device: "d", checkpointRevision: 7, createdAt: 1, updatedAt: 1, writer: 42)
        let plans = drain(batch, claims: ["m": SceneClaim(token: 42, headModRevision: 99, head: head)])
        XCTAssertEqual(plans.count, 1)
        let compares = plans[0].request.compare
        XCTAssertEqual(Array(compares[0].key), keys.owner("m"))
        XCTAssertEqual(compares[0].target, .create)
        XCTAssertEqual(compares[0].createRevision, 42)
        XCTAssertEqual(Array(compares[1].key), keys.head("m"))
        XCTAssertEqual(compares[1].target, .mod)
        XCTAssertEqual(compares[1].modRevision, 99)
        XCTAssertEqual(plans[0].intended["m"]??.revision, 8)
        XCTAssertEqual(plans[0].intended["m"]??.writer, 42)
        XCTAssertEqual(plans[0].request.failure.count, 2)
    }

    func testACheckpointKeepsItsTransactionsEntriesBeforeItAndDeletesTheOlderOnes() {
        var batch = StoreBatch()
        batch.appendJournal(scene: "c", revision: 4, change: [4])
        batch.appendJournal(scene: "c", revision: 5, change: [5])
        batch.upsertScene(id: "c", device: "d", revision: 5, state: [9])
        batch.appendJournal(scene: "c", revision: 6, change: [6])
        let plans = drain(batch, claims: ["c": claim(3)])
        XCTAssertEqual(plans.count, 1)
        var puts: [[UInt8]] = []
        var deletes: [(key: [UInt8], end: [UInt8])] = []
        for op in plans[0].request.success {
            switch op.request {
            case let .requestPut(put)?: puts.append(Array(put.key))
            case let .requestDeleteRange(d)?: deletes.append((Array(d.key), Array(d.rangeEnd)))
            default: break
            }
        }
        XCTAssertEqual(deletes.count, 1)
        XCTAssertEqual(deletes[0].key, keys.journalPrefix("c"))
        // Below the transaction's first entry: those of earlier transactions.
        XCTAssertEqual(deletes[0].end, keys.journal("c", 4))
        // Every revision has its entry, before the checkpoint: a follower applies 4, 5, 6 in
        // order and then finds the checkpoint at 5 already applied.
        let journalPuts = puts.filter { $0.starts(with: keys.journalPrefix("c")) }
        XCTAssertEqual(journalPuts, [keys.journal("c", 4), keys.journal("c", 5), keys.journal("c", 6)])
        let checkpointAt = try! XCTUnwrap(puts.firstIndex(of: keys.checkpoint("c")))
        XCTAssertGreaterThan(checkpointAt, try! XCTUnwrap(puts.firstIndex(of: keys.journal("c", 6))))
        // No key is both put and inside a deleted range (etcd refuses such a transaction).
        for key in puts {
            for d in deletes {
                XCTAssertFalse(key.lexicographicallyPrecedes(d.end) && !key.lexicographicallyPrecedes(d.key))
            }
        }
        XCTAssertEqual(plans[0].intended["c"]??.checkpointRevision, 5)
        XCTAssertEqual(plans[0].intended["c"]??.revision, 6)
    }

    func testASceneDeletedAndCreatedAgainTakesTwoTransactions() {
        var batch = StoreBatch()
        batch.deleteScene(id: "x")
        batch.upsertScene(id: "x", device: "d", revision: 1, state: [1])
        let plans = drain(batch, claims: ["x": claim(3)])
        XCTAssertEqual(plans.count, 2)
        XCTAssertEqual(plans[0].intended["x"]!, nil)
        XCTAssertEqual(plans[1].intended["x"]??.revision, 1)
    }

    func testScenesWithoutAClaimAreNotPlanned() {
        var batch = StoreBatch()
        batch.upsertScene(id: "mine", device: "d", revision: 1, state: [1])
        batch.upsertScene(id: "theirs", device: "d", revision: 1, state: [1])
        let plans = drain(batch, claims: ["mine": claim(3)])
        XCTAssertEqual(plans.map(\.scenes), [["mine"]])
    }

    func testRecordsRoundTrip() {
        let head = SceneHead(
            revision: 9, device: "iphone", checkpointRevision: 4, createdAt: 5, updatedAt: 6, writer: 7)
        XCTAssertEqual(SceneHead(decoding: head.encoded), head)
        let record = JournalRecord(change: [1, 2, 3], layoutHash: nil, at: 12, writer: 3)
        XCTAssertEqual(JournalRecord(decoding: record.encoded), record)
        let hashed = JournalRecord(change: [], layoutHash: "abc", at: 12, writer: 3)
        XCTAssertEqual(JournalRecord(decoding: hashed.encoded), hashed)
        XCTAssertNil(SceneHead(decoding: [2] + head.encoded.dropFirst()))
        XCTAssertNil(SceneHead(decoding: Array(head.encoded.dropLast())))
    }
}
