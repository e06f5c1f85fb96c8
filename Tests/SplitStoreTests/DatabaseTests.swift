import Foundation
import CSQLite
import Glibc
import Testing
@testable import SplitStore

@Suite("SQLite wrapper")
struct DatabaseTests {
    @Test("values bound come back from columns unchanged")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.database, mode: .readWrite)
        try database.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB)")
        let insert = try database.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
        let values: [(Int64, Double, String, [UInt8])] = [
            (Int64.min, -0.5, "", []),
            (Int64.max, 1e300, "scène ⌘ 分屏", [0, 1, 255, 0]),
            (0, 0, "a\u{0}b", Array(repeating: 7, count: 5000)),
        ]
        for (integer, double, text, blob) in values {
            try insert.bind(integer, at: 1)
            try insert.bind(double, at: 2)
            try insert.bind(text, at: 3)
            try insert.bind(blob, at: 4)
            try insert.run()
        }
        let select = try database.prepare("SELECT i, d, s, b, s IS NULL, b IS NULL FROM t ORDER BY rowid")
        for (integer, double, text, blob) in values {
            #expect(try select.step())
            #expect(select.int64(at: 0) == integer)
            #expect(select.double(at: 1) == double)
            #expect(select.text(at: 2) == text)
            #expect(select.blob(at: 3) == blob)
            #expect(select.int64(at: 4) == 0, "empty text must not be stored as NULL")
            #expect(select.int64(at: 5) == 0, "an empty blob must not be stored as NULL")
        }
        #expect(try select.step() == false)
    }

    @Test("a NULL reads as nil text and the reset statement is reusable")
    func nullAndReuse() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.database, mode: .readWrite)
        let statement = try database.cached("SELECT ?1")
        #expect(try database.cached("SELECT ?1") === statement)
        try statement.bind(nil as String?, at: 1)
        #expect(try statement.step())
        #expect(statement.optionalText(at: 0) == nil)
        statement.reset()
        try statement.bind("x" as String?, at: 1)
        #expect(try statement.step())
        #expect(statement.optionalText(at: 0) == "x")
    }

    @Test("a failing transaction is rolled back and says so")
    func transactionRollback() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.database, mode: .readWrite)
        try database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        let error = storeError {
            try database.transaction("insert twice") { () throws(StoreError) in
                try database.execute("INSERT INTO t VALUES (1)")
                try database.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error?.kind == .constraint)
        #expect(error?.code == SQLITE_CONSTRAINT)
        #expect(error?.extendedCode == SQLITE_CONSTRAINT_PRIMARYKEY)
        #expect(error?.rolledBack == true)
        #expect(error?.operation == "insert twice")
        #expect(error?.description.contains("rolled back") == true)
        #expect(database.isInTransaction == false)
        #expect(try database.integer("SELECT count(*) FROM t") == 0)
    }

    @Test(
        "result codes are classified as the daemon needs them",
        arguments: [
            (SQLITE_FULL, Int32(0), StoreError.Kind.full),
            (SQLITE_IOERR_WRITE, ENOSPC, .full),
            (SQLITE_IOERR_FSYNC, EDQUOT, .full),
            (SQLITE_IOERR_WRITE, EIO, .ioError),
            // A file system remounted read-only, an immutable file, a file the process may not write.
            (SQLITE_IOERR_WRITE, EROFS, .readOnly),
            (SQLITE_IOERR_WRITE, EPERM, .readOnly),
            (SQLITE_IOERR_FSYNC, EROFS, .readOnly),
            (SQLITE_IOERR_TRUNCATE, EACCES, .readOnly),
            (SQLITE_IOERR, 0, .ioError),
            (SQLITE_READONLY, 0, .readOnly),
            (SQLITE_READONLY_DBMOVED, 0, .readOnly),
            (SQLITE_BUSY, 0, .busy),
            (SQLITE_BUSY_SNAPSHOT, 0, .busy),
            (SQLITE_LOCKED, 0, .locked),
            (SQLITE_CORRUPT, 0, .corrupt),
            (SQLITE_CORRUPT_INDEX, 0, .corrupt),
            (SQLITE_NOTADB, 0, .notADatabase),
            (SQLITE_CONSTRAINT_FOREIGNKEY, 0, .constraint),
            (SQLITE_CANTOPEN, 0, .cantOpen),
            (SQLITE_MISUSE, 0, .other),
            (SQLITE_NOMEM, 0, .other),
        ])
    func classification(code: Int32, systemErrno: Int32, kind: StoreError.Kind) {
        #expect(StoreError.Kind.classify(extendedCode: code, systemErrno: systemErrno) == kind)
    }
}

/// A database path SQLite would refuse with a vague message is refused with the reason.
@Suite("Database paths")
struct DatabasePathTests {
    @Test func aDirectoryIsNoDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db")
        #expect(mkdir(path, 0o700) == 0)
        do {
            _ = try SQLiteSceneStore(path: path, options: StoreOptions(durability: .normal))
            Issue.record("a directory was opened as a database")
        } catch {
            #expect("\(error)".contains("it is a directory"), "\(error)")
        }
        // Nothing was left next to it.
        #expect(access(path + ".lock", F_OK) != 0)
    }

    /// A file's permission bits (0 if it cannot be read).
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    /// SQLite creates a database 0644 less the umask, readable by every user of the machine,
    /// and its -wal and -shm files like it; the store creates it 0600 first.
    @Test func aNewDatabaseAndItsWALAreTheOwnersOnly() throws {
        let directory = TemporaryDirectory()
        var options = StoreOptions(durability: .normal)
        options.preallocatesWAL = true
        options.walCheckpointPages = 100
        let store = try SQLiteSceneStore(path: directory.database, options: options)
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1, 2, 3])
        try store.commit(batch)
        #expect(mode(directory.database) == 0o600)
        #expect(mode(directory.database + "-wal") == 0o600)
        #expect(mode(directory.database + "-shm") == 0o600)
        try store.close()
    }

    /// An existing database keeps the mode its operator gave it, and so does its new WAL.
    @Test func anExistingDatabaseKeepsItsMode() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try SQLiteSceneStore(path: directory.database, options: StoreOptions(durability: .normal))
            try store.close()
        }
        for suffix in ["-wal", "-shm"] { unlink(directory.database + suffix) }
        #expect(chmod(directory.database, 0o640) == 0)
        var options = StoreOptions(durability: .normal)
        options.preallocatesWAL = true
        options.walCheckpointPages = 100
        let store = try SQLiteSceneStore(path: directory.database, options: options)
        #expect(mode(directory.database) == 0o640)
        // Created with exactly the database's mode, as SQLite creates its WAL, whatever the
        // umask (which the in-process daemons of other tests set for a moment while they bind).
        #expect(mode(directory.database + "-wal") == 0o640)
        try store.close()
    }
}
