import CSQLite
import CSQLiteVFS
import Foundation
import Testing
@testable import SplitStore

extension Database {
    /// What the coalescing VFS wrote to this connection's WAL: frames whose header went out
    /// with their page, headers written alone, the write calls of held frames, and the bytes
    /// held back now. Nil when the WAL is not open or not the coalescing VFS's.
    var walWriteCounts: (joined: Int64, alone: Int64, writes: Int64, held: Int64)? {
        var joined: Int64 = 0, alone: Int64 = 0, writes: Int64 = 0, held: Int64 = 0
        guard splitd_coalescing_wal_counts(handle, &joined, &alone, &writes, &held) == SQLITE_OK else { return nil }
        return (joined, alone, writes, held)
    }
}

/// The coalescing VFS writes a commit's WAL frames (headers and pages) with one write: what a
/// commit wrote is in the WAL file, whole and valid, the moment the commit returns.
@Suite("WAL frames of a commit written with one write", .serialized)
struct WALCoalescingTests {
    /// Commits `count` batches: a scene row of `stateSize` bytes (several pages when large)
    /// and a journal entry each.
    private func commit(_ store: SQLiteSceneStore, count: Int, stateSize: Int, from first: Int = 0) throws {
        for index in first..<(first + count) {
            var batch = StoreBatch()
            let scene = "s\(index % 7)"
            batch.upsertScene(
                id: scene, device: "ipad", revision: Int64(index + 1),
                state: stateBytes(scene, Int64(index + 1), size: stateSize))
            batch.appendJournal(
                scene: scene, revision: Int64(index + 1), change: [UInt8(index % 251)], layoutHash: "2abcdef01234567")
            try store.commit(batch)
        }
    }

