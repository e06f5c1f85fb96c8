#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// Decides whether an existing file may be opened for writing, reading it through a
/// read-only connection so a refused file is never changed (no recovery, no checkpoint, no
/// migration). A damaged database is refused, never replaced or repaired.
///
/// Nor is anything created next to it: a read-only SQLite connection still creates the
/// `-wal` and `-shm` it finds missing (with the database file's mode), and a refused start
/// would leave them behind (read-only ones next to a read-only file break the next start
/// once the file is fixed). Without a `-wal` the database file holds every
/// commit, so it is read `immutable` (no lock, nothing created); with one, through the WAL,
/// which then exists already.
enum DatabaseVerification {
    /// What was found in a file that passed.
    struct Found {
        var schemaVersion: Int64
    }

    /// Returns nil when there is nothing to verify (no file, or an empty one). `resolved` is
    /// `path`'s `DatabaseDirectory.resolvedPath`, where the `-wal` is looked for.
    static func verify(
        path: String, resolved: String, check: IntegrityCheck,
        busyTimeoutMilliseconds: Int32
    ) throws(StoreError) -> Found? {
        guard fileHasContent(path) else { return nil }
        let operation = "open \(path)"
        do {
            let database = try Database(path: path, mode: readsFileAlone(resolved) ? .immutable : .readOnly)
            defer { try? database.close() }
            database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            let found = try verifyIdentity(database, operation: operation)
            try verifyPages(database, check: check, operation: operation)
            return found
        } catch {
            throw refusal(error, operation: operation)
        }
    }

    private static func verifyIdentity(_ database: Database, operation: String) throws(StoreError) -> Found {
        let version = try database.integer("PRAGMA user_version") ?? 0
        let application = try database.integer("PRAGMA application_id") ?? 0
        let objects = try database.integer("SELECT count(*) FROM sqlite_schema") ?? 0
        if application != Migrations.applicationID && (application != 0 || objects > 0) {
            throw StoreError.check(
                .incompatibleSchema, code: SQLITE_NOTADB, operation: operation,
                message: "a SQLite database of another application (application_id \(application))")
        }
        if version > Migrations.latestVersion {
            throw StoreError.check(
                .incompatibleSchema, code: SQLITE_NOTADB, operation: operation,
                message:
                    "schema version \(version) was written by a newer splitd; this binary knows up to \(Migrations.latestVersion)"
            )
        }
        return Found(schemaVersion: version)
    }

    private static func verifyPages(_ database: Database, check: IntegrityCheck, operation: String) throws(StoreError) {
        let pragma: String
        switch check {
        case .none: return
        case .quick: pragma = "PRAGMA quick_check(10)"
        case .full: pragma = "PRAGMA integrity_check(10)"
        }
        let findings = try database.texts(pragma)
        guard findings != ["ok"] else { return }
        throw StoreError.check(
            .corrupt, code: SQLITE_CORRUPT, operation: operation,
            message: "\(pragma) failed: \(findings.joined(separator: "; "))")
    }

    private static func refusal(_ error: StoreError, operation: String) -> StoreError {
        var refused = error
        refused.operation = operation
        if !refused.message.hasSuffix("left unchanged") {
            refused.message += "; refused, the file was left unchanged"
        }
        return refused
    }

    /// True when the database file (at `resolved`, its links followed) holds the whole
    /// database: no `-wal` next to it, nor a rollback journal (whose hot transaction a normal
    /// connection would see rolled back).
    private static func readsFileAlone(_ resolved: String) -> Bool {
        ["-wal", "-journal"].allSatisfy { access(resolved + $0, F_OK) != 0 && errno == ENOENT }
    }

    private static func fileHasContent(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_size > 0
    }
}
