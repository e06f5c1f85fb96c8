import Foundation
import Testing
@testable import SplitStore

@Suite("Opening and migrations")
struct MigrationTests {
    @Test("an empty path gets its directories (0700), the latest schema and WAL mode")
    func migrateFromNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/state/nested/splitd.db"
        let store = try openStore(path)
        for created in [directory.path + "/state", directory.path + "/state/nested"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: created)
            #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0, "\(created) is private")
        }
        #expect(try store.database.integer("PRAGMA user_version") == Migrations.latestVersion)
        #expect(try store.database.integer("PRAGMA application_id") == Migrations.applicationID)
        #expect(try store.database.texts("PRAGMA journal_mode") == ["wal"])
        #expect(try store.database.integer("PRAGMA foreign_keys") == 1)
        #expect(try store.database.integer("PRAGMA synchronous") == 2, "FULL is the default durability")
        let tables = try store.database.texts("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        #expect(tables == ["journal", "journal_history", "meta", "scene_checkpoints", "scenes", "snapshot_sessions"])
        #expect(try store.loadScenes().isEmpty)
    }

    @Test("NORMAL durability sets synchronous=NORMAL")
    func normalDurability() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database) { $0.durability = .normal }
        #expect(try store.database.integer("PRAGMA synchronous") == 1)
    }

    @Test("reopening keeps the schema version and the data, and migrates nothing twice")
    func reopen() throws {
        let directory = TemporaryDirectory()
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        do {
            let store = try openStore(directory.database)
            try store.commit(batch)
            try store.close()
        }
        let store = try openStore(directory.database)
        #expect(try store.database.integer("PRAGMA user_version") == Migrations.latestVersion)
        #expect(try store.loadScenes().map(\.id) == ["a"])
    }

    @Test("a database from a newer splitd is refused and left unchanged")
    func newerVersionRefused() throws {
        let directory = TemporaryDirectory()
        try openStore(directory.database).close()
        let newer = Migrations.latestVersion + 1
        do {
            let raw = try Database(path: directory.database, mode: .readWrite)
            try raw.execute("PRAGMA user_version = \(newer)")
            try raw.close()
        }
        let before = contents(of: directory.database)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .incompatibleSchema)
        #expect(error?.message.contains("newer") == true)
        #expect(error?.message.contains("\(newer)") == true)
        #expect(contents(of: directory.database) == before)
    }

    @Test("a SQLite database of another application is refused and left unchanged")
    func foreignDatabaseRefused() throws {
        let directory = TemporaryDirectory()
        do {
            let raw = try Database(path: directory.database, mode: .readWrite)
            try raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1)")
            try raw.close()
        }
        let before = contents(of: directory.database)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .incompatibleSchema)
        #expect(contents(of: directory.database) == before)
    }

    @Test("an empty file is a new database")
    func emptyFileMigrated() throws {
        let directory = TemporaryDirectory()
        try write([], to: directory.database)
        let store = try openStore(directory.database)
        #expect(try store.database.integer("PRAGMA user_version") == Migrations.latestVersion)
    }

    @Test("read-only access needs an existing database at the current schema")
    func readOnlyAccess() throws {
        let directory = TemporaryDirectory()
        #expect(storeError { try openStore(directory.database) { $0.access = .readOnly } }?.kind == .cantOpen)
        #expect(contents(of: directory.database) == nil, "read-only access creates nothing")

        let older = directory.file("older.db")
        do {
            let raw = try Database(path: older, mode: .readWrite)
            try raw.execute("PRAGMA application_id = \(Migrations.applicationID)")
            try raw.close()
        }
        #expect(storeError { try openStore(older) { $0.access = .readOnly } }?.kind == .incompatibleSchema)
    }

    @Test("the directory cannot be created over a file")
    func parentIsAFile() throws {
        let directory = TemporaryDirectory()
        try write([1], to: directory.file("blocker"))
        let error = storeError { try openStore(directory.file("blocker") + "/splitd.db") }
        #expect(error?.kind == .cantOpen)
    }
}
