#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// Creates the missing directories above a database file, mode 0700 (the database holds
/// every client's state; nobody else needs to list it).
enum DatabaseDirectory {
    static func createParent(of path: String) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        let components = path.split(separator: "/").dropLast()
        for component in components {
            prefix += component
            try createIfMissing(prefix)
            prefix += "/"
        }
    }

    /// `path` absolute, with every symbolic link resolved: the file SQLite opens (it follows
    /// links itself) and puts its `-wal` and `-shm` next to. A file not created yet is named in
    /// its directory's real path, and a dangling link by its target, so the name is the one
    /// the file will have. `path` itself when its directory cannot be resolved.
    static func resolvedPath(_ path: String) -> String {
        var current = path
        // The kernel's limit on links followed in one lookup (ELOOP past it).
        for _ in 0..<40 {
            if let real = realpath(current, nil) {
                defer { free(real) }
                return String(cString: real)
            }
            // Missing (or a dangling link): resolve the directory, then follow the link by hand.
            let directory = PathName.directory(of: current)
            let name = PathName.name(of: current)
            guard let realDirectory = realpath(directory, nil) else { return path }
            let base = String(cString: realDirectory)
            free(realDirectory)
            let joined = (base == "/" ? "" : base) + "/" + name
            guard let target = linkTarget(joined) else { return joined }
            current = target.hasPrefix("/") ? target : (base == "/" ? "" : base) + "/" + target
        }
        return path
    }

    /// What the symbolic link at `path` points to, nil when it is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, Int(PATH_MAX))
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Refuses, with the real reason, a database path that SQLite would refuse with a vague
    /// one: a directory ("disk I/O error"), or a file in a directory the daemon cannot write
    /// ("attempt to write a readonly database": the WAL and shared-memory files go next to it).
    /// Also refuses, before anything is opened or created, a database file, `-wal` or `-shm`
    /// the process cannot write, naming it: SQLite opens such a file read-only without a word,
    /// and every write fails later (a store would say it is ready, then refuse every change,
    /// because of a read-only `-wal` and `-shm` next to a writable database file).
    /// `resolved` is `path`'s `resolvedPath`.
    static func checkUsable(_ path: String, resolved: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw StoreError.check(
                .cantOpen, code: SQLITE_CANTOPEN, operation: "open \(path)",
                message: "it is a directory; database.path names the database file")
        }
        // Where SQLite puts them: next to the file, its links followed.
        let parent = PathName.directory(of: resolved)
        guard access(parent, W_OK | X_OK) == 0 else {
            throw StoreError.check(
                .cantOpen, code: SQLITE_CANTOPEN, operation: "open \(path)",
                message:
                    "cannot write in \(parent) (\(String(cString: strerror(errno)))): SQLite creates the WAL (-wal) and shared-memory (-shm) files next to the database"
            )
        }
        for (suffix, role) in [
            ("", "the database file"), ("-wal", "its write-ahead log"), ("-shm", "its shared-memory index"),
        ] {
            let file = resolved + suffix
            guard access(file, F_OK) == 0, access(file, W_OK) != 0 else { continue }
            let reason = String(cString: strerror(errno))
            let message =
                suffix.isEmpty
                ? "the database file \(file) is not writable (\(reason))"
                : "\(file), \(role), is not writable (\(reason)): SQLite would open it read-only and every write would fail; give it the database file's owner and mode"
            throw StoreError.check(.readOnly, code: SQLITE_READONLY, operation: "open \(path)", message: message)
        }
    }

    /// Creates a missing database file empty, mode 0600, before SQLite opens it: SQLite would
    /// create it 0644 less the umask, readable by everyone on the machine, and it gives its
    /// -wal and -shm files the database file's mode. An existing file keeps its mode (an
    /// operator who widened it for a backup group meant it).
    static func createFileIfMissing(_ path: String) throws(StoreError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let failure = errno
        guard failure != EEXIST else { return }
        throw StoreError.check(
            .cantOpen, code: SQLITE_CANTOPEN, operation: "create \(path)",
            message: String(cString: strerror(failure)))
    }

    /// The permission bits of an existing file (what SQLite gives the files it creates next
    /// to the database), else 0600.
    static func permissions(of path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0o600 }
        return info.st_mode & 0o777
    }

    private static func createIfMissing(_ directory: String) throws(StoreError) {
        if mkdir(directory, 0o700) == 0 { return }
        let failure = errno
        var info = stat()
        if failure == EEXIST, stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        throw StoreError.check(
            .cantOpen, code: SQLITE_CANTOPEN, operation: "create directory \(directory)",
            message: String(cString: strerror(failure)))
    }
}
