import Synchronization
import Testing
@testable import SplitStore
import SplitTestSupport

/// A commit writes its journal entries in multi-row INSERTs after its other operations. The
/// rows must be exactly those one INSERT per entry in operation order wrote: every column of
/// every row (seq, scene, revision, change, layout hash, at, and NULL / empty kept apart),
/// and the seqs the scenes' rows record as `journal_start` and `journal_floor`.
@Suite("Journal inserts")
struct JournalInsertTests {
    /// One journal row as the file holds it, with the storage class of the two nullable-looking
    /// columns.
    struct Row: Equatable, CustomStringConvertible {
        var seq: Int64
        var scene: String
        var revision: Int64
        var change: [UInt8]
        var changeType: String
        var layoutHash: String?
        var layoutHashType: String
        var at: Int64

        var description: String { "#\(seq) \(scene)@\(revision) \(change.count)B \(layoutHash ?? "nil") at \(at)" }
    }

    /// What the file must hold: the log of every entry committed, and each scene's seqs.
    struct Reference {
        var rows: [Row] = []
        var start: [String: Int64] = [:]
        var floor: [String: Int64] = [:]
        var lastSeq: Int64 = 0

        mutating func commit(_ batch: StoreBatch, at now: Int64) {
            for operation in batch.operations {
                switch operation {
                case let .upsertScene(id, _, _, _):
                    if start[id] == nil { start[id] = lastSeq }
                    floor[id] = lastSeq
                case let .deleteScene(id):
                    start[id] = nil
                    floor[id] = nil
                case let .appendJournal(scene, revision, change, layoutHash):
                    lastSeq += 1
                    rows.append(
                        Row(
                            seq: lastSeq, scene: scene, revision: revision, change: Array(batch.change(of: change)),
                            changeType: "blob",
                            layoutHash: layoutHash, layoutHashType: layoutHash == nil ? "null" : "text", at: now))
                case .insertSnapshotSession, .setMeta, .answerForwarded:
                    break
                }
            }
        }
    }

    /// A store whose clock reads `clock`, keeping every entry (retention 0).
    func open(_ path: String, clock: JournalTestClock) throws -> SQLiteSceneStore {
        try openStore(path) { options in
            options.journalRetention = 0
            options.clock = { clock.now.withLock { $0 } }
        }
    }

