import Testing
@testable import SplitStore

/// The journal is one log in append order: history (entries every checkpoint covers) is kept
/// `journalRetention` entries deep over all scenes and pruned from the head; what a restart
/// replays is never pruned, whatever the retention.
@Suite("Journal retention")
struct RetentionTests {
    /// Options that prune at every commit (the watermark recomputed each time).
    static func eager(_ retention: Int64) -> (inout StoreOptions) -> Void {
        {
            $0.journalRetention = retention; $0.pruneRefreshMilliseconds = 0; $0.pruneBatch = 1
        }
    }

    /// Commits revisions `revisions` of scene `id`, `perBatch` per batch, each checkpointed
    /// (the row is upserted before the entry, so every entry is history at once).
    func commitCheckpointed(
        _ store: SQLiteSceneStore, scene id: String, _ revisions: ClosedRange<Int64>, perBatch: Int64 = 1
    ) throws {
        var revision = revisions.lowerBound
        while revision <= revisions.upperBound {
            var batch = StoreBatch()
            for _ in 0..<perBatch where revision <= revisions.upperBound {
                batch.upsertScene(id: id, device: "ipad", revision: revision, state: stateBytes(id, revision))
                batch.appendJournal(scene: id, revision: revision, change: stateBytes(id, revision))
                revision += 1
            }
            try store.commit(batch)
        }
    }

    /// Appends revisions of `id` without checkpointing them: a restart must replay them.
    func appendOnly(_ store: SQLiteSceneStore, scene id: String, _ revisions: ClosedRange<Int64>) throws {
        var batch = StoreBatch()
        for revision in revisions {
            batch.appendJournal(scene: id, revision: revision, change: stateBytes("change-" + id, revision))
        }
        try store.commit(batch)
    }

