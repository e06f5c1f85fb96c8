import Synchronization
import Testing
@testable import SplitStore

@Suite("Group commit")
struct CommitTests {
    /// A batch creating scene `id` at revision 1 with its journal entry.
    func creation(_ id: String, device: String = "ipad-pro-13") -> StoreBatch {
        var batch = StoreBatch()
        batch.upsertScene(id: id, device: device, revision: 1, state: stateBytes(id, 1))
        batch.appendJournal(scene: id, revision: 1, change: Array("create \(id)".utf8), layoutHash: "h1")
        return batch
    }

    @Test("a committed batch is all there after reopening")
    func visibleAfterReopen() throws {
        let directory = TemporaryDirectory()
        var batch = creation("a")
        batch.upsertScene(id: "b", device: "iphone", revision: 3, state: [])
        batch.appendJournal(scene: "b", revision: 3, change: [9])
        let session = SnapshotSessionInsert(
            session: "s-1", number: 1, scene: "a", baseRevision: 1,
            sizes: Array("[1024x768]".utf8), hash: "abc", body: [1, 2, 3])
        batch.insertSnapshotSession(session)
        batch.setMeta(key: "config", value: "v1")
        do {
            let store = try openStore(directory.database) { $0.clock = { 42 } }
            #expect(store.nextSessionNumber() == 1)
            try store.commit(batch)
            #expect(store.statistics.commits == 1)
            #expect(store.statistics.operations == Int64(batch.count))
            try store.checkpoint()
            try store.close()
        }
        let store = try openStore(directory.database)
        #expect(
            try store.loadScenes().sorted { $0.id < $1.id } == [
                StoredScene(
                    id: "a", device: "ipad-pro-13", revision: 1, state: stateBytes("a", 1), createdAt: 42, updatedAt: 42
                ),
                StoredScene(id: "b", device: "iphone", revision: 3, state: [], createdAt: 42, updatedAt: 42),
            ])
        #expect(
            try store.journal(scene: "a", from: 0) == [
                JournalEntry(scene: "a", revision: 1, change: Array("create a".utf8), layoutHash: "h1", at: 42)
            ])
        #expect(try store.journal(scene: "b", from: 0).map(\.layoutHash) == [nil])
        let summary = SnapshotSessionSummary(
            session: "s-1", number: 1, scene: "a", baseRevision: 1,
            sizes: session.sizes, hash: "abc", createdAt: 42)
        #expect(try store.snapshotSessions(scene: "a") == [summary])
        #expect(try store.snapshotSession(id: "s-1") == SnapshotSession(summary: summary, body: [1, 2, 3]))
        #expect(try store.snapshotSession(id: "s-2") == nil)
        #expect(try store.meta(key: "config") == "v1")
        #expect(try store.meta(key: "absent") == nil)
        #expect(store.nextSessionNumber() == 2, "the committed session number is never handed out again")
        #expect(
            try store.counts()
                == StoreCounts(
                    scenes: 2, journalEntries: 2, snapshotSessions: 1,
                    databaseBytes: try store.counts().databaseBytes))
    }

    @Test("a commit is durable without a clean close: the files copied while the store is open hold it")
    func survivesCrash() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        try store.commit(creation("a"))
        var second = StoreBatch()
        second.upsertScene(id: "a", device: "ipad", revision: 2, state: stateBytes("a", 2))
        second.appendJournal(scene: "a", revision: 2, change: [2])
        try store.commit(second)
        // What a crash leaves: the main file and the WAL, never checkpointed, no close.
        let crashed = directory.file("crashed.db")
        try copyAsACrashLeavesIt(directory.database, to: crashed)
        let recovered = try openStore(crashed)
        #expect(try recovered.loadScenes().map { [$0.id, "\($0.revision)"] } == [["a", "2"]])
        #expect(try recovered.journal(scene: "a", from: 0).map(\.revision) == [1, 2])
    }

    @Test("an upsert replaces state and revision but keeps the creation time")
    func upsertKeepsCreation() throws {
        let directory = TemporaryDirectory()
        let now = Clock(0)
        let store = try openStore(directory.database) { $0.clock = { now.read() } }
        now.set(100)
        try store.commit(creation("a"))
        now.set(250)
        var update = StoreBatch()
        update.upsertScene(id: "a", device: "ipad-mini", revision: 2, state: stateBytes("a", 2))
        update.appendJournal(scene: "a", revision: 2, change: [2])
        try store.commit(update)
        #expect(
            try store.loadScenes() == [
                StoredScene(
                    id: "a", device: "ipad-mini", revision: 2, state: stateBytes("a", 2), createdAt: 100, updatedAt: 250
                )
            ])
        #expect(try store.journal(scene: "a", from: 2).map(\.at) == [250])
    }

    @Test("operations apply in order: created, deleted and created again ends created")
    func operationsInOrder() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var batch = creation("a")
        batch.deleteScene(id: "a")
        batch.upsertScene(id: "a", device: "iphone", revision: 7, state: [7])
        try store.commit(batch)
        #expect(try store.loadScenes().map { [$0.device, "\($0.revision)"] } == [["iphone", "7"]])
        #expect(try store.journal(scene: "a", from: 0).isEmpty, "the deletion took the first journal with it")
    }

    @Test("deleting a scene deletes its journal and snapshot sessions")
    func deleteCascades() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var batch = creation("a")
        batch.appendJournal(scene: "a", revision: 2, change: [2])
        batch.insertSnapshotSession(
            SnapshotSessionInsert(
                session: "s-1", number: store.nextSessionNumber(), scene: "a",
                baseRevision: 2, sizes: [], hash: "h", body: []))
        batch.append(contentsOf: creation("b"))
        try store.commit(batch)
        var deletion = StoreBatch()
        deletion.deleteScene(id: "a")
        deletion.deleteScene(id: "never-existed")
        try store.commit(deletion)
        #expect(try store.loadScenes().map(\.id) == ["b"])
        #expect(try store.journal(scene: "a", from: 0).isEmpty)
        #expect(try store.snapshotSessions(scene: "a").isEmpty)
        #expect(try store.snapshotSession(id: "s-1") == nil)
        #expect(try store.journal(scene: "b", from: 0).count == 1, "other scenes keep their journal")
    }

    @Test("a batch failing in its middle leaves nothing and reports a rolled-back constraint error")
    func failedBatchLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        try store.commit(creation("a"))
        let before = try store.loadScenes()

        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 2, state: [2])
        batch.appendJournal(scene: "a", revision: 2, change: [2])
        batch.append(contentsOf: creation("b"))
        batch.insertSnapshotSession(
            SnapshotSessionInsert(
                session: "s1", number: 1, scene: "ghost", baseRevision: 1,
                sizes: [], hash: "h", body: []))  // no such scene
        batch.upsertScene(id: "c", device: "ipad", revision: 1, state: [])
        let error = storeError { try store.commit(batch) }
        #expect(error?.kind == .constraint)
        #expect(error?.rolledBack == true)
        #expect(error?.operation.hasPrefix("commit") == true)
        #expect(store.statistics.failedCommits == 1)
        #expect(try store.loadScenes() == before)
        #expect(try store.journal(scene: "a", from: 0).map(\.revision) == [1])
        #expect(try store.journal(scene: "b", from: 0).isEmpty)

        try store.commit(creation("b"))
        #expect(
            try store.loadScenes().map(\.id).sorted() == ["a", "b"], "the store keeps working after a failed batch")
        // The failed batch's sequence numbers were given back: a's next entry is replayed.
        var next = StoreBatch()
        next.appendJournal(scene: "a", revision: 2, change: [2])
        try store.commit(next)
        #expect(try store.journalTails().map { "\($0.scene)@\($0.revision)" } == ["a@2"])
        try store.close()
        #expect(try openStore(directory.database).journalTails().map { "\($0.scene)@\($0.revision)" } == ["a@2"])
    }

    @Test("a snapshot session for an unknown scene breaks the foreign key and nothing is written")
    func foreignKeyEnforced() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var batch = creation("a")
        batch.insertSnapshotSession(
            SnapshotSessionInsert(
                session: "s1", number: 1, scene: "ghost", baseRevision: 1,
                sizes: [], hash: "h", body: []))
        let error = storeError { try store.commit(batch) }
        #expect(error?.kind == .constraint)
        #expect(error?.extendedCode == SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(try store.loadScenes().isEmpty)
    }

    @Test("a journal entry of a scene that does not exist is history: kept, never replayed")
    func entryWithoutScene() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var batch = creation("a")
        batch.appendJournal(scene: "ghost", revision: 7, change: [7])
        try store.commit(batch)
        #expect(try store.journalTails().isEmpty)
        #expect(try store.journal(scene: "ghost", from: 0).isEmpty, "no scene, no journal")
        #expect(try store.counts().journalEntries == 2)
    }

    @Test("a store opened read-only refuses a batch with .readOnly and writes nothing")
    func readOnlyCommit() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try openStore(directory.database)
            try store.commit(creation("a"))
            try store.close()
        }
        let reader = try openStore(directory.database) { $0.access = .readOnly }
        let error = storeError { try reader.commit(creation("b")) }
        #expect(error?.kind == .readOnly)
        #expect(error?.rolledBack == true)
        #expect(try reader.loadScenes().map(\.id) == ["a"])
    }

    @Test("session numbers grow across reopen and skip numbers whose batch failed")
    func sessionNumbers() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try openStore(directory.database)
            try store.commit(creation("a"))
            let first = store.nextSessionNumber()
            var batch = StoreBatch()
            batch.insertSnapshotSession(
                SnapshotSessionInsert(
                    session: "s-\(first)", number: first, scene: "a",
                    baseRevision: 1, sizes: [], hash: "h", body: []))
            try store.commit(batch)
            let failed = store.nextSessionNumber()
            #expect(failed > first)
            var bad = StoreBatch()
            bad.insertSnapshotSession(
                SnapshotSessionInsert(
                    session: "s-\(failed)", number: failed, scene: "ghost",
                    baseRevision: 1, sizes: [], hash: "h", body: []))
            #expect(storeError { try store.commit(bad) }?.kind == .constraint)
            #expect(store.nextSessionNumber() > failed)
            var deletion = StoreBatch()
            deletion.deleteScene(id: "a")
            try store.commit(deletion)
            try store.close()
        }
        let store = try openStore(directory.database)
        #expect(store.nextSessionNumber() > 1, "a deleted session's number is not handed out again")
    }

    @Test("an empty batch is not a commit")
    func emptyBatch() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        try store.commit(StoreBatch())
        #expect(store.statistics.commits == 0)
    }

    @Test("a closed store refuses calls")
    func closedStore() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        try store.close()
        try store.close()
        #expect(storeError { try store.loadScenes() } != nil)
        #expect(storeError { try store.commit(creation("a")) } != nil)
    }
}

/// A settable clock shared with the store's `@Sendable` clock closure.
final class Clock: Sendable {
    private let now: Mutex<Int64>
    init(_ now: Int64) { self.now = Mutex(now) }
    func set(_ value: Int64) { now.withLock { $0 = value } }
    func read() -> Int64 { now.withLock { $0 } }
}
