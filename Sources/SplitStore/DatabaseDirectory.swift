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

    /// Refuses, with the real reason, a database path that SQLite would refuse with a vague
    /// one: a directory ("disk I/O error"), or a file in a directory the daemon cannot write
    /// ("attempt to write a readonly database": the WAL and shared-memory files go next to it).
    static func checkUsable(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw StoreError.check(.cantOpen, code: SQLITE_CANTOPEN, operation: "open \(path)",
                                   message: "it is a directory; database.path names the database file")
        }
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard access(parent, W_OK | X_OK) == 0 else {
            throw StoreError.check(.cantOpen, code: SQLITE_CANTOPEN, operation: "open \(path)",
                                   message: "cannot write in \(parent) (\(String(cString: strerror(errno)))): SQLite creates the WAL (-wal) and shared-memory (-shm) files next to the database")
        }
    }

    private static func createIfMissing(_ directory: String) throws(StoreError) {
        if mkdir(directory, 0o700) == 0 { return }
        let failure = errno
        var info = stat()
        if failure == EEXIST, stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        throw StoreError.check(.cantOpen, code: SQLITE_CANTOPEN, operation: "create directory \(directory)",
                               message: String(cString: strerror(failure)))
    }
}
