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

    private static func createIfMissing(_ directory: String) throws(StoreError) {
        if mkdir(directory, 0o700) == 0 { return }
        let failure = errno
        var info = stat()
        if failure == EEXIST, stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        throw StoreError.check(.cantOpen, code: SQLITE_CANTOPEN, operation: "create directory \(directory)",
                               message: String(cString: strerror(failure)))
    }
}