    func rows(_ path: String) throws -> [Row] {
        let database = try Database(path: path, mode: .readOnly)
        defer { try? database.close() }
        let statement = try database.prepare(
            """
            SELECT seq, scene, revision, change, typeof(change), layout_hash, typeof(layout_hash), at FROM journal ORDER BY seq
            """)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(
                Row(
                    seq: statement.int64(at: 0), scene: statement.text(at: 1), revision: statement.int64(at: 2),
                    change: statement.blob(at: 3), changeType: statement.text(at: 4),
                    layoutHash: statement.optionalText(at: 5), layoutHashType: statement.text(at: 6),
                    at: statement.int64(at: 7)))
        }
        return rows
    }

    func sceneSeqs(_ path: String) throws -> [String: [Int64]] {
        let database = try Database(path: path, mode: .readOnly)
        defer { try? database.close() }
        let statement = try database.prepare("SELECT id, journal_start, journal_floor FROM scenes")
        var seqs: [String: [Int64]] = [:]
        while try statement.step() { seqs[statement.text(at: 0)] = [statement.int64(at: 1), statement.int64(at: 2)] }
        return seqs
    }

    func expectMatches(_ reference: Reference, _ path: String) throws {
        let stored = try rows(path)
        #expect(stored.count == reference.rows.count)
        for (row, expected) in zip(stored, reference.rows) where row != expected {
            Issue.record("journal row \(row) != expected \(expected)")
            break
        }
        let expectedSeqs = reference.start.mapValues { [$0] }.merging(reference.floor.mapValues { [$0] }) { $0 + $1 }
        #expect(try sceneSeqs(path) == expectedSeqs)
    }

    /// Random bytes of a random length in `lengths`.
    func bytes(_ lengths: ClosedRange<Int>, _ random: inout SplitMix64) -> [UInt8] {
        (0..<Int.random(in: lengths, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    @Test(
        "random batches: every journal row and every scene's seqs are what one INSERT per entry wrote",
        arguments: [UInt64(1), 2, 3, 4])
    func randomBatches(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory()
        let clock = JournalTestClock(1_000)
        let store = try open(directory.database, clock: clock)
        var reference = Reference()
        var revisions: [String: Int64] = [:]
        let ids = (0..<12).map { "scene-\($0)" } + ["a-much-longer-scene-identifier-than-fits-inline-\(seed)", "é"]
        for turn in 0..<60 {
            var batch = StoreBatch()
            // 0 to 150 entries: every chunk size alone and in combination, and empty turns.
            let entries = turn < 4 ? [0, 1, 64, 127][turn] : Int.random(in: 0...150, using: &random)
            for _ in 0..<entries {
                let id = ids.randomElement(using: &random)!
                if revisions[id] == nil || Int.random(in: 0..<40, using: &random) == 0 {
                    if revisions[id] != nil { batch.deleteScene(id: id) }
                    revisions[id] = 1
                    batch.upsertScene(id: id, device: "ipad", revision: 1, state: bytes(0...64, &random))
                } else {
                    revisions[id]! += 1
                }
                let layoutHash: String? =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: nil
                    case 1: ""
                    default: String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16)
                    }
                batch.appendJournal(
                    scene: id, revision: revisions[id]!, change: bytes(0...300, &random), layoutHash: layoutHash)
                if Int.random(in: 0..<16, using: &random) == 0 {
                    batch.upsertScene(id: id, device: "ipad", revision: revisions[id]!, state: bytes(0...64, &random))
                }
                if Int.random(in: 0..<50, using: &random) == 0 { batch.setMeta(key: "k", value: "\(turn)") }
            }
            let now = clock.now.withLock { now in
                now += Int64.random(in: 1...1_000, using: &random)
                return now
            }
            try store.commit(batch)
            reference.commit(batch, at: now)
        }
        try expectMatches(reference, directory.database)
        try store.close()
        try expectMatches(reference, directory.database)
    }

    @Test("large values: chunks whose bytes overflow the bind buffer, and values larger than all of it")
    func largeValues() throws {
        let directory = TemporaryDirectory()
        let clock = JournalTestClock(7)
        let store = try open(directory.database, clock: clock)
        var reference = Reference()
        var batch = StoreBatch()
        batch.upsertScene(id: "big", device: "ipad", revision: 1, state: [1])
        for revision in Int64(1)...100 {
            // 3 KiB each (a 64-row chunk holds 192 KiB), every tenth 40 KiB.
            let size = revision % 10 == 0 ? 40 << 10 : 3 << 10
            let change = (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ Int(revision)) }
            batch.appendJournal(
                scene: "big", revision: revision, change: change,
                layoutHash: String(repeating: "h", count: Int(revision) * 50))
        }
        try store.commit(batch)
        reference.commit(batch, at: 7)
        try expectMatches(reference, directory.database)
    }

    @Test("a batch that fails writes no entry and hands its seqs to the next batch")
    func failedBatch() throws {
        let directory = TemporaryDirectory()
        let clock = JournalTestClock(5)
        let store = try open(directory.database, clock: clock)
        var reference = Reference()
        var first = StoreBatch()
        first.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        for revision in Int64(1)...10 { first.appendJournal(scene: "a", revision: revision, change: [UInt8(revision)]) }
        try store.commit(first)
        reference.commit(first, at: 5)

        var failing = StoreBatch()
        for revision in Int64(11)...50 { failing.appendJournal(scene: "a", revision: revision, change: [1, 2]) }
        // A session of a scene that does not exist: a foreign key failure, the batch rolls back.
        failing.insertSnapshotSession(
            SnapshotSessionInsert(
                session: "s", number: 1, scene: "missing", baseRevision: 1,
                sizes: [], hash: "x", body: []))
        #expect(throws: StoreError.self) { try store.commit(failing) }
        try expectMatches(reference, directory.database)

        var next = StoreBatch()
        for revision in Int64(11)...20 {
            next.appendJournal(scene: "a", revision: revision, change: [3], layoutHash: "h")
        }
        try store.commit(next)
        reference.commit(next, at: 5)
        try expectMatches(reference, directory.database)
    }

    @Test(
        "a journal out of step with the log (its newest entry deleted behind the store's back) fails the batch, and a reopened store goes on from the file"
    )
    func journalOutOfStep() throws {
        let directory = TemporaryDirectory()
        let clock = JournalTestClock(9)
        let store = try open(directory.database, clock: clock)
        var first = StoreBatch()
        first.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        for revision in Int64(1)...5 { first.appendJournal(scene: "a", revision: revision, change: [UInt8(revision)]) }
        try store.commit(first)
        do {
            let other = try Database(path: directory.database, mode: .readWrite)
            try other.execute("DELETE FROM journal WHERE seq = 5")
            try other.close()
        }
        var next = StoreBatch()
        next.appendJournal(scene: "a", revision: 6, change: [6])
        let error = storeError { try store.commit(next) }
        #expect(error?.kind == .corrupt)
        #expect(error?.rolledBack == true)
        #expect(try rows(directory.database).map(\.seq) == [1, 2, 3, 4])
        try store.close()

        let reopened = try open(directory.database, clock: clock)
        try reopened.commit(next)
        #expect(try rows(directory.database).map(\.seq) == [1, 2, 3, 4, 5])
        #expect(try rows(directory.database).last?.revision == 6)
    }

    @Test(
        "the multi-row statements bind ?1 (now) once and four parameters per row, numbered in order",
        arguments: StoreStatements.journalChunkRows)
    func statementText(rows: Int) {
        let sql = StoreStatements.journalInsertSQL(rows: rows)
        let last = 1 + 4 * rows
        #expect(sql.contains("(?\(last - 3), ?\(last - 2), ?\(last - 1), ?\(last), ?1)"))
        #expect(!sql.contains("?\(last + 1)"))
        #expect(sql.components(separatedBy: "), (").count == rows)
    }
}

/// The store's clock, moved by the test between commits.
final class JournalTestClock: Sendable {
    let now: Mutex<Int64>
    init(_ now: Int64) { self.now = Mutex(now) }
}
