import Testing
@testable import SplitStore

/// A scene's past revisions (`SceneStore.history`): the checkpoints its row held before and
/// the journal entries above the oldest needed one are kept `historyRevisions` deep per
/// scene, whatever the log's own retention prunes, and trimmed when the scene checkpoints.
@Suite("Scene history")
struct HistoryTests {
    /// A log that prunes everything past 5 entries at every commit: history must come from
    /// the history tables, not from the log.
    static func options(history: Int64) -> (inout StoreOptions) -> Void {
        {
            $0.journalRetention = 5; $0.pruneRefreshMilliseconds = 0; $0.pruneBatch = 1
            $0.historyRevisions = history
        }
    }

    static func change(_ scene: String, _ revision: Int64) -> [UInt8] { stateBytes("change-" + scene, revision) }

    /// Revisions `revisions` of `scene`, one batch each, interleaved with a change of `other`
    /// so the log holds both; checkpointed at each multiple of `every` (the row after the
    /// entry, as the daemon stages it), revision 1 being the creation.
    func commit(
        _ store: SQLiteSceneStore, scene: String, _ revisions: ClosedRange<Int64>, every: Int64,
        other: String = "other", otherRevision: inout Int64
    ) throws {
        for revision in revisions {
            var batch = StoreBatch()
            if revision == 1 {
                batch.upsertScene(id: scene, device: "ipad", revision: 1, state: stateBytes(scene, 1))
                batch.appendJournal(scene: scene, revision: 1, change: Self.change(scene, 1))
            } else {
                batch.appendJournal(scene: scene, revision: revision, change: Self.change(scene, revision))
                if revision % every == 0 {
                    batch.upsertScene(id: scene, device: "ipad", revision: revision, state: stateBytes(scene, revision))
                }
            }
            otherRevision += 1
            if otherRevision == 1 {
                batch.upsertScene(id: other, device: "ipad", revision: 1, state: stateBytes(other, 1))
            }
            batch.appendJournal(scene: other, revision: otherRevision, change: Self.change(other, otherRevision))
            if otherRevision > 1 {
                batch.upsertScene(
                    id: other, device: "ipad", revision: otherRevision, state: stateBytes(other, otherRevision))
            }
            try store.commit(batch)
        }
    }

    /// That `found` rebuilds `scene` at `revision`: a checkpoint at or below it (with that
    /// checkpoint's own bytes) and exactly the entries above it up to `revision`.
    func expectRebuilds(_ found: SceneHistory, scene: String, revision: Int64, every: Int64) {
        guard case let .replay(checkpoint, entries) = found else {
            Issue.record("revision \(revision): \(found)")
            return
        }
        #expect(checkpoint.revision <= revision)
        #expect(checkpoint.revision == 1 || checkpoint.revision % every == 0)
        #expect(checkpoint.state == stateBytes(scene, checkpoint.revision))
        #expect(entries.map(\.revision) == Array(stride(from: checkpoint.revision + 1, through: revision, by: 1)))
        #expect(entries.map(\.change) == entries.map { Self.change(scene, $0.revision) })
    }

    func rows(_ store: SQLiteSceneStore, _ table: String, scene: String) throws -> Int64 {
        try store.database.integer("SELECT count(*) FROM \(table) WHERE scene = '\(scene)'") ?? -1
    }

    @Test("the last historyRevisions revisions are rebuilt, older ones are refused naming the oldest kept")
    func window() throws {
        let directory = TemporaryDirectory()
        let history: Int64 = 20
        let every: Int64 = 4
        var other: Int64 = 0
        let store = try openStore(directory.database, Self.options(history: history))
        try commit(store, scene: "a", 1...103, every: every, otherRevision: &other)
        // The log keeps its retention and what the last checkpoints have not covered yet.
        #expect(try store.counts().journalEntries <= 5 + 2 * every + 2, "the log itself kept little")
        #expect(store.statistics.prunedJournalEntries > 150)
        var oldest: Int64?
        for revision in Int64(1)...103 {
            let found = try store.history(scene: "a", revision: revision)
            if case let .pruned(kept) = found {
                #expect(revision < kept)
                oldest = kept
                continue
            }
            expectRebuilds(found, scene: "a", revision: revision, every: every)
        }
        let kept = try #require(oldest)
        #expect(kept <= 100 - history, "at least historyRevisions revisions below the newest checkpoint")
        #expect(kept >= 100 - history - every, "not more than a checkpoint interval beyond them")
        // Bounded: the past checkpoints and entries of that window only.
        #expect(try rows(store, "scene_checkpoints", scene: "a") <= history / every + 2)
        #expect(try rows(store, "journal_history", scene: "a") <= history + every)
        #expect(try store.history(scene: "nope", revision: 1) == .unknownScene)
    }

