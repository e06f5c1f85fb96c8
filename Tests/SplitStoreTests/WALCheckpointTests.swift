#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import SplitStore

/// The WAL is copied into the database file by a thread of its own, never lost, and the
/// store keeps working (and stops cleanly) around it.
@Suite("Background WAL checkpoints")
struct WALCheckpointTests {
    /// Commits `count` batches, each upserting one of 20 scenes with a state of `stateSize` bytes.
    func commitBatches(_ store: SQLiteSceneStore, from first: Int = 0, count: Int, stateSize: Int) throws {
        for index in first..<(first + count) {
            var batch = StoreBatch()
            let scene = "s\(index % 20)"
            batch.upsertScene(
                id: scene, device: "ipad", revision: Int64(index + 1),
                state: stateBytes(scene, Int64(index + 1), size: stateSize))
            batch.appendJournal(scene: scene, revision: Int64(index + 1), change: [UInt8(index % 251)])
            try store.commit(batch)
        }
    }

    /// Waits (up to a generous deadline, this is not a speed test) until `condition` holds.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("past the threshold the WAL is checkpointed off the writer's thread, and nothing is lost")
    func checkpointsInBackground() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try openStore(directory.database) {
                $0.walCheckpointPages = 40; $0.durability = .normal
            }
            try commitBatches(store, count: 300, stateSize: 6000)
            #expect(eventually { store.statistics.walCheckpoints > 0 })
            #expect(store.statistics.failedCommits == 0)
            try commitBatches(store, from: 300, count: 300, stateSize: 6000)
            try store.checkpoint()
            #expect(contents(of: directory.database + "-wal")?.count == 0, "the final checkpoint truncates the WAL")
            try store.close()
        }
        let reopened = try openStore(directory.database)
        let scenes = try reopened.loadScenes()
        #expect(scenes.count == 20)
        for scene in scenes {
            #expect(scene.state == stateBytes(scene.id, scene.revision, size: 6000))
            #expect(scene.revision > 580, "every scene at its last committed revision")
        }
    }

    @Test("the WAL is fitted to the room its file system has")
    func walFittedToRoom() {
        let options = StoreOptions(walCheckpointPages: 16_000)
        // 8 MiB: 4 cycles and their copies in it, 254 frames of 4120 bytes a cycle.
        let fitted = options.fittedWAL(toRoom: 8 << 20)
        #expect(fitted?.walCheckpointPages == 254)
        #expect(fitted?.walSizeLimitBytes == Int64(WALPreallocation.size(pages: 381, pageSize: 4096)))
        // Room for the configured cycles: unchanged.
        #expect(options.fittedWAL(toRoom: 600 << 20)?.walCheckpointPages == nil)
        // Never below the smallest threshold the configuration allows.
        #expect(options.fittedWAL(toRoom: 1 << 20)?.walCheckpointPages == StoreOptions.minimumFittedPages)
    }

    @Test("a requested cycle checkpoints a WAL below its threshold and starts it over")
    func requestedCycle() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.walCheckpointPages = 16_000; $0.durability = .normal
        }
        try commitBatches(store, count: 30, stateSize: 6000)
        #expect(store.statistics.walCheckpoints == 0)
        let before = try #require(contents(of: directory.database + "-wal"))
        store.walCheckpointer?.requestCycle()
        #expect(eventually { store.statistics.walCheckpointsHoldingWriter > 0 })
        // The next transaction starts the WAL over: a new header (its salts), at the start.
        try commitBatches(store, from: 30, count: 1, stateSize: 6000)
        let after = try #require(contents(of: directory.database + "-wal"))
        #expect(Array(after[16..<24]) != Array(before[16..<24]), "the WAL's salts change when it starts over")
        try store.close()
        let scenes = try openStore(directory.database).loadScenes()
        #expect(scenes.count == 20)
    }

    @Test("without the thread, SQLite's own checkpoint still keeps the data")
    func withoutThread() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try openStore(directory.database) { $0.backgroundWALCheckpoints = false }
            try commitBatches(store, count: 50, stateSize: 6000)
            #expect(store.statistics.walCheckpoints == 0)
            try store.close()
        }
        #expect(try openStore(directory.database).loadScenes().count == 20)
    }

    @Test("closing a store stops its thread; another store opens the same file afterwards")
    func closeStopsThread() throws {
        let directory = TemporaryDirectory()
        for round in 0..<5 {
            let store = try openStore(directory.database) { $0.walCheckpointPages = 20 }
            try commitBatches(store, count: 30, stateSize: 5000)
            try store.close()
            #expect(try openStore(directory.database).loadScenes().count == 20, "round \(round)")
        }
    }

    @Test(
        "a writer that never pauses still gets its WAL started over: the file stays bounded", arguments: [false, true])
    func walStaysBounded(retryingHeldBackCommits: Bool) throws {
        let directory = TemporaryDirectory()
        let threshold: Int32 = 40
        let store = try openStore(directory.database) {
            $0.walCheckpointPages = threshold; $0.durability = .normal
        }
        var largest = 0
        for index in 0..<1200 {
            var batch = StoreBatch()
            let scene = "s\(index % 20)"
            batch.upsertScene(
                id: scene, device: "ipad", revision: Int64(index + 1),
                state: stateBytes(scene, Int64(index + 1), size: 6000))
            batch.appendJournal(scene: scene, revision: Int64(index + 1), change: [UInt8(index % 251)])
            if retryingHeldBackCommits {
                // The daemon's way: a refused commit is kept and tried again.
                while try !store.commitUnlessHeldBack(batch) { usleep(100) }
            } else {
                try store.commit(batch)
            }
            largest = max(largest, contents(of: directory.database + "-wal")?.count ?? 0)
        }
        // 4x the threshold, plus what one commit adds, in 4 KiB pages with their 24-byte headers.
        let bound = Int(threshold * 4 + 16) * (4096 + 24) + 32
        #expect(largest <= bound, "WAL reached \(largest) bytes")
        let statistics = store.statistics
        #expect(
            statistics.walCheckpointsHoldingWriter + statistics.writerWALCheckpoints > 0,
            "the WAL was started over: after a pass holding the writer back, or by the writer")
        #expect(statistics.walCheckpoints > statistics.writerWALCheckpoints, "the thread did passes")
        #expect(statistics.failedCommits == 0)
        if store.walCheckpointer?.raisesFallingBehindPasses == true {
            // The thread's syncs take milliseconds, in which this writer adds far more than
            // half a threshold: it raises those cycles out of the background.
            #expect(statistics.walCheckpointCatchUps > 0)
        }
        try store.close()
        #expect(try openStore(directory.database).loadScenes().map(\.revision).max() == 1200)
    }

    @Test("once the writer stops, the thread's last pass (holding the writer back) reaches the WAL's end")
    func lastPassHoldsTheWriter() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.walCheckpointPages = 40; $0.durability = .normal
        }
        try commitBatches(store, count: 100, stateSize: 6000)
        #expect(eventually { store.statistics.walCheckpointsHoldingWriter > 0 })
        #expect(eventually { store.statistics.longestWriterHoldNanoseconds > 0 }, "the hold is timed")
        try commitBatches(store, from: 100, count: 20, stateSize: 6000)
        try store.close()
        #expect(try openStore(directory.database).loadScenes().map(\.revision).max() == 120)
    }

    @Test("while the writer is held back a commit is refused and writes nothing, and a waiting commit goes on after")
    func heldBackCommits() throws {
        let directory = TemporaryDirectory()
        // A threshold the thread never reaches: only the test holds the writer back.
        let store = try openStore(directory.database) {
            $0.walCheckpointPages = 1_000_000; $0.preallocatesWAL = false
        }
        try commitBatches(store, count: 1, stateSize: 100)
        let checkpointer = try #require(store.walCheckpointer)
        var refused = StoreBatch()
        refused.upsertScene(id: "refused", device: "ipad", revision: 1, state: [1])
        var waitingBatch = StoreBatch()
        waitingBatch.upsertScene(id: "waiting", device: "ipad", revision: 1, state: [2])
        let waiting = waitingBatch
        nonisolated(unsafe) let shared = store
        let finished = NSCondition()
        nonisolated(unsafe) var waitingCommitted = false
        try checkpointer.holdingWriterForTesting { () throws in
            #expect(try !store.commitUnlessHeldBack(refused))
            #expect(try store.loadScenes().map(\.id).contains("refused") == false)
            Thread.detachNewThread {
                try? shared.commit(waiting)
                finished.lock()
                waitingCommitted = true
                finished.broadcast()
                finished.unlock()
            }
            usleep(100_000)
            finished.lock()
            #expect(!waitingCommitted, "a plain commit waits while the writer is held back")
            finished.unlock()
        }
        finished.lock()
        while !waitingCommitted { finished.wait() }
        finished.unlock()
        #expect(try store.commitUnlessHeldBack(refused))
        #expect(try Set(store.loadScenes().map(\.id)).isSuperset(of: ["refused", "waiting"]))
        #expect(store.statistics.commitsHeldBack == 1)
        try store.close()
    }
}