    /// A store whose WAL is open (one commit made), never checkpointed during a test.
    private func openWriterWithItsWAL() throws -> (TemporaryDirectory, SQLiteSceneStore) {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.durability = .normal; $0.walCheckpointPages = 100_000
        }
        try commit(store, count: 1, stateSize: 100)
        return (directory, store)
    }

    @Test("a commit's frames go out in one write, and a reader on the default VFS sees every commit at once")
    func framesAreJoinedAndVisible() throws {
        let (directory, store) = try openWriterWithItsWAL()
        defer { try? store.close() }
        let before = try #require(store.database.walWriteCounts, "the writer's WAL is the coalescing VFS's")
        // A second connection of the default VFS, as another process would read the file.
        let reader = try Database(path: directory.database, mode: .readOnly)
        defer { try? reader.close() }
        for round in 1...40 {
            try commit(store, count: 1, stateSize: round % 2 == 0 ? 100 : 9000, from: round)
            #expect(try reader.integer("SELECT count(*) FROM journal") == Int64(round + 1))
            #expect(try reader.integer("SELECT max(revision) FROM scenes") == Int64(round + 1))
        }
        let after = try #require(store.database.walWriteCounts)
        // Every commit writes at least a journal page and a scene page (3 more for 9000
        // bytes), all in one call.
        #expect(after.writes - before.writes == 40)
        #expect(after.joined - before.joined >= 80)
        #expect(after.alone == before.alone)
        #expect(after.held == 0)
        #expect(try reader.integer("SELECT count(*) FROM scenes") == 7)
    }

    @Test("a commit larger than what the VFS holds is written in pieces, every byte of it")
    func aLargeCommitGoesOutInPieces() throws {
        let (directory, store) = try openWriterWithItsWAL()
        defer { try? store.close() }
        let before = try #require(store.database.walWriteCounts)
        // ~74 overflow pages: more than the unix VFS writes in one call (128 KiB).
        var batch = StoreBatch()
        batch.upsertScene(id: "large", device: "ipad", revision: 1, state: stateBytes("large", 1, size: 300_000))
        batch.appendJournal(scene: "large", revision: 1, change: [7], layoutHash: "2abcdef01234567")
        try store.commit(batch)
        let after = try #require(store.database.walWriteCounts)
        #expect(after.writes - before.writes >= 3)
        #expect(after.held == 0)
        let reader = try Database(path: directory.database, mode: .readOnly)
        defer { try? reader.close() }
        #expect(try reader.integer("SELECT length(state) FROM scenes WHERE id = 'large'") == 300_000)
        #expect(try store.loadScenes().first { $0.id == "large" }?.state == stateBytes("large", 1, size: 300_000))
        // Recovery checks what readers do not: every frame header and checksum in the file.
        let copy = TemporaryDirectory()
        try copyAsACrashLeavesIt(directory.database, to: copy.database)
        let recovered = try openStore(copy.database)
        defer { try? recovered.close() }
        #expect(try recovered.loadScenes().first { $0.id == "large" }?.state == stateBytes("large", 1, size: 300_000))
    }

    /// A transaction larger than the page cache spills frames into the WAL before it commits;
    /// changing a spilled page again overwrites its frame, and the commit then rewrites the
    /// checksums of the frames from there on (walRewriteChecksums), the commit frame's header
    /// last. A rewritten header held back would stay in memory after the commit returned: the
    /// file would hold the commit frame with its old checksum, and recovery would drop the
    /// whole committed transaction.
    @Test("a commit whose frame checksums SQLite rewrites is whole in the file when it returns")
    func rewrittenChecksumsReachTheFile() throws {
        let directory = TemporaryDirectory(), copy = TemporaryDirectory()
        let database = try Database(path: directory.database, mode: .readWrite)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = NORMAL")
        try database.execute("PRAGMA cache_size = 8")
        try database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB NOT NULL)")
        let before = try #require(database.walWriteCounts)
        try database.execute("BEGIN")
        // ~200 pages of rows: the 8-page cache spills them into the WAL mid-transaction.
        try database.execute(
            "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 200) INSERT INTO t SELECT k, zeroblob(3000) FROM n"
        )
        // The first rows' pages were spilled: changing them again overwrites their frames.
        try database.execute("UPDATE t SET v = randomblob(3000) WHERE k <= 20")
        let changed = try #require(try database.integer("SELECT sum(length(v)) + count(*) FROM t WHERE k <= 20"))
        try database.execute("COMMIT")
        let after = try #require(database.walWriteCounts)
        #expect(after.held == 0, "nothing is held once the commit returned")
        #expect(after.writes > before.writes)
        // The files as a SIGKILL now would leave them, recovered by a fresh connection.
        try copyAsACrashLeavesIt(directory.database, to: copy.database)
        let recovered = try Database(path: copy.database, mode: .readWrite)
        defer { try? recovered.close() }
        #expect(try recovered.integer("SELECT count(*) FROM t") == 200)
        #expect(try recovered.integer("SELECT sum(length(v)) + count(*) FROM t WHERE k <= 20") == changed)
        #expect(try recovered.integer("SELECT count(*) FROM t WHERE k <= 20 AND v = zeroblob(3000)") == 0)
        try database.close()
    }

    @Test("the WAL as the kernel holds it after the commits (a crash now) recovers every commit")
    func aCopyTakenWithoutCheckpointRecovers() throws {
        let directory = TemporaryDirectory()
        let copy = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.durability = .normal; $0.walCheckpointPages = 100_000
        }
        try commit(store, count: 60, stateSize: 5000)
        // Taken while the store is open and nothing was checkpointed: only the WAL holds the
        // commits, so recovery reads every frame, header and page.
        try copyAsACrashLeavesIt(directory.database, to: copy.database)
        try store.close()
        let recovered = try openStore(copy.database)
        defer { try? recovered.close() }
        let scenes = try recovered.loadScenes()
        #expect(scenes.count == 7)
        for scene in scenes {
            #expect(scene.state == stateBytes(scene.id, scene.revision, size: 5000))
        }
        #expect(scenes.map(\.revision).max() == 60)
        #expect(try recovered.counts().journalEntries == 60)
    }
}
