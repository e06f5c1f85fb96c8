import Foundation
import Testing
@testable import SplitStore

@Suite("Storage faults")
struct FaultTests {
    /// A checkpointed, closed database with `count` scenes of `stateSize` bytes.
    func populatedDatabase(_ path: String, scenes count: Int, stateSize: Int = 600) throws {
        let store = try openStore(path)
        var batch = StoreBatch()
        for index in 0..<count {
            let id = "scene-\(index)"
            batch.upsertScene(id: id, device: "ipad", revision: 1, state: stateBytes(id, 1, size: stateSize))
        }
        try store.commit(batch)
        try store.checkpoint()
        try store.close()
    }

    @Test(
        "a database with a garbage page is refused as corrupt and left byte-for-byte unchanged",
        arguments: [IntegrityCheck.quick, .full])
    func corruptRefused(check: IntegrityCheck) throws {
        let directory = TemporaryDirectory()
        try populatedDatabase(directory.database, scenes: 200)
        var bytes = try #require(contents(of: directory.database))
        let pageSize = 4096
        let pages = bytes.count / pageSize
        #expect(pages > 10)
        // A whole page in the middle: its b-tree header is no longer a valid page type.
        let page = pages / 2
        bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: repeatElement(0xA5, count: pageSize))
        try write(bytes, to: directory.database)

        let error = storeError { try openStore(directory.database) { $0.integrityCheck = check } }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("refused") == true)
        #expect(contents(of: directory.database) == bytes)
        #expect(contents(of: directory.database + "-wal").map(\.isEmpty) ?? true, "nothing was written to a WAL")
    }

    @Test("a text file is refused as not a database and left unchanged")
    func textFileRefused() throws {
        let directory = TemporaryDirectory()
        let text = Array(String(repeating: "scene a ipad 1366x1024\n", count: 300).utf8)
        try write(text, to: directory.database)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .notADatabase)
        #expect(error?.operation.contains(directory.database) == true)
        #expect(contents(of: directory.database) == text)
    }

    @Test("a write lock held by another connection fails the commit with .busy, then it works again")
    func busy() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.busyTimeoutMilliseconds = 20 }
        let other = try Database(path: directory.database, mode: .readWrite)
        try other.execute("BEGIN IMMEDIATE")
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        let error = storeError { try store.commit(batch) }
        #expect(error?.kind == .busy)
        #expect(error?.rolledBack == true)
        try other.execute("ROLLBACK")
        try store.commit(batch)
        #expect(try store.loadScenes().map(\.id) == ["a"])
    }

    @Test("a second writer on the same database is refused with .busy; readers are not")
    func secondWriterRefused() throws {
        let directory = TemporaryDirectory()
        let first = try openStore(directory.database)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .busy)
        #expect(error?.message.contains("open for writing") == true)
        let reader = try openStore(directory.database) { $0.access = .readOnly }
        #expect(try reader.loadScenes().isEmpty)
        try first.close()
        let second = try openStore(directory.database)
        try second.close()
    }

    @Test("a full database fails the commit with .full and nothing written; more room makes it work")
    func diskFull() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var first = StoreBatch()
        first.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        try store.commit(first)
        let pages = try #require(try store.database.integer("PRAGMA page_count"))
        try store.database.execute("PRAGMA max_page_count = \(pages)")

        var big = StoreBatch()
        for index in 0..<50 {
            big.upsertScene(
                id: "big-\(index)", device: "ipad", revision: 1, state: stateBytes("big", Int64(index), size: 2000))
        }
        let error = storeError { try store.commit(big) }
        #expect(error?.kind == .full)
        #expect(error?.rolledBack == true)
        #expect(try store.loadScenes().map(\.id) == ["a"])

        try store.database.execute("PRAGMA max_page_count = \(pages * 1000)")
        try store.commit(big)
        #expect(try store.loadScenes().count == 51)
    }

    @Test(
        "a database file the process may not write is refused at open with .readOnly",
        .enabled(if: getuid() != 0, "root writes through file permissions"))
    func readOnlyFile() throws {
        let directory = TemporaryDirectory()
        try populatedDatabase(directory.database, scenes: 1)
        chmod(directory.database, 0o444)
        defer { chmod(directory.database, 0o600) }
        let before = contents(of: directory.database)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .readOnly)
        #expect(contents(of: directory.database) == before)
    }
}
