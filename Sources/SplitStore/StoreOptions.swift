#if canImport(Glibc)
import Glibc
#endif

/// When a commit counts as durable (WIRE.md `--durability`).
public enum Durability: String, Sendable, CaseIterable {
    /// The WAL is fsynced before a commit is acknowledged (`synchronous=FULL`, or a
    /// `deferredFlush` with `flushOffWriter`); an acknowledged change
    /// survives a power loss. The default.
    case full
    /// `synchronous=NORMAL`: the WAL is fsynced only at checkpoints; an acknowledged change
    /// survives a crash of splitd, but the last commits may be lost on power loss.
    case normal
}

/// What the store verifies when it opens an existing file.
public enum IntegrityCheck: String, Sendable, CaseIterable {
    /// Only the header, schema and version (the file must still be a splitd database).
    case none
    /// `PRAGMA quick_check`: every page and record, without cross-checking indexes. Default.
    case quick
    /// `PRAGMA integrity_check`: quick_check plus index consistency; slower on big files.
    case full
}

/// Whether the store may write.
public enum StoreAccess: String, Sendable {
    /// The daemon's mode: migrations run, commits write.
    case readWrite
    /// Inspection only (e.g. a tool reading a live daemon's database): nothing is created or
    /// migrated, and every commit fails with `.readOnly`.
    case readOnly
}

/// How a `SQLiteSceneStore` opens and behaves.
public struct StoreOptions: Sendable {
    public var durability: Durability
    public var integrityCheck: IntegrityCheck
    public var access: StoreAccess
    /// How long a write waits for another connection's lock before failing with `.busy`.
    /// Small: the daemon's loop waits this long at most.
    public var busyTimeoutMilliseconds: Int32
    /// Journal entries kept as history once checkpoints cover them, over all scenes: commits
    /// delete the head of the log past this many; entries a restart needs (above their
    /// scene's checkpoint) are always kept. 0 keeps everything.
    public var journalRetention: Int64
    /// Revisions of each scene kept readable in the past (`SceneStore.history`): the
    /// checkpoints a scene's row held before, and the journal entries above the oldest of
    /// them, are kept while that checkpoint is at most this many revisions below the scene's
    /// newest checkpoint; older ones are trimmed when the scene checkpoints. So every one of
    /// the last `historyRevisions` revisions (and up to a checkpoint interval more) can be
    /// rebuilt. 0 keeps no history (only the revisions above the scene's checkpoint).
    public var historyRevisions: Int64
    /// How stale the journal's pruning watermark may get: recomputing it is a pass over the
    /// scenes with changes above their checkpoint. 0 recomputes it at every commit.
    public var pruneRefreshMilliseconds: Int64
    /// Entries past the retention before a commit prunes them, so history runs up to this
    /// many (less one) entries over `journalRetention`. A prune at every commit rewrites the
    /// log's head pages and the freelist in each commit's WAL frames; batching the prunes
    /// spares that CPU per change. 1 prunes at every commit.
    public var pruneBatch: Int64
    /// Copy the WAL into the database file on a thread of its own (`WALCheckpointer`) instead
    /// of inside the commit that crosses 1000 pages. Read-write stores only.
    public var backgroundWALCheckpoints: Bool
    /// WAL size in pages that starts a background checkpoint (SQLite's automatic checkpoint
    /// uses 1000). 16000 (66 MB of WAL): a cycle copies each page the commits rewrote once,
    /// so longer cycles write the database file less per change, and its syncs and the
    /// writer's hold come rarer, which lowers the durable p99 (docs/PERFORMANCE.md). At 4
    /// times this the writer checkpoints itself so the WAL stays bounded.
    public var walCheckpointPages: Int32
    /// With `.full`: SQLite commits with `synchronous=NORMAL` and the store hands out
    /// `deferredFlush`, so the WAL's flush can run on another thread while the writer commits
    /// the next batch. False: `synchronous=FULL`, each commit flushes before it returns.
    public var flushOffWriter: Bool
    /// Zero-fill the WAL at open to 1.5 checkpoint cycles (`walCheckpointPages`
    /// frames), so commits overwrite instead of growing the file (`WALPreallocation`). The
    /// daemon turns it on; tests leave it off to keep their stores small.
    public var preallocatesWAL = false
    /// The WAL is truncated back to this size after a checkpoint (PRAGMA journal_size_limit).
    public var walSizeLimitBytes: Int64
    /// SQLite's page cache in KiB (PRAGMA cache_size = -N). SQLite's default (2 MiB) misses
    /// on journal pages under a many-window storm; 0 keeps SQLite's default.
    public var cacheSizeKiB: Int64
    /// Milliseconds since the epoch, stamped on rows (`created_at`, `updated_at`, `at`).
    public var clock: @Sendable () -> Int64

