#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// Extends the WAL file with zeros to the size a checkpoint cycle lets it reach, so that commits
/// overwrite blocks the file already has instead of growing it: the `fdatasync` of a commit
/// that grows the file must also write the inode's new size, which makes it slower than an
/// overwrite (docs/PERFORMANCE.md, "Figures behind the tunables"), and SQLite keeps the WAL at its
/// largest size once it has been there. PostgreSQL zero-fills its WAL segments for the same
/// reason (`wal_init_zero`).
///
/// Safe for SQLite: a WAL is read frame by frame up to the first frame whose salt and checksum
/// do not match the header, and a zero frame never matches; the header is rewritten when the
/// WAL restarts. Only bytes past the current end are written, so frames a crash left behind
/// are untouched. Runs on the writer's connection before anything else uses the database.
///
/// Only an optimization: when the disk cannot take the zeros (full, quota), the file is cut
/// back to its size before and the store opens as it would have without it.
enum WALPreallocation {
    /// Zero-fills `walPath` from its end up to `bytes`, then flushes it once. Throws (after
    /// restoring the file's size) when a write or the flush fails.
    static func extend(walPath: String, to bytes: Int) throws(StoreError) {
        // The database file's mode, as SQLite gives the WAL it creates: exactly that mode,
        // whatever the umask (its robust_open sets it on an empty file that lacks it).
        let databasePath = walPath.hasSuffix("-wal") ? String(walPath.dropLast(4)) : walPath
        let mode = DatabaseDirectory.permissions(of: databasePath)
        let descriptor = open(walPath, O_RDWR | O_CREAT | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure("open", walPath) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("stat", walPath) }
        let original = Int(status.st_size)
        if original == 0, status.st_mode & 0o777 != mode { _ = fchmod(descriptor, mode) }
        guard original < bytes else { return }
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = original
        while offset < bytes {
            let length = min(chunk.count, bytes - offset)
            let written = chunk.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, length, off_t(offset)) }
            guard written > 0 else { throw restoring(original, of: descriptor, after: failure("zero-fill", walPath)) }
            offset += written
        }
        guard fdatasync(descriptor) == 0 else {
            throw restoring(original, of: descriptor, after: failure("fdatasync", walPath))
        }
    }

    /// Gives the space back: the zeros past `size` are not part of the WAL.
    private static func restoring(_ size: Int, of descriptor: Int32, after error: StoreError) -> StoreError {
        _ = ftruncate(descriptor, off_t(size))
        return error
    }

    /// The WAL's size after `pages` frames of `pageSize` bytes (a 32-byte header, then a
    /// 24-byte header per frame).
    static func size(pages: Int, pageSize: Int) -> Int {
        32 + pages * (pageSize + 24)
    }

    private static func failure(_ what: String, _ path: String) -> StoreError {
        let code = errno
        return StoreError.check(
            .ioError, code: SQLITE_IOERR, operation: "\(what) \(path)",
            message: String(cString: strerror(code)))
    }
}
