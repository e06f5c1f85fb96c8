import Glibc

/// The filesystem rules for a self-bound socket path: a private directory, no symlinks, never
/// unlinking anything but a stale socket of our own kind.
public enum SocketPathGuard {
    /// Prepares `path` for `bind`: creates its directory (`0700`, or `0750` when a group shares
    /// it) if missing, refuses a symlink or a non-socket at `path`, refuses a socket something
    /// still listens on, and removes a stale one.
    public static func prepare(path: String, group: UInt32?) throws(SystemError) {
        guard path.hasPrefix("/") || !path.isEmpty else { throw SystemError("socket path is empty") }
        try ensureDirectory(parent(of: path), group: group)
        if let refusal = refusal(path) { throw SystemError(refusal) }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .errno("cannot remove stale socket \(path)")
        }
    }

    /// Why `path` cannot be bound, found without changing anything, so that a daemon refused
    /// for it opens (or creates) no database first: a symlink, something that is not a
    /// socket, or a socket something listens on. nil: nothing there, or a stale socket.
    public static func refusal(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            return "cannot inspect socket path \(path): \(String(cString: strerror(errno)))"
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK { return "refusing socket path \(path): it is a symbolic link" }
        guard kind == S_IFSOCK else { return "refusing socket path \(path): it exists and is not a socket (not removing it)" }
        if isListening(path) { return "socket \(path) is in use: another daemon is listening on it" }
        return nil
    }

    /// Sets the socket file's mode after bind: `0600`, or `0660` owned by `group`.
    public static func restrict(path: String, group: UInt32?) throws(SystemError) {
        if let group {
            guard chown(path, uid_t.max, group) == 0 else { throw .errno("cannot give \(path) to group \(group)") }
        }
        guard chmod(path, group == nil ? 0o600 : 0o660) == 0 else { throw .errno("cannot set the mode of \(path)") }
    }

    /// The umask that makes `bind` create the socket no wider than its final mode.
    public static func bindUmask(group: UInt32?) -> mode_t { group == nil ? 0o177 : 0o117 }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// Creates the socket directory chain; only directories created here get the private mode.
    static func ensureDirectory(_ dir: String, group: UInt32?) throws(SystemError) {
        var info = stat()
        if stat(dir, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError("\(dir) is not a directory") }
            return
        }
        guard errno == ENOENT else { throw .errno("cannot inspect \(dir)") }
        try ensureDirectory(parent(of: dir), group: group)
        let mode: mode_t = group == nil ? 0o700 : 0o750
        guard mkdir(dir, mode) == 0 || errno == EEXIST else { throw .errno("cannot create \(dir)") }
        if let group { _ = chown(dir, uid_t.max, group) }
        _ = chmod(dir, mode) // mkdir's mode is filtered by the umask
    }

    /// True if connecting to the socket succeeds (someone accepts on it).
    static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0, var address = UnixSocketAddress(path: path) else { return false }
        defer { close(fd) }
        let result = address.withSockaddr { connect(fd, $0, $1) }
        return result == 0
    }
}
