#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// The local SQLite implementation of `SceneStore`: one WAL-mode connection used by the
/// daemon's loop thread, statements prepared once, one transaction per batch.
public final class SQLiteSceneStore: SceneStore {
    /// The database file.
    public let path: String
    /// The options it was opened with.
    public let options: StoreOptions
    /// What the store has done since it opened.
    public var statistics: StoreStatistics {
        var current = recorded
        if let counts = walCheckpointer?.statistics {
            current.walCheckpoints = counts.passes + counts.writerCheckpoints
            current.writerWALCheckpoints = counts.writerCheckpoints
            current.walCheckpointsHoldingWriter = counts.passesHoldingWriter
            current.commitsHeldBack = counts.commitsRefused
            current.longestWriterHoldNanoseconds = counts.longestHoldNanoseconds
            current.walCheckpointCatchUps = counts.catchUps
        }
        return current
    }
    private var recorded = StoreStatistics()
    public let deferredFlush: (any DurableFlush)?
    private(set) var walCheckpointer: WALCheckpointer?
    /// What the opening changed or could not do that the operator should hear of (the
    /// daemon logs them as warnings): a WAL fitted to a small file system, a zero-fill that
    /// did not fit.
    public private(set) var openWarnings: [String] = []
    /// Set once the file was found deleted or replaced: every commit fails with it.
    private(set) var lostFile: String?
    /// What the previous `verifyFileInPlace` found, not yet confirmed.
    private var suspectedLoss: String?

    let database: Database
    private let writerLock: WriterLock?
    private var preparedStatements: StoreStatements?
    private var lastSessionNumber: Int64
    /// The journal's sequence, head and what holds the head back.
    var log = JournalLog(lastSeq: 0, headSeq: 1)

