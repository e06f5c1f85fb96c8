import Testing
@testable import SplitStore

/// The journal of the checkpoint scheme: a scene's row is its checkpoint, entries above it
/// are never pruned, history below it is kept as deep as the retention, and
/// `journalTails()` returns what a restart replays.
@Suite("Checkpoints and journal tails")
struct CheckpointTests {
    /// Appends revisions `revisions` of `scene`, one batch, upserting the row only at `checkpoints`.
    func append(
        _ store: SQLiteSceneStore, scene: String, _ revisions: ClosedRange<Int64>, checkpoints: Set<Int64>
    ) throws {
        var batch = StoreBatch()
        for revision in revisions {
            batch.appendJournal(scene: scene, revision: revision, change: stateBytes("change-" + scene, revision))
            if checkpoints.contains(revision) {
                batch.upsertScene(id: scene, device: "ipad", revision: revision, state: stateBytes(scene, revision))
            }
        }
        try store.commit(batch)
    }

    func create(_ store: SQLiteSceneStore, scene: String) throws {
        var batch = StoreBatch()
        batch.upsertScene(id: scene, device: "ipad", revision: 1, state: stateBytes(scene, 1))
        batch.appendJournal(scene: scene, revision: 1, change: stateBytes("change-" + scene, 1))
        try store.commit(batch)
    }

    @Test(
        "entries above the checkpoint are never pruned; history below it is kept as deep as the retention",
        arguments: [Int64(1), 5, 29])
    func pruneAtCheckpoint(retention: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.journalRetention = retention; $0.pruneRefreshMilliseconds = 0; $0.pruneBatch = 1
        }
        try create(store, scene: "a")
        try append(store, scene: "a", 2...40, checkpoints: [])
        #expect(
            try store.journal(scene: "a", from: 0).map(\.revision) == Array(1...40), "appends alone keep everything")
        #expect(store.statistics.prunedJournalEntries == 0)
        try append(store, scene: "a", 41...50, checkpoints: [45])
        #expect(try store.journal(scene: "a", from: 0).map(\.revision) == Array((45 - retention + 1)...50))
        #expect(store.statistics.prunedJournalEntries == 45 - retention)
        #expect(try store.loadScenes().map(\.revision) == [45])
    }

    @Test("retention 0 keeps every revision across checkpoints")
    func keepAll() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.journalRetention = 0 }
        try create(store, scene: "a")
        try append(store, scene: "a", 2...30, checkpoints: [10, 20, 30])
        #expect(try store.journal(scene: "a", from: 0).map(\.revision) == Array(1...30))
    }

    @Test("journal tails: the entries above each checkpoint, grouped by scene, oldest first")
    func tails() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.journalRetention = 3; $0.pruneRefreshMilliseconds = 0; $0.pruneBatch = 1
        }
        for scene in ["c", "a", "b"] { try create(store, scene: scene) }
        try append(store, scene: "a", 2...9, checkpoints: [6])
        try append(store, scene: "c", 2...4, checkpoints: [4])
        try append(store, scene: "b", 2...3, checkpoints: [])
        let tails = try store.journalTails()
        var grouped: [String: [Int64]] = [:]
        var order: [String] = []
        for entry in tails {
            if order.last != entry.scene {
                #expect(!order.contains(entry.scene), "scene \(entry.scene) in one group")
                order.append(entry.scene)
            }
            grouped[entry.scene, default: []].append(entry.revision)
            #expect(entry.change == stateBytes("change-" + entry.scene, entry.revision))
        }
        #expect(grouped == ["a": [7, 8, 9], "b": [2, 3]], "c is checkpointed at its last revision")
        #expect(grouped.values.allSatisfy { $0 == $0.sorted() })
        try store.close()
        #expect(
            try openStore(directory.database).journalTails().map(\.revision) == tails.map(\.revision), "after reopening"
        )
    }

    @Test("a schema 1 database (rows always current, request lines journaled) migrates and keeps everything")
    func schemaOneMigrates() throws {
        let directory = TemporaryDirectory()
        let line = Array(#"{"id":1,"op":"resize","scene":"a","width":390,"height":844}"#.utf8)
        do {
            let raw = try Database(path: directory.database, mode: .readWrite)
            try raw.execute(Migrations.all[0].sql)
            try raw.execute("PRAGMA user_version = 1")
            try raw.execute("INSERT INTO scenes VALUES ('a', 'ipad', 2, x'01', 5, 6)")
            try raw.execute("INSERT INTO journal VALUES ('a', 1, x'7b7d', NULL, 5)")
            try raw.execute(
                "INSERT INTO journal VALUES ('a', 2, x'\(line.map { String($0, radix: 16) }.joined())', NULL, 6)")
            try raw.close()
        }
        let store = try openStore(directory.database)
        #expect(try store.database.integer("PRAGMA user_version") == Migrations.latestVersion)
        #expect(try store.meta(key: "journal_format") != nil)
        #expect(try store.loadScenes().map { "\($0.id)@\($0.revision)" } == ["a@2"])
        #expect(try store.journal(scene: "a", from: 0).map(\.change) == [Array("{}".utf8), line])
        #expect(try store.journalTails().isEmpty, "a schema 1 row is current: nothing to replay")
    }

    @Test("a schema 2 database (journal keyed by scene and revision) migrates to the log and replays the same tails")
    func schemaTwoMigrates() throws {
        let directory = TemporaryDirectory()
        do {
            let raw = try Database(path: directory.database, mode: .readWrite)
            for migration in Migrations.all where migration.version <= 2 { try raw.execute(migration.sql) }
            try raw.execute("PRAGMA user_version = 2")
            try raw.execute("INSERT INTO scenes VALUES ('b', 'ipad', 3, x'02', 5, 6)")
            try raw.execute("INSERT INTO scenes VALUES ('a', 'ipad', 2, x'01', 5, 6)")
            for (scene, revision) in [("a", 1), ("b", 1), ("a", 2), ("b", 2), ("a", 3), ("b", 3), ("a", 4), ("b", 4)] {
                try raw.execute(
                    "INSERT INTO journal VALUES ('\(scene)', \(revision), x'0\(revision)', 'h\(revision)', \(revision))"
                )
            }
            try raw.close()
        }
        let store = try openStore(directory.database)
        #expect(try store.database.integer("PRAGMA user_version") == Migrations.latestVersion)
        #expect(try store.meta(key: "journal_format") == "checkpoint+log 1")
        #expect(try store.journal(scene: "a", from: 0).map(\.revision) == [1, 2, 3, 4])
        #expect(try store.journal(scene: "a", from: 0).map(\.layoutHash) == ["h1", "h2", "h3", "h4"])
        let tails = try store.journalTails()
        #expect(tails.map { "\($0.scene)@\($0.revision)" } == ["a@3", "a@4", "b@4"])
        // New entries continue the sequence and are replayed after the migrated ones.
        var batch = StoreBatch()
        batch.appendJournal(scene: "b", revision: 5, change: [5])
        try store.commit(batch)
        #expect(try store.journalTails().map { "\($0.scene)@\($0.revision)" } == ["a@3", "a@4", "b@4", "b@5"])
    }
}
