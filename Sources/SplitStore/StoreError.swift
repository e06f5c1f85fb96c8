import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Why the store refused an operation.
///
/// `code` and `extendedCode` are SQLite's result codes (or a synthesized one for checks the
/// store makes itself, such as a failed `quick_check` or a schema from a newer binary);
/// `kind` is what the daemon branches on. When `rolledBack` is true, a transaction was
/// rolled back and nothing of the batch was written.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classes of failure the daemon reacts to differently.
    public enum Kind: String, Sendable, Hashable {
        /// SQLITE_FULL, or a disk I/O error whose system errno is ENOSPC/EDQUOT.
        case full
        /// SQLITE_READONLY and its extended codes (read-only file, directory or mount), or a
        /// disk I/O error whose system errno is EROFS/EPERM/EACCES (a file system remounted
        /// read-only, an immutable file, permissions changed under the daemon).
        case readOnly
        /// SQLITE_BUSY: another connection held the lock longer than the busy timeout.
        case busy
        /// SQLITE_LOCKED: a conflict inside this process (shared cache, open statement).
        case locked
        /// SQLITE_CORRUPT, or `quick_check`/`integrity_check` reported a problem.
        case corrupt
        /// SQLITE_NOTADB: the file is not a SQLite database.
        case notADatabase
        /// SQLITE_IOERR other than a full disk or a refused write.
        case ioError
        /// SQLITE_CONSTRAINT: the batch broke a key or foreign key (a daemon bug).
        case constraint
        /// SQLITE_CANTOPEN: the file or its directory could not be opened or created.
        case cantOpen
        /// The database was written by a newer binary, or belongs to another application.
        case incompatibleSchema
        /// Anything else (misuse, out of memory...).
        case other
    }

    public var kind: Kind
    /// SQLite primary result code (`extendedCode & 0xff`).
    public var code: Int32
    /// SQLite extended result code.
    public var extendedCode: Int32
    /// What the store was doing, e.g. "commit batch" or "open /var/lib/splitd/splitd.db".
    public var operation: String
    /// SQLite's message or the store's own explanation.
    public var message: String
    /// True when a transaction was rolled back: nothing of it reached the database.
    public var rolledBack: Bool

    public init(
        kind: Kind, code: Int32, extendedCode: Int32, operation: String, message: String,
        rolledBack: Bool = false
    ) {
        self.kind = kind
        self.code = code
        self.extendedCode = extendedCode
        self.operation = operation
        self.message = message
        self.rolledBack = rolledBack
    }

    public var description: String {
        var text = "\(operation): \(message) (\(kind.rawValue), SQLite code \(code)"
        if extendedCode != code { text += "/\(extendedCode)" }
        text += ")"
        if rolledBack { text += "; transaction rolled back, nothing was written" }
        return text
    }

    /// An error for the store's own checks, carrying the SQLite code that fits them best.
    static func check(_ kind: Kind, code: Int32, operation: String, message: String) -> StoreError {
        StoreError(kind: kind, code: code, extendedCode: code, operation: operation, message: message)
    }
}

extension StoreError.Kind {
    /// Classifies an extended result code; `systemErrno` disambiguates I/O errors.
    static func classify(extendedCode: Int32, systemErrno: Int32) -> StoreError.Kind {
        switch extendedCode & 0xff {
        case SQLITE_FULL: return .full
        case SQLITE_IOERR:
            if isDiskFull(errno: systemErrno) { return .full }
            return isWriteRefused(errno: systemErrno) ? .readOnly : .ioError
        case SQLITE_READONLY: return .readOnly
        case SQLITE_BUSY: return .busy
        case SQLITE_LOCKED: return .locked
        case SQLITE_CORRUPT: return .corrupt
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_CONSTRAINT: return .constraint
        case SQLITE_CANTOPEN: return .cantOpen
        default: return .other
        }
    }

    // A full disk can surface as SQLITE_IOERR_WRITE/FSYNC/TRUNCATE rather than SQLITE_FULL.
    private static func isDiskFull(errno: Int32) -> Bool {
        errno == ENOSPC || errno == EDQUOT
    }

    // A write the file system refuses: remounted read-only (EROFS, e.g. errors=remount-ro),
    // an immutable file (EPERM), permissions (EACCES). SQLite reports them as
    // SQLITE_IOERR_WRITE/FSYNC/TRUNCATE..., which read "disk I/O error": nothing is wrong
    // with the disk, and writes work again once the cause is gone.
    private static func isWriteRefused(errno: Int32) -> Bool {
        errno == EROFS || errno == EPERM || errno == EACCES
    }
}
