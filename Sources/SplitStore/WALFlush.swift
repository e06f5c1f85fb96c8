#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// What makes commits durable when a store defers it (`SceneStore.deferredFlush`): every
/// commit that returned before `flush()` started is durable when it returns.
public protocol DurableFlush: AnyObject, Sendable {
    func flush() throws(StoreError)
}

/// Makes committed transactions durable: `fdatasync` of the WAL file, callable from a thread
/// other than the writer's, so the writer can commit its next transaction while the flush of
/// the previous ones is on its way to the disk.
///
/// A store with full durability opens SQLite with `synchronous=NORMAL` (its commit writes the
/// WAL frames and returns; SQLite still syncs at checkpoints) and hands out this handle: the
/// daemon answers a turn only after a `flush()` that *started* after the turn's commit
/// returned. That is what `synchronous=FULL` does inside the commit, one flush per commit;
/// here one flush covers every commit before it. The first flush also syncs the directory,
/// so the WAL file's own entry survives a power loss (SQLite does that at its first sync).
///
/// Use it from one thread at a time (the daemon's flush thread).
public final class WALFlush: DurableFlush, @unchecked Sendable {
    /// The WAL file.
    public let path: String
    private var descriptor: Int32 = -1

    init(databasePath: String) {
        path = databasePath + "-wal"
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Flushes everything written to the WAL so far; throws `.ioError` when the disk refused.
    /// After a failure the outcome of the unflushed commits is unknown (Linux may have dropped
    /// the dirty pages): the daemon must not acknowledge them and stops.
    public func flush() throws(StoreError) {
        if descriptor < 0 { try open() }
        guard fdatasync(descriptor) == 0 else { throw failure("fdatasync") }
    }

    private func open() throws(StoreError) {
        let opened = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard opened >= 0 else { throw failure("open") }
        descriptor = opened
        let directoryDescriptor = Glibc.open(PathName.directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw failure("open the directory of") }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw failure("fsync the directory of") }
    }

    private func failure(_ what: String) -> StoreError {
        let code = errno
        return StoreError.check(
            .ioError, code: SQLITE_IOERR, operation: "\(what) \(path)",
            message: String(cString: strerror(code)))
    }
}
