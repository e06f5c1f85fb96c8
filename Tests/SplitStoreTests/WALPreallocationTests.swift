#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import SplitStore

/// The WAL zero-filled at open (`preallocatesWAL`) holds the same data as a grown one, also
/// when a crash leaves frames followed by zeros.
@Suite("WAL preallocation")
struct WALPreallocationTests {
    private func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    private func commit(_ store: SQLiteSceneStore, revisions: ClosedRange<Int64>) throws {
        for revision in revisions {
            var batch = StoreBatch()
            batch.upsertScene(id: "s", device: "ipad", revision: revision, state: stateBytes("s", revision))
            batch.appendJournal(scene: "s", revision: revision, change: [UInt8(revision % 251)])
            try store.commit(batch)
        }
    }

    @Test("the WAL is zero-filled to 1.5 checkpoint cycles at open and commits overwrite it")
    func fillsToOneAndAHalfCycles() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.preallocatesWAL = true; $0.walCheckpointPages = 64
        }
        // 96 frames: where the writer raises a lagging cycle, so a full load stays in the zeros.
        let expected = WALPreallocation.size(pages: 96, pageSize: 4096)
        #expect(expected == 32 + 96 * (24 + 4096))
        #expect(fileSize(directory.database + "-wal") == expected)
        try commit(store, revisions: 1...5)
        #expect(fileSize(directory.database + "-wal") == expected, "five small commits fit in the filled part")
        try store.close()
        let reopened = try openStore(directory.database)
        #expect(try reopened.loadScenes().map(\.revision) == [5])
        #expect(try reopened.journal(scene: "s", from: 1, limit: nil).map(\.revision) == [1, 2, 3, 4, 5])
    }

    @Test("the WAL's size limit never cuts it below the zeros")
    func sizeLimitKeepsTheFilledPart() throws {
        let filled = TemporaryDirectory(), plain = TemporaryDirectory()
        let preallocated = try openStore(filled.database) {
            $0.preallocatesWAL = true; $0.walCheckpointPages = 64; $0.walSizeLimitBytes = 4096
        }
        #expect(
            try preallocated.database.integer("PRAGMA journal_size_limit")
                == Int64(WALPreallocation.size(pages: 96, pageSize: 4096)))
        try preallocated.close()
        let grown = try openStore(plain.database) {
            $0.walCheckpointPages = 64; $0.walSizeLimitBytes = 4096
        }
        #expect(try grown.database.integer("PRAGMA journal_size_limit") == 4096)
        try grown.close()
    }

    @Test("without the option the WAL is not filled")
    func offByDefault() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.walCheckpointPages = 64 }
        #expect(fileSize(directory.database + "-wal") < WALPreallocation.size(pages: 64, pageSize: 4096))
        try store.close()
    }

    @Test("a crash leaves frames and then zeros: a restart recovers every commit")
    func recoversAfterCrash() throws {
        let directory = TemporaryDirectory(), copy = TemporaryDirectory()
        let store = try openStore(directory.database) {
            $0.preallocatesWAL = true; $0.walCheckpointPages = 256; $0.backgroundWALCheckpoints = false
        }
        try commit(store, revisions: 1...40)
        // The files as a SIGKILL would leave them: the store is still open, nothing checkpointed
        // or truncated; the WAL ends in zeros past the last frame.
        try copyAsACrashLeavesIt(directory.database, to: copy.database)
        let wal = contents(of: copy.database + "-wal") ?? []
        #expect(wal.count == WALPreallocation.size(pages: 384, pageSize: 4096))
        #expect(wal.suffix(4096).allSatisfy { $0 == 0 }, "the tail is still zeros")
        let recovered = try openStore(copy.database)
        #expect(try recovered.loadScenes().map(\.revision) == [40])
        #expect(try recovered.journal(scene: "s", from: 1, limit: nil).count == 40)
        try recovered.close()
        try store.close()
    }

    @Test("an existing longer WAL is left as it is")
    func neverShrinks() throws {
        let directory = TemporaryDirectory()
        let walPath = directory.database + "-wal"
        try write([UInt8](repeating: 7, count: 10_000), to: walPath)
        try WALPreallocation.extend(walPath: walPath, to: 4_000)
        #expect(contents(of: walPath) == [UInt8](repeating: 7, count: 10_000))
        try WALPreallocation.extend(walPath: walPath, to: 12_000)
        let extended = contents(of: walPath) ?? []
        #expect(extended.count == 12_000)
        #expect(extended.prefix(10_000).allSatisfy { $0 == 7 } && extended.suffix(2_000).allSatisfy { $0 == 0 })
    }

    @Test("a disk without room makes the fill fail, not the caller guess")
    func fullDiskThrows() {
        // /dev/full answers every write with ENOSPC.
        let error = storeError { try WALPreallocation.extend(walPath: "/dev/full", to: 1 << 20) }
        #expect(error?.kind == .ioError)
    }
}
