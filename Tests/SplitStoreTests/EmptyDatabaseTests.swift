import Foundation
import Testing
@testable import SplitStore

/// A zero-length database file is taken as a new database (an interrupted first
/// start leaves one), silently even when the files next to it say the database had been
/// used (a truncated or replaced file). The writer lock sees the evidence before it creates
/// anything and words a warning for the daemon's log.
@Suite("Empty database file")
struct EmptyDatabaseTests {
    /// A closed database with one scene, its WAL left next to it as a crash leaves it.
    private func usedThenTruncated(_ directory: TemporaryDirectory) throws {
        let source = directory.file("source.db")
        let store = try openStore(source)
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        try store.commit(batch)
        try copyAsACrashLeavesIt(source, to: directory.database)
        try store.close()
        #expect(truncate(directory.database, 0) == 0)
    }

    private func writerLock(_ path: String) throws -> WriterLock {
        try WriterLock(database: path, resolved: DatabaseDirectory.resolvedPath(path))
    }

    @Test("an empty database file with a WAL next to it is opened as new, with a warning naming the WAL")
    func emptyFileWithAWAL() throws {
        let directory = TemporaryDirectory()
        try usedThenTruncated(directory)
        let lock = try writerLock(directory.database)
        let warning = try #require(lock.emptyDatabaseWarning)
        #expect(warning.contains(directory.database + "-wal"), "\(warning)")
        #expect(warning.contains("empty"), "\(warning)")
        lock.release()

        let store = try openStore(directory.database)
        #expect(try store.loadScenes().isEmpty)
        try store.close()
    }

    @Test("an empty file and its .lock alone (an interrupted first start) get a milder warning naming the .lock")
    func emptyFileWithItsLock() throws {
        let directory = TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.database, contents: nil))
        #expect(FileManager.default.createFile(atPath: directory.database + ".lock", contents: nil))
        let lock = try writerLock(directory.database)
        let warning = try #require(lock.emptyDatabaseWarning)
        #expect(warning.contains(directory.database + ".lock"), "\(warning)")
        #expect(warning.contains("interrupted first start"), "\(warning)")
        #expect(!warning.contains("-wal"), "\(warning)")
    }

    @Test("a new database, an empty file alone, and a database with content get no warning")
    func noWarning() throws {
        let directory = TemporaryDirectory()
        do {
            let lock = try writerLock(directory.database)
            #expect(lock.emptyDatabaseWarning == nil)
        }
        unlink(directory.database + ".lock")
        #expect(FileManager.default.createFile(atPath: directory.database, contents: nil))
        do {
            let lock = try writerLock(directory.database)
            #expect(lock.emptyDatabaseWarning == nil)
        }
        let store = try openStore(directory.database)
        try store.close()
        let lock = try writerLock(directory.database)
        #expect(lock.emptyDatabaseWarning == nil)
    }
}