    @Test(
        "history is kept as deep as the retention, over all scenes, newest kept",
        arguments: [(Int64(10), Int64(1)), (10, 7), (3, 50)])
    func keepsNewestHistory(retention: Int64, perBatch: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database, Self.eager(retention))
        try commitCheckpointed(store, scene: "a", 1...40, perBatch: perBatch)
        try commitCheckpointed(store, scene: "b", 1...2, perBatch: perBatch)
        // The log is a(1...40) then b(1...2): its newest `retention` entries stay.
        let a = try store.journal(scene: "a", from: 0).map(\.revision)
        let b = try store.journal(scene: "b", from: 0).map(\.revision)
        #expect(a.count + b.count == Int(retention))
        #expect(b == Array(max(1, 3 - retention)...2))
        #expect(a == (retention > 2 ? Array((40 - (retention - 2) + 1)...40) : []))
        #expect(store.statistics.prunedJournalEntries == 42 - retention)
        #expect(try store.counts().journalEntries == retention)
    }

    @Test(
        "history past the retention is pruned once a batch of it has gathered, never more than the retention",
        arguments: [(Int64(10), Int64(8), Int64(1)), (10, 8, 3), (5, 20, 7)])
    func prunesInBatches(retention: Int64, pruneBatch: Int64, perBatch: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.journalRetention = retention; $0.pruneRefreshMilliseconds = 0; $0.pruneBatch = pruneBatch
        }
        var committed: Int64 = 0
        var pruned: Int64 = 0
        while committed < 120 {
            let revisions = (committed + 1)...(committed + perBatch)
            try commitCheckpointed(store, scene: "a", revisions, perBatch: perBatch)
            committed = revisions.upperBound
            let kept = try store.counts().journalEntries
            // Each commit leaves less than a batch past the retention (a commit prunes after
            // its own entries), and a prune never cuts into the retention.
            #expect(kept >= min(committed, retention))
            #expect(kept < retention + pruneBatch + perBatch)
            #expect(store.statistics.prunedJournalEntries == committed - kept)
            if store.statistics.prunedJournalEntries > pruned {
                #expect(store.statistics.prunedJournalEntries - pruned >= pruneBatch, "pruned in batches")
                #expect(kept == retention, "a prune goes down to the retention")
                pruned = store.statistics.prunedJournalEntries
            }
        }
        #expect(pruned > 0)
        #expect(try store.journal(scene: "a", from: 0).last?.revision == committed, "the newest entry stays")
    }

    @Test("retention 0 keeps every entry")
    func unlimited() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database, Self.eager(0))
        try commitCheckpointed(store, scene: "a", 1...30, perBatch: 4)
        #expect(try store.journal(scene: "a", from: 0).map(\.revision) == Array(1...30))
        #expect(store.statistics.prunedJournalEntries == 0)
    }

    @Test("journal reads start at a revision and stop at a limit")
    func journalWindow() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        try commitCheckpointed(store, scene: "a", 1...20, perBatch: 5)
        #expect(try store.journal(scene: "a", from: 15).map(\.revision) == [15, 16, 17, 18, 19, 20])
        #expect(try store.journal(scene: "a", from: 3, limit: 2).map(\.revision) == [3, 4])
        #expect(try store.journal(scene: "a", from: 21).isEmpty)
    }

    @Test("entries above a checkpoint hold the head back until the scene is checkpointed")
    func uncheckpointedHoldsHead() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database, Self.eager(3))
        try commitCheckpointed(store, scene: "a", 1...1)
        try appendOnly(store, scene: "a", 2...5)
        try commitCheckpointed(store, scene: "b", 1...100)
        #expect(try store.journalTails().map(\.revision) == [2, 3, 4, 5])
        #expect(try store.journal(scene: "b", from: 0).count == 100, "nothing after a's first replayed entry is pruned")
        // Checkpointing a frees the head: the next commit prunes down to the retention.
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 5, state: stateBytes("a", 5))
        try store.commit(batch)
        try commitCheckpointed(store, scene: "b", 101...101)
        #expect(try store.journalTails().isEmpty)
        #expect(try store.counts().journalEntries == 3)
        #expect(try store.journal(scene: "b", from: 0).map(\.revision) == [99, 100, 101])
    }

    @Test("a scene that never changes again does not hold the head back")
    func idleSceneDoesNotHoldHead() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database, Self.eager(5))
        try commitCheckpointed(store, scene: "idle", 1...1)
        try commitCheckpointed(store, scene: "busy", 1...60, perBatch: 3)
        #expect(try store.counts().journalEntries == 5)
        #expect(try store.loadScenes().count == 2)
    }

    @Test("the sequence continues after pruning and reopening, so later entries are replayed")
    func sequenceSurvivesPruning() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try openStore(directory.database, Self.eager(1))
            try commitCheckpointed(store, scene: "a", 1...20)
            #expect(try store.counts().journalEntries == 1, "only the newest entry is left")
            try store.close()
        }
        do {
            let store = try openStore(directory.database, Self.eager(1))
            try appendOnly(store, scene: "a", 21...22)
            #expect(try store.journalTails().map(\.revision) == [21, 22])
            try store.close()
        }
        #expect(try openStore(directory.database).journalTails().map(\.revision) == [21, 22])
    }

    @Test("a scene deleted and created again starts with none of its earlier entries")
    func deletedSceneEntries() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database, Self.eager(0))
        try commitCheckpointed(store, scene: "x", 1...1)
        try appendOnly(store, scene: "x", 2...4)
        var batch = StoreBatch()
        batch.deleteScene(id: "x")
        try store.commit(batch)
        #expect(try store.journal(scene: "x", from: 0).isEmpty)
        #expect(try store.journalTails().isEmpty, "a deleted scene's entries are never replayed")
        try commitCheckpointed(store, scene: "x", 1...1)
        try appendOnly(store, scene: "x", 2...2)
        #expect(try store.journal(scene: "x", from: 0).map(\.revision) == [1, 2])
        #expect(try store.journalTails().map(\.revision) == [2])
        try store.close()
        #expect(try openStore(directory.database).journalTails().map(\.revision) == [2])
    }
}