    @Test("history survives reopening the database")
    func reopen() throws {
        let directory = TemporaryDirectory()
        var other: Int64 = 0
        do {
            let store = try openStore(directory.database, Self.options(history: 30))
            try commit(store, scene: "a", 1...50, every: 8, otherRevision: &other)
            try store.close()
        }
        let store = try openStore(directory.database, Self.options(history: 30))
        for revision in Int64(24)...50 {
            expectRebuilds(try store.history(scene: "a", revision: revision), scene: "a", revision: revision, every: 8)
        }
        // The other scene, checkpointed at every change, is rebuilt from its past checkpoints.
        for revision in Int64(other - 30)...other {
            guard case let .replay(checkpoint, entries) = try store.history(scene: "other", revision: revision) else {
                Issue.record("other at \(revision)")
                continue
            }
            #expect(checkpoint.revision == revision && entries.isEmpty)
        }
    }

    @Test("a deleted scene's history goes with it; a new scene with its id has only its own")
    func deletion() throws {
        let directory = TemporaryDirectory()
        var other: Int64 = 0
        let store = try openStore(directory.database, Self.options(history: 100))
        try commit(store, scene: "a", 1...40, every: 4, otherRevision: &other)
        var batch = StoreBatch()
        batch.deleteScene(id: "a")
        try store.commit(batch)
        #expect(try store.history(scene: "a", revision: 10) == .unknownScene)
        #expect(try rows(store, "scene_checkpoints", scene: "a") == 0)
        #expect(try rows(store, "journal_history", scene: "a") == 0)
        try commit(store, scene: "a", 1...6, every: 4, otherRevision: &other)
        for revision in Int64(1)...6 {
            expectRebuilds(try store.history(scene: "a", revision: revision), scene: "a", revision: revision, every: 4)
        }
    }

    @Test("historyRevisions 0 keeps no past checkpoints: only revisions from the scene's checkpoint on")
    func none() throws {
        let directory = TemporaryDirectory()
        var other: Int64 = 0
        do {
            let store = try openStore(directory.database, Self.options(history: 50))
            try commit(store, scene: "a", 1...30, every: 4, otherRevision: &other)
            try store.close()
        }
        let store = try openStore(directory.database, Self.options(history: 0))
        #expect(try store.database.integer("SELECT count(*) FROM scene_checkpoints") == 0, "dropped at open")
        #expect(try store.database.integer("SELECT count(*) FROM journal_history") == 0)
        try commit(store, scene: "a", 31...34, every: 4, otherRevision: &other)
        #expect(try store.history(scene: "a", revision: 20) == .pruned(oldest: 32))
        for revision in Int64(32)...34 {
            expectRebuilds(try store.history(scene: "a", revision: revision), scene: "a", revision: revision, every: 4)
        }
        #expect(try store.database.integer("SELECT count(*) FROM scene_checkpoints") == 0)
    }

    @Test("a revision above what is stored returns the entries there are")
    func aboveStored() throws {
        let directory = TemporaryDirectory()
        var other: Int64 = 0
        let store = try openStore(directory.database, Self.options(history: 10))
        try commit(store, scene: "a", 1...6, every: 4, otherRevision: &other)
        guard case let .replay(checkpoint, entries) = try store.history(scene: "a", revision: 9) else {
            Issue.record("no replay")
            return
        }
        #expect(checkpoint.revision == 4)
        #expect(entries.map(\.revision) == [5, 6])
    }
}