    /// Opens (creating when missing, with its directory) and verifies the database at `path`,
    /// then migrates it to the current schema. Refuses, leaving the file as it was, a file
    /// that is not a SQLite database, fails the integrity check, belongs to another
    /// application or was written by a newer splitd; refuses a read-only file in
    /// `.readWrite` access, and a database another read-write store holds (`.busy`).
    public init(path: String, options requested: StoreOptions = StoreOptions()) throws(StoreError) {
        self.path = path
        var options = requested
        var warnings: [String] = []
        if options.access == .readWrite { try DatabaseDirectory.createParent(of: path) }
        // The file SQLite opens (links followed), beside which it keeps its -wal and -shm:
        // resolved once its directories exist (a new file is then named in its real
        // directory), for every check, lock and file below.
        let resolved = DatabaseDirectory.resolvedPath(path)
        if options.access == .readWrite {
            try DatabaseDirectory.checkUsable(path, resolved: resolved)
            let lock = try WriterLock(database: path, resolved: resolved)
            writerLock = lock
            if let warning = lock.emptyDatabaseWarning { warnings.append(warning) }
            if options.backgroundWALCheckpoints, let room = Self.walRoom(databaseFile: resolved),
                let fitted = options.fittedWAL(toRoom: room)
            {
                warnings.append(
                    "the database's file system has room for \(Self.mebibytes(room)) of WAL: "
                        + "WAL checkpoints every \(fitted.walCheckpointPages) pages instead of \(options.walCheckpointPages), "
                        + "so that 4 cycles and their copies fit in it (more room: a restart takes the configured value)"
                )
                options = fitted
            }
        } else {
            writerLock = nil
        }
        self.options = options
        let found = try DatabaseVerification.verify(
            path: path, resolved: resolved, check: options.integrityCheck,
            busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        if options.access == .readOnly && found == nil {
            throw StoreError.check(
                .cantOpen, code: SQLITE_CANTOPEN, operation: "open \(path)",
                message: "no database to open read-only")
        }
        database = try Database(path: path, mode: options.access == .readOnly ? .readOnly : .readWrite)
        // The WAL SQLite writes is next to the file a symlinked path leads to: flushing
        // `path-wal` beside the link synced nothing (or, with no such file, failed).
        deferredFlush =
            options.access == .readWrite && options.defersFlush
            ? WALFlush(databasePath: resolved) : nil
        do {
            try SQLiteSceneStore.configure(database, options: options)
            preparedStatements = try StoreStatements(database)
            if options.access == .readWrite && options.preallocatesWAL {
                // Best effort: on a disk without room for it the WAL grows as it would anyway.
                // The WAL is next to the file SQLite opened, symlinks resolved (as SQLite does).
                let pageSize = Int(try database.integer("PRAGMA page_size") ?? 4096)
                let bytes = options.preallocatedWALBytes(pageSize: pageSize)
                do {
                    try WALPreallocation.extend(walPath: resolved + "-wal", to: bytes)
                } catch {
                    warnings.append(
                        "could not zero-fill the WAL to \(Self.mebibytes(Int64(bytes))) (\(error.message)); "
                            + "it grows as commits need, each growing flush writing the file's size too")
                }
            }
            lastSessionNumber = try database.integer(StoreStatements.lastSessionNumberSQL) ?? 0
            log = try SQLiteSceneStore.readLogBounds(preparedStatements!)
            try dropHistoryIfUnkept()
            if options.access == .readWrite && options.backgroundWALCheckpoints {
                let checkpointer = try WALCheckpointer(
                    path: path, synchronous: options.sqliteSynchronous,
                    thresholdPages: max(1, options.walCheckpointPages))
                checkpointer.install(on: database)
                walCheckpointer = checkpointer
            }
            openWarnings = warnings
        } catch {
            try? database.close()
            var failure = error
            if !failure.operation.hasPrefix("migrate") { failure.operation = "open \(path)" }
            throw failure
        }
    }

    /// Whether the database file the store opened is still the one its path names. A
    /// deleted file (`rm`, a cleanup job) or one replaced by another (a restored backup)
    /// keeps working through the open descriptors, and everything committed after that is
    /// lost with the process: SQLite does not notice in WAL mode. Once found, every commit
    /// fails with the problem (nothing more is acknowledged) until `rescue(to:)`. Returns
    /// the problem, nil while the file is in place or when its path cannot be examined.
    public func verifyFileInPlace() -> String? {
        if let lostFile { return lostFile }
        // The file the writer lock holds: the one opened, whatever its name leads to now.
        guard let fileIdentity = writerLock?.file else { return nil }
        var status = stat()
        var problem: String?
        if stat(path, &status) != 0 {
            guard errno == ENOENT else { return nil }
            problem = "was deleted"
        } else if UInt64(status.st_dev) != fileIdentity.device || UInt64(status.st_ino) != fileIdentity.inode {
            problem = "was replaced by another file"
        }
        // Two checks in a row (a second apart) before the file counts as lost: a symlinked
        // path re-created with `ln -sf` is missing for a moment.
        defer { suspectedLoss = problem }
        guard let problem, suspectedLoss == problem else { return nil }
        lostFile = problem
        // SQLite deletes the WAL and its index *by name* when the last connection closes: with
        // the file gone or replaced, those names may now belong to someone else's files.
        var persist: Int32 = 1
        _ = sqlite3_file_control(database.handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        return problem
    }

    /// Copies everything committed into a new database at `target` (SQLite's `VACUUM INTO`:
    /// a consistent copy, WAL included, made through the store's own connection, which still
    /// reads the lost file). The copy is written and synced under a temporary name in the same
    /// directory, then linked to `target`, which must not exist: a copy that fails half-way
    /// (a full disk) never sits at `target` for the next start to take as the database.
    public func rescue(to target: String) throws(StoreError) {
        let resolved = DatabaseDirectory.resolvedPath(target)
        let temporary = "\(resolved).partial-\(getpid())"
        unlink(temporary)
        do throws(StoreError) {
            let statement = try database.prepare("VACUUM INTO ?")
            try statement.bind(temporary, at: 1)
            try statement.run()
            // VACUUM INTO does not sync what it wrote.
            try Self.sync(temporary, flags: O_RDONLY)
            guard link(temporary, resolved) == 0 else {
                throw StoreError.check(
                    .ioError, code: SQLITE_IOERR, operation: "link \(temporary) to \(resolved)",
                    message: String(cString: strerror(errno)))
            }
            unlink(temporary)
            try Self.sync(PathName.directory(of: resolved), flags: O_RDONLY | O_DIRECTORY)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func sync(_ file: String, flags: Int32) throws(StoreError) {
        let descriptor = open(file, flags | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let code = errno
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw StoreError.check(
                .ioError, code: SQLITE_IOERR, operation: "sync \(file)", message: String(cString: strerror(code)))
        }
        Glibc.close(descriptor)
    }

    /// The bytes the WAL may use on the database's file system: what is free for an
    /// unprivileged writer plus the WAL file's own size (its blocks are reused); nil when
    /// the file system cannot say.
    static func walRoom(databaseFile file: String) -> Int64? {
        let directory = PathName.directory(of: file)
        var volume = statvfs()
        guard statvfs(directory, &volume) == 0 else { return nil }
        var wal = stat()
        let walBytes = stat(file + "-wal", &wal) == 0 ? Int64(wal.st_size) : 0
        return Int64(volume.f_bavail) * Int64(volume.f_frsize) + walBytes
    }

    static func mebibytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    private static func readLogBounds(_ statements: StoreStatements) throws(StoreError) -> JournalLog {
        let bounds = statements.journalBounds
        defer { bounds.reset() }
        guard try bounds.step(), !bounds.isNull(at: 1) else { return JournalLog(lastSeq: 0, headSeq: 1) }
        return JournalLog(lastSeq: bounds.int64(at: 1), headSeq: bounds.int64(at: 0))
    }

    private static func configure(_ database: Database, options: StoreOptions) throws(StoreError) {
        database.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        if options.cacheSizeKiB > 0 { try database.execute("PRAGMA cache_size = -\(options.cacheSizeKiB)") }
        if options.access == .readOnly {
            try requireCurrentSchema(database)
            return
        }
        if sqlite3_db_readonly(database.handle, "main") == 1 {
            throw StoreError.check(
                .readOnly, code: SQLITE_READONLY, operation: "open \(database.path)",
                message: "the database file is not writable")
        }
        let mode = try database.texts("PRAGMA journal_mode = WAL")
        guard mode == ["wal"] else {
            throw StoreError.check(
                .other, code: SQLITE_ERROR, operation: "open \(database.path)",
                message: "cannot use WAL journal mode (got \(mode)); is the file system local?")
        }
        // secure_delete: Debian builds SQLite with it on, zeroing every pruned journal cell and
        // freed page; the history holds nothing secret, and the zeroing is a measurable share of
        // a commit's instructions.
        try database.execute(
            """
            PRAGMA synchronous = \(options.sqliteSynchronous);
            PRAGMA foreign_keys = ON;
            PRAGMA journal_size_limit = \(options.effectiveWALSizeLimitBytes);
            PRAGMA secure_delete = OFF;
            """)
        try Migrations.migrate(database)
    }

    // A read-only store cannot migrate: an older schema would be misread.
    private static func requireCurrentSchema(_ database: Database) throws(StoreError) {
        let version = try database.integer("PRAGMA user_version") ?? 0
        guard version == Migrations.latestVersion else {
            throw StoreError.check(
                .incompatibleSchema, code: SQLITE_NOTADB, operation: "open \(database.path)",
                message:
                    "schema version \(version) needs migrating to \(Migrations.latestVersion); open it read-write first"
            )
        }
    }

    deinit { try? close() }

    /// The prepared statements, or an error once the store is closed.
    func statements() throws(StoreError) -> StoreStatements {
        guard let preparedStatements else {
            throw StoreError.check(
                .other, code: SQLITE_MISUSE, operation: "use \(path)", message: "the store is closed")
        }
        return preparedStatements
    }

    public func nextSessionNumber() -> Int64 {
        lastSessionNumber += 1
        return lastSessionNumber
    }

    public func checkpoint() throws(StoreError) {
        _ = try statements()
        var walFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let truncate = { [database] () throws(StoreError) in
            let code = sqlite3_wal_checkpoint_v2(
                database.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &walFrames, &checkpointed)
            guard code == SQLITE_OK else {
                throw Database.error(database.handle, code: code, operation: "checkpoint \(database.path)")
            }
        }
        if let walCheckpointer { try walCheckpointer.pause(truncate) } else { try truncate() }
    }

    public func close() throws(StoreError) {
        guard preparedStatements != nil else { return }
        preparedStatements = nil
        defer { writerLock?.release() }
        if let walCheckpointer {
            walCheckpointer.uninstall(from: database)
            walCheckpointer.stop()
            self.walCheckpointer = nil
        }
        try database.close()
    }

    /// Records a successful commit of `operations` that pruned `pruned` journal entries.
    func recordCommit(operations: Int, pruned: Int64, nanoseconds: Int64) {
        recorded.commits += 1
        recorded.operations += Int64(operations)
        recorded.prunedJournalEntries += pruned
        recorded.lastCommitNanoseconds = nanoseconds
    }

    func recordFailedCommit() {
        recorded.failedCommits += 1
    }
}

/// Nanoseconds of the monotonic clock.
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