/// The flush the daemon runs before it acknowledges a turn (full durability).
@Suite("WAL flush")
struct WALFlushTests {
    @Test("a full-durability store defers its flush only when asked to, and flushes its WAL")
    func flushesTheWAL() throws {
        let directory = TemporaryDirectory()
        let plain = try openStore(directory.database)
        #expect(plain.deferredFlush == nil, "synchronous=FULL commits are durable on return")
        try plain.close()
        let store = try openStore(directory.database) { $0.flushOffWriter = true }
        let flush = try #require(store.deferredFlush as? WALFlush)
        #expect(flush.path == directory.database + "-wal")
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        try store.commit(batch)
        try flush.flush()
        try flush.flush()
        let normal = try openStore(directory.file("n.db")) {
            $0.durability = .normal; $0.flushOffWriter = true
        }
        #expect(normal.deferredFlush == nil, "normal durability never flushes per commit")
    }

    @Test("a WAL that cannot be opened is an I/O error naming the file, never a silent success")
    func missingWALFails() {
        let flush = WALFlush(databasePath: "/nonexistent-splitd-dir/splitd.db")
        let error = storeError { try flush.flush() }
        #expect(error?.kind == .ioError)
        #expect(error?.operation.contains("/nonexistent-splitd-dir/splitd.db-wal") == true)
    }
}
