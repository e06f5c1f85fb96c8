#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a lock file, taken without waiting and held until `release()`: the
/// database's `<database>.lock` (`WriterLock`) and a self-bound socket's `PATH.lock`
/// (SplitServer's `SocketPathGuard`). Each caller words the `Failure` for its own errors.
///
/// The file is created `0600` when missing and never removed: a process unlinking it could do
/// so while another has it open and is about to lock it; that one would then lock the
/// unlinked file while a third creates and locks a new one, and both would go on. An empty
/// file left behind costs nothing.
public final class LockFile {
    /// Why the lock was not taken.
    public enum Failure: Error, Equatable {
        /// Another open file description holds it (another process, or another lock of this one).
        case held
        /// The path is a symbolic link: refused, not followed to a file that would then be
        /// created or locked.
        case symbolicLink
        /// The path is something other than a regular file (a FIFO, a device...).
        case notRegularFile
        /// `open` failed with this errno.
        case cannotOpen(Int32)
        /// `flock` failed with this errno (not because the lock is held).
        case cannotLock(Int32)
    }

    public let path: String
    private var descriptor: Int32

    /// Opens (or creates) `path` and locks it without waiting.
    public init(path: String) throws(Failure) {
        self.path = path
        // O_NOFOLLOW: a symlink planted at the path is refused, not followed; O_NONBLOCK: a
        // FIFO there cannot hang the open.
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            throw failure == ELOOP ? .symbolicLink : .cannotOpen(failure)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            release()
            throw .notRegularFile
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            if failure == EINTR { continue }
            release()
            throw failure == EWOULDBLOCK ? .held : .cannotLock(failure)
        }
    }

    /// Releases the lock (the file stays).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
