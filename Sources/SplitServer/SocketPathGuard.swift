import Glibc
import SplitLoop
import SplitStore

/// The filesystem rules for a self-bound socket path: a private directory, no symlinks, never
/// unlinking anything but a stale socket of our own kind.
public enum SocketPathGuard {
    /// Prepares `path` for `bind`: creates its directory (`0700`, or `0750` when a group shares
    /// it) if missing, takes the lock on `PATH.lock` (refused, "in use", while another daemon
    /// holds it), refuses a symlink or a non-socket at `path`, refuses a socket something
    /// still listens on, and removes a stale one. The daemon calls it before it opens its
    /// database, so that a refused start creates none, and keeps the lock through bind and
    /// listen and for as long as it listens: without it, a daemon that has bound but not yet
    /// listened looks stale to a second one starting at the same moment, which would unlink
    /// its socket file and bind its own (both then report ready).
    @discardableResult
    public static func prepare(path: String, group: UInt32?) throws(SystemError) -> LockFile {
        guard path.hasPrefix("/") || !path.isEmpty else { throw SystemError("socket path is empty") }
        try ensureDirectory(PathName.directory(of: path), group: group)
        let held = try lock(socketPath: path)
        if let refusal = refusal(path) { throw SystemError(refusal) }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .errno("cannot remove stale socket \(path)")
        }
        return held
    }

    /// Why `path` cannot be bound: a symlink, something that is not a socket, or a socket
    /// something listens on. nil: nothing there, or a stale socket.
    private static func refusal(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            return "cannot inspect socket path \(path): \(String(cString: strerror(errno)))"
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK { return "refusing socket path \(path): it is a symbolic link" }
        guard kind == S_IFSOCK else {
            return "refusing socket path \(path): it exists and is not a socket (not removing it)"
        }
        if isListening(path) { return "socket \(path) is in use: another daemon is listening on it" }
        return nil
    }

    /// Locks `socketPath.lock` without waiting. A socket-activated daemon takes no such lock:
    /// systemd bound and listens on the socket before the daemon runs. The file is `0600`,
    /// owned by the daemon, whatever group shares the socket: only daemons open it, never
    /// clients.
    static func lock(socketPath: String) throws(SystemError) -> LockFile {
        let path = socketPath + ".lock"
        do {
            return try LockFile(path: path)
        } catch {
            switch error {
            case .held:
                throw SystemError(
                    "socket \(socketPath) is in use: another daemon is listening on it (or starting to: it holds \(path))"
                )
            case .symbolicLink:
                throw SystemError("refusing lock file \(path): it is a symbolic link")
            case .notRegularFile:
                throw SystemError("refusing lock file \(path): it is not a regular file")
            case .cannotOpen(let failure):
                throw SystemError("cannot open the lock file \(path): \(String(cString: strerror(failure)))")
            case .cannotLock(let failure):
                throw SystemError("cannot lock \(path): \(String(cString: strerror(failure)))")
            }
        }
    }

    /// Creates the socket directory chain; only directories created here get the private mode.
    static func ensureDirectory(_ dir: String, group: UInt32?) throws(SystemError) {
        var info = stat()
        if stat(dir, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError("\(dir) is not a directory") }
            return
        }
        guard errno == ENOENT else { throw .errno("cannot inspect \(dir)") }
        try ensureDirectory(PathName.directory(of: dir), group: group)
        let mode: mode_t = group == nil ? 0o700 : 0o750
        guard mkdir(dir, mode) == 0 || errno == EEXIST else { throw .errno("cannot create \(dir)") }
        if let group { _ = chown(dir, uid_t.max, group) }
        _ = chmod(dir, mode)  // mkdir's mode is filtered by the umask
    }

    /// True if connecting to the socket succeeds (someone accepts on it).
    static func isListening(_ path: String) -> Bool {
        let fd = UnixStream.makeSocket()
        guard fd >= 0, var address = UnixSocketAddress(path: path) else { return false }
        defer { close(fd) }
        let result = address.withSockaddr { connect(fd, $0, $1) }
        return result == 0
    }
}
