#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import Synchronization

/// Keeps a second writer off a database file, whatever name reaches it. The daemon keeps
/// every scene in memory, so a second writer on the same file would silently diverge from
/// it (on a hard link, each kept a WAL of its own, and one side's acknowledged changes were
/// gone at the next start); the second one is refused at open with `.busy` instead.
/// Read-only stores take no lock.
///
/// Two exclusive `flock`s, held while the store is open:
/// - on `<database>.lock`, named after the database's resolved path (symbolic links in the
///   file's name and its directories followed, as SQLite follows them): it covers a database
///   not created yet, and a link to the file or to a directory above it (a `LockFile`: a
///   symbolic link or anything but a regular file at `<database>.lock` is refused);
/// - on the database file itself, through a descriptor of its own: it covers every name of
///   the inode, hard links included.
///
/// On Linux, `flock` locks belong to an open file description and are independent of the
/// POSIX (`fcntl`) record locks SQLite takes on the same file: neither blocks the other.
/// (Network file systems may emulate `flock` with `fcntl` locks; WAL mode needs a local file
/// system anyway.)
///
/// The database file's descriptor stays open until the store's SQLite connections are
/// closed, and is never closed while SQLite may have the file open: POSIX locks belong to
/// the process and the inode, and closing *any* descriptor of the file releases all of the
/// process's locks on it, those SQLite holds through its own descriptors included (the
/// shared lock every WAL connection keeps on the database file). Another process could then
/// take the file's exclusive lock and, believing itself the last connection, checkpoint and
/// delete the WAL under the open store. Hence `release()` after the connections close, and
/// the registry of files this process holds: a second store of this process on the same
/// file is refused before anything opens that file again.
final class WriterLock {
    /// `<database>.lock`; nil once released.
    private var lockFile: LockFile?
    private var fileDescriptor: Int32
    /// The database file's device and inode (`SQLiteSceneStore.verifyFileInPlace`).
    let file: FileIdentity
    /// Set when the database file was empty (so taken as a new database) while the files
    /// next to it say it had been used: for the daemon's log (`emptyDatabaseWarning(_:lockExisted:)`).
    let emptyDatabaseWarning: String?

    /// Locks the database at `path`, whose resolved path (`DatabaseDirectory.resolvedPath`)
    /// is `resolved`.
    init(database path: String, resolved: String) throws(StoreError) {
        let named = resolved == path ? path : "\(path) (resolved: \(resolved))"
        let lockPath = resolved + ".lock"
        let lockExisted = access(lockPath, F_OK) == 0
        let lock: LockFile
        do {
            lock = try LockFile(path: lockPath)
        } catch {
            throw WriterLock.refusal(
                error, lockPath: lockPath,
                busy:
                    "another splitd (or another store of this process) has this database file open for writing: \(named)"
            )
        }
        // Before the file is created: an empty file found here is not one this start made.
        emptyDatabaseWarning = WriterLock.emptyDatabaseWarning(resolved, lockExisted: lockExisted)
        let descriptor: Int32
        let identity: FileIdentity
        do {
            try DatabaseDirectory.createFileIfMissing(resolved)
            (descriptor, identity) = try WriterLock.lockDatabaseFile(resolved, named: named)
        } catch {
            lock.release()
            throw error
        }
        lockFile = lock
        fileDescriptor = descriptor
        file = identity
    }

