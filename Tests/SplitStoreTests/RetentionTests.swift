import Testing
@testable import SplitStore

@Suite("Journal retention")
struct RetentionTests {
    /// Commits revisions 1...count of scene `id`, `perBatch` revisions per batch.
    func commitRevisions(_ store: SQLiteSceneStore, scene id: String, count: Int64, perBatch: Int64) throws {
        var revision: Int64 = 0
        while revision < count {
            var batch = StoreBatch()
            for _ in 0..<min(perBatch, count - revision) {
                revision += 1
                batch.upsertScene(id: id, device: "ipad", revision: revision, state: stateBytes(id, revision))
                batch.appendJournal(scene: id, revision: revision, change: stateBytes(id, revision))
            }
            try store.commit(batch)
        }
    }

    @Test("only the last N revisions of each scene are kept", arguments: [(Int64(10), Int64(1)), (10, 7), (3, 50)])
    func keepsLastRevisions(retention: Int64, perBatch: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.journalRetention = retention }
        try commitRevisions(store, scene: "a", count: 40, perBatch: perBatch)
        try commitRevisions(store, scene: "b", count: 2, perBatch: perBatch)
        let kept = try store.journal(scene: "a", from: 0)
        #expect(kept.map(\.revision) == Array((40 - retention + 1)...40))
        #expect(kept.map(\.change) == kept.map { stateBytes("a", $0.revision) })
        #expect(try store.journal(scene: "b", from: 0).map(\.revision) == [1, 2], "young scenes keep everything")
        #expect(store.statistics.prunedJournalEntries == 40 - retention)
    }

    @Test("retention 0 keeps every revision")
    func unlimited() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.journalRetention = 0 }
        try commitRevisions(store, scene: "a", count: 30, perBatch: 4)
        #expect(try store.journal(scene: "a", from: 0).map(\.revision) == Array(1...30))
    }

    @Test("journal reads start at a revision and stop at a limit")
    func journalWindow() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        try commitRevisions(store, scene: "a", count: 20, perBatch: 5)
        #expect(try store.journal(scene: "a", from: 15).map(\.revision) == [15, 16, 17, 18, 19, 20])
        #expect(try store.journal(scene: "a", from: 3, limit: 2).map(\.revision) == [3, 4])
        #expect(try store.journal(scene: "a", from: 21).isEmpty)
    }
}
