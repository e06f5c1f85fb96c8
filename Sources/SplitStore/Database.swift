#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import CSQLiteVFS

/// SQLITE_IOERR_SHORT_READ (sqlite3.h defines extended codes as expressions Swift does not import).
private let SQLITE_IOERR_SHORT_READ_CODE = SQLITE_IOERR | (2 << 8)

/// One SQLite connection, used by one thread (opened NOMUTEX: SQLite does no locking of its
/// own on it), with a cache of prepared statements and IMMEDIATE transactions.
public final class Database {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Never writes, never creates; used to verify a file before trusting it.
        case readOnly
        /// Reads and writes, creating the file when it is missing.
        case readWrite
        /// Reads the database file alone, as it is on disk: no lock, no `-wal` read, nothing
        /// created next to it (SQLite's `immutable=1`). Only for a file nobody writes
        /// meanwhile and that has no `-wal` (whose commits it would not see).
        case immutable
    }

    let handle: OpaquePointer
    /// The file this connection opened.
    public let path: String
    private var statements: [String: Statement] = [:]
    // BEGIN and COMMIT prepared once: sqlite3_exec parses them again at every transaction.
    private var beginStatement: Statement?
    private var commitStatement: Statement?
    private var isClosed = false

    /// Opens `path`. The file is not read until the first statement runs.
    public init(path: String, mode: Mode) throws(StoreError) {
        let access =
            switch mode {
            case .readOnly: SQLITE_OPEN_READONLY
            case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            }
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var connection: OpaquePointer?
        // Read-write connections write the WAL through the coalescing VFS (one write per
        // frame instead of two); read-only ones, which write nothing, use the default.
        let vfs = mode == .readWrite ? Database.coalescingVFS : nil
        let name = mode == .immutable ? Database.immutableURI(path) : path
        let code = sqlite3_open_v2(name, &connection, flags, vfs)
        guard code == SQLITE_OK, let connection else {
            let error = Database.error(connection, code: code, operation: "open \(path)")
            sqlite3_close_v2(connection)
            throw error
        }
        sqlite3_extended_result_codes(connection, 1)
        self.handle = connection
        self.path = path
    }

    /// `file:PATH?immutable=1`, the path percent-encoded (SQLite decodes `%HH`).
    private static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(hex[Int(byte >> 4)])
                uri.unicodeScalars.append(hex[Int(byte & 0xf)])
            }
        }
        return uri + "?immutable=1"
    }

    /// The coalescing VFS's name once registered, or nil (then the default VFS is used).
    private static let coalescingVFS: String? =
        splitd_register_coalescing_vfs() == SQLITE_OK ? SPLITD_COALESCING_VFS_NAME : nil

    deinit {
        if !isClosed {
            statements.removeAll()
            beginStatement = nil
            commitStatement = nil
            sqlite3_close_v2(handle)
        }
    }

    /// Finalizes cached statements and closes the connection. Idempotent.
    public func close() throws(StoreError) {
        guard !isClosed else { return }
        statements.removeAll()
        beginStatement = nil
        commitStatement = nil
        isClosed = true
        // close_v2 defers the close until statements still held elsewhere are finalized.
        let code = sqlite3_close_v2(handle)
        guard code == SQLITE_OK else { throw Database.error(nil, code: code, operation: "close \(path)") }
    }

    // MARK: Statements

    /// Runs one or more SQL statements that return no rows needed by the caller.
    public func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        sqlite3_free(message)
        guard code == SQLITE_OK else { throw Database.error(handle, code: code, operation: sql) }
    }

    /// Prepares a statement the caller owns.
    public func prepare(_ sql: String) throws(StoreError) -> Statement {
        try Statement(connection: handle, sql: sql)
    }

    /// The prepared statement for `sql`, prepared on first use and reused afterwards.
    public func cached(_ sql: String) throws(StoreError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql` as an integer, nil when there is no row.
    public func integer(_ sql: String) throws(StoreError) -> Int64? {
        let statement = try cached(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// Every row's first column of `sql` as text.
    public func texts(_ sql: String) throws(StoreError) -> [String] {
        let statement = try prepare(sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(at: 0)) }
        return rows
    }

    // MARK: Settings

    /// How long a statement waits for another connection's lock before failing with BUSY.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// The rowid of the last row inserted into a rowid table on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True between BEGIN and COMMIT/ROLLBACK.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Transactions

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction (the write lock is taken up front, so
    /// a busy database fails at BEGIN, inside the busy timeout) and commits it. If `body`
    /// or COMMIT fails, the transaction is rolled back and the error, re-labelled with
    /// `operation` (only then built), has `rolledBack == true`: nothing of it was written.
    public func transaction<T>(
        _ operation: @autoclosure () -> String, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        do {
            try reusable(&beginStatement, "BEGIN IMMEDIATE").run()
            let result = try body()
            try commit()
            return result
        } catch {
            rollbackIfOpen()
            var failure = error
            failure.operation = operation()
            failure.rolledBack = true
            throw failure
        }
    }

    /// Steps COMMIT itself to catch the failed call's errno: SQLite records it
    /// (`sqlite3_system_errno`) for errors raised while a statement runs, but a COMMIT that
    /// fails (its WAL write or sync refused) ends in OP_Halt, which leaves the recorded value
    /// as it was (0, or an earlier failure's). SQLite reads errno the same way
    /// (`unixGetLastError`); it is cleared first so that a stale one is never reported.
    private func commit() throws(StoreError) {
        let statement = try reusable(&commitStatement, "COMMIT")
        errno = 0
        let code = sqlite3_step(statement.handle)
        let failedCallErrno = errno
        sqlite3_reset(statement.handle)
        guard code == SQLITE_DONE else {
            throw Database.error(handle, code: code, operation: "step COMMIT", systemErrno: failedCallErrno)
        }
    }

    private func reusable(_ statement: inout Statement?, _ sql: String) throws(StoreError) -> Statement {
        if let statement { return statement }
        let prepared = try prepare(sql)
        statement = prepared
        return prepared
    }

    // SQLite rolls back by itself after some errors (FULL, IOERR, NOMEM); only roll back
    // a transaction that is still open.
    private func rollbackIfOpen() {
        guard isInTransaction else { return }
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    // MARK: Errors

    /// The classified error for a failed call on `connection` that returned `code`. For an
    /// I/O or open error, the system's errno of the failed call (`failedCallErrno` when the
    /// caller caught it, else what SQLite recorded) is classified too and told in the message:
    /// "disk I/O error" alone hid a file system remounted read-only or an immutable file.
    static func error(
        _ connection: OpaquePointer?, code: Int32, operation: String,
        systemErrno failedCallErrno: Int32? = nil
    ) -> StoreError {
        var extended = code
        var message = String(cString: sqlite3_errstr(code))
        var systemErrno: Int32 = 0
        if let connection {
            let latest = sqlite3_extended_errcode(connection)
            if latest & 0xff == code & 0xff { extended = latest }
            message = String(cString: sqlite3_errmsg(connection))
            // SQLite records the errno for I/O and open errors only (for the others it is
            // left over from an earlier failure); a short read has none.
            let primary = code & 0xff
            if (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN) && extended != SQLITE_IOERR_SHORT_READ_CODE {
                systemErrno = failedCallErrno ?? sqlite3_system_errno(connection)
            }
        }
        if systemErrno != 0 {
            message += ": \(String(cString: strerror(systemErrno))) (errno \(systemErrno))"
        }
        let kind = StoreError.Kind.classify(extendedCode: extended, systemErrno: systemErrno)
        return StoreError(kind: kind, code: code & 0xff, extendedCode: extended, operation: operation, message: message)
    }
}
