#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// An exclusive `flock` on `<database>.lock`, held while a store may write. The daemon
/// keeps every scene in memory, so a second writer on the same file would silently diverge
/// from it; the second one is refused at open instead. Read-only stores take no lock.
final class WriterLock {
    private var descriptor: Int32

    init(database path: String) throws(StoreError) {
        let lockPath = path + ".lock"
        descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError.check(.cantOpen, code: SQLITE_CANTOPEN, operation: "open \(lockPath)",
                                   message: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            close(descriptor)
            let message = failure == EWOULDBLOCK
                ? "another process (or store) has this database open for writing"
                : String(cString: strerror(failure))
            throw StoreError.check(.busy, code: SQLITE_BUSY, operation: "lock \(lockPath)", message: message)
        }
    }

    /// Releases the lock (the file stays: removing it could race a process locking it).
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