    public init(
        durability: Durability = .full,
        integrityCheck: IntegrityCheck = .quick,
        access: StoreAccess = .readWrite,
        busyTimeoutMilliseconds: Int32 = 100,
        journalRetention: Int64 = 10_000,
        historyRevisions: Int64 = 1000,
        pruneRefreshMilliseconds: Int64 = 200,
        pruneBatch: Int64 = 512,
        backgroundWALCheckpoints: Bool = true,
        flushOffWriter: Bool = false,
        walCheckpointPages: Int32 = 16_000,
        walSizeLimitBytes: Int64 = 64 << 20,
        cacheSizeKiB: Int64 = 16 << 10,
        clock: @escaping @Sendable () -> Int64 = wallClockMilliseconds
    ) {
        self.durability = durability
        self.integrityCheck = integrityCheck
        self.access = access
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.journalRetention = journalRetention
        self.historyRevisions = max(0, historyRevisions)
        self.pruneRefreshMilliseconds = pruneRefreshMilliseconds
        self.pruneBatch = max(1, pruneBatch)
        self.backgroundWALCheckpoints = backgroundWALCheckpoints
        self.flushOffWriter = flushOffWriter
        self.walCheckpointPages = walCheckpointPages
        self.walSizeLimitBytes = walSizeLimitBytes
        self.cacheSizeKiB = cacheSizeKiB
        self.clock = clock
    }
}

extension StoreOptions {
    /// Whether commits return before their flush (`SceneStore.deferredFlush`).
    var defersFlush: Bool { durability == .full && flushOffWriter }

    /// The WAL's size limit, never below the preallocated size (a WAL cut below it would grow
    /// again, each growing commit syncing the inode too). Counted in SQLite's default 4 KiB
    /// pages, which the store never changes.
    var effectiveWALSizeLimitBytes: Int64 {
        guard preallocatesWAL else { return walSizeLimitBytes }
        return max(walSizeLimitBytes, Int64(preallocatedWALBytes(pageSize: 4096)))
    }

    /// The size `preallocatesWAL` fills the WAL to: as far as a checkpoint cycle lets it grow
    /// under full load, 1.5 cycles (`WALCheckpointer.raisePages`). Filled to one cycle only,
    /// a loop that never sleeps grows the WAL past the zeros in every cycle, and
    /// `journal_size_limit` cuts the new blocks off again at the next restart of the WAL, so
    /// part of the time its commits would write blocks the file has to allocate and zero.
    func preallocatedWALBytes(pageSize: Int) -> Int {
        let pages = WALCheckpointer.raisePages(threshold: max(1, walCheckpointPages))
        return WALPreallocation.size(pages: Int(pages), pageSize: pageSize)
    }

    /// These options with the WAL fitted to a file system that has `roomBytes` for it (free
    /// space plus the WAL file's own size), or nil when it fits already. The WAL's worst case
    /// is 4 checkpoint cycles (`WALCheckpointer.writerLimitPages`), and a cycle copies up to as
    /// many pages into the database file: both must fit, so the WAL gets at most half the
    /// room. With 16000 pages a cycle is 66 MB and the worst case 264 MB; on a smaller volume
    /// the WAL filled the disk before its first checkpoint and every change failed for good.
    /// Never below `minimumFittedPages`: on less room than that needs, commits fail `full`
    /// as they would anyway. The size limit follows, so a WAL that grew larger before (a
    /// bigger threshold, an older splitd) is cut back at its next restart.
    func fittedWAL(toRoom roomBytes: Int64, pageSize: Int = 4096) -> StoreOptions? {
        let frameBytes = Int64(pageSize + 24)
        let fitting = roomBytes / 2 / (4 * frameBytes)
        guard fitting < Int64(walCheckpointPages) else { return nil }
        var fitted = self
        fitted.walCheckpointPages = Int32(max(Int64(Self.minimumFittedPages), fitting))
        fitted.walSizeLimitBytes = min(walSizeLimitBytes, Int64(fitted.preallocatedWALBytes(pageSize: pageSize)))
        return fitted
    }

    /// The smallest threshold `fittedWAL` sets (the daemon's configuration allows 100 and up).
    static let minimumFittedPages: Int32 = 100

    /// SQLite's `synchronous` for every connection of the store: with the flush deferred,
    /// the commit only writes the WAL and `deferredFlush` makes it durable before anything
    /// is acknowledged; SQLite still syncs at checkpoints.
    var sqliteSynchronous: String { durability == .full && !flushOffWriter ? "FULL" : "NORMAL" }
}

/// The real-time clock in milliseconds since the Unix epoch.
public func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