    /// Opens and `flock`s the database file, unless this process holds it already.
    private static func lockDatabaseFile(_ resolved: String, named: String) throws(StoreError) -> (Int32, FileIdentity)
    {
        let busy =
            "another splitd (or another store of this process) has this database file open for writing under another name (a hard link to it): \(named)"
        var status = stat()
        guard stat(resolved, &status) == 0 else { throw cantOpen("stat \(resolved)", errno) }
        // Refused without opening the file: closing a descriptor of it would drop the locks
        // SQLite holds on it for the other store.
        guard !isHeld(FileIdentity(status)) else {
            throw StoreError.check(.busy, code: SQLITE_BUSY, operation: "lock \(resolved)", message: busy)
        }
        // Any access mode can be flocked; the file is written through SQLite, not here.
        var descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if descriptor < 0 && errno == EACCES { descriptor = open(resolved, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else { throw cantOpen("open \(resolved)", errno) }
        guard fstat(descriptor, &status) == 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            // No store of this process writes the file (checked above): closing drops no lock
            // of a writer here.
            close(descriptor)
            throw refusal(failure, operation: "lock \(resolved)", busy: busy)
        }
        let identity = FileIdentity(status)
        hold(identity)
        return (descriptor, identity)
    }

    /// A warning when the database file exists but is empty, which the store takes as a new
    /// database (it is what an interrupted first start leaves: the `.lock`, then the empty
    /// file, before SQLite wrote its header), while the files next to it say it had been
    /// used: a `-wal` or `-shm` (SQLite creates them only once the file has its header, and
    /// discards a WAL found next to an empty file), or only the `.lock` of an earlier start.
    /// A truncated or replaced file would otherwise start with no scenes without a word.
    static func emptyDatabaseWarning(_ resolved: String, lockExisted: Bool) -> String? {
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 else { return nil }
        var companions: [String] = []
        for suffix in ["-wal", "-shm"] where stat(resolved + suffix, &status) == 0 {
            companions.append("\(resolved + suffix) (\(status.st_size) bytes)")
        }
        let restore = "If it held scenes, stop splitd and restore a backup (docs/STORAGE.md, \"Backup and restore\")"
        if !companions.isEmpty {
            return "the database file \(resolved) is empty and is taken as a new database, but "
                + "\(companions.joined(separator: " and ")) next to it say\(companions.count == 1 ? "s" : "") it was used "
                + "(truncated or replaced?); SQLite discards a WAL next to an empty database file. \(restore)"
        }
        guard lockExisted else { return nil }
        return "the database file \(resolved) is empty and is taken as a new database, but \(resolved).lock next to it "
            + "says a splitd opened it before: an interrupted first start leaves exactly this, a truncated or "
            + "replaced database too. \(restore)"
    }

    /// Releases both locks (the `.lock` file stays: removing it could race a process locking
    /// it). Only once the store's SQLite connections are closed (see the type's comment).
    func release() {
        guard let lockFile else { return }
        close(fileDescriptor)
        WriterLock.drop(file)
        lockFile.release()
        fileDescriptor = -1
        self.lockFile = nil
    }

    deinit { release() }

    /// The error for a `<database>.lock` not locked: `.busy` when another writer holds it.
    private static func refusal(_ failure: LockFile.Failure, lockPath: String, busy: String) -> StoreError {
        switch failure {
        case .held:
            return StoreError.check(.busy, code: SQLITE_BUSY, operation: "lock \(lockPath)", message: busy)
        case .symbolicLink:
            return StoreError.check(
                .cantOpen, code: SQLITE_CANTOPEN, operation: "open \(lockPath)",
                message: "it is a symbolic link (refused, not followed)")
        case .notRegularFile:
            return StoreError.check(
                .cantOpen, code: SQLITE_CANTOPEN, operation: "open \(lockPath)",
                message: "it is not a regular file")
        case .cannotOpen(let code):
            return cantOpen("open \(lockPath)", code)
        case .cannotLock(let code):
            return refusal(code, operation: "lock \(lockPath)", busy: busy)
        }
    }

    private static func refusal(_ failure: Int32, operation: String, busy: String) -> StoreError {
        guard failure == EWOULDBLOCK else {
            return StoreError.check(
                .cantOpen, code: SQLITE_CANTOPEN, operation: operation,
                message: String(cString: strerror(failure)))
        }
        return StoreError.check(.busy, code: SQLITE_BUSY, operation: operation, message: busy)
    }

    private static func cantOpen(_ operation: String, _ failure: Int32) -> StoreError {
        StoreError.check(
            .cantOpen, code: SQLITE_CANTOPEN, operation: operation, message: String(cString: strerror(failure)))
    }

    // MARK: The files this process holds

    /// A file, whatever its name.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private static let held = Mutex<Set<FileIdentity>>([])

    private static func isHeld(_ file: FileIdentity) -> Bool {
        held.withLock { $0.contains(file) }
    }

    private static func hold(_ file: FileIdentity) {
        _ = held.withLock { $0.insert(file) }
    }

    private static func drop(_ file: FileIdentity) {
        _ = held.withLock { $0.remove(file) }
    }
}
