import Testing
@testable import SplitStore

@Suite("Store tuning")
struct StoreTuningTests {
    @Test(
        "the page cache is the configured size, or SQLite's default for 0",
        arguments: [Int64(0), 1024, 16 << 10, 64 << 10])
    func cacheSize(kib: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.cacheSizeKiB = kib }
        let defaultPages = try Database(path: directory.file("plain.db"), mode: .readWrite).integer("PRAGMA cache_size")
        #expect(try store.database.integer("PRAGMA cache_size") == (kib > 0 ? -kib : defaultPages))
        try store.close()
    }

    @Test("deleted rows are not zeroed (secure_delete off), whatever SQLite was built with")
    func secureDeleteOff() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        #expect(try store.database.integer("PRAGMA secure_delete") == 0)
        try store.close()
    }

    @Test("the reused BEGIN and COMMIT statements commit batch after batch, also after a refused one")
    func transactionsAfterARefusedCommit() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var created = StoreBatch()
        created.upsertScene(id: "a", device: "iphone", revision: 1, state: stateBytes("a", 1))
        try store.commit(created)
        for revision in Int64(2)...20 {
            var batch = StoreBatch()
            batch.appendJournal(scene: "a", revision: revision, change: [UInt8(revision)])
            if revision % 5 == 0 {
                // The foreign key refuses the whole batch: nothing of it may stay.
                batch.insertSnapshotSession(
                    SnapshotSessionInsert(
                        session: "s\(revision)", number: revision, scene: "missing",
                        baseRevision: 1, sizes: [], hash: "h", body: []))
                #expect(throws: StoreError.self) { try store.commit(batch) }
                #expect(!store.database.isInTransaction)
            } else {
                try store.commit(batch)
            }
        }
        let stored = try store.journal(scene: "a", from: 0).map(\.revision)
        #expect(stored == (Int64(2)...20).filter { $0 % 5 != 0 })
        try store.close()
    }
}
