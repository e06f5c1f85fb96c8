/// A scene as stored: its device, last acknowledged revision and the daemon's serialized
/// state (opaque to the store).
public struct StoredScene: Sendable, Hashable {
    public var id: String
    public var device: String
    public var revision: Int64
    public var state: [UInt8]
    /// Milliseconds since the epoch of the commit that created / last changed the row.
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(id: String, device: String, revision: Int64, state: [UInt8], createdAt: Int64, updatedAt: Int64) {
        self.id = id
        self.device = device
        self.revision = revision
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One accepted change of a scene: the request that produced `revision`.
public struct JournalEntry: Sendable, Hashable {
    public var scene: String
    public var revision: Int64
    /// The accepted request, serialized by the daemon.
    public var change: [UInt8]
    /// A hash of the layout the change produced, if the daemon records one.
    public var layoutHash: String?
    /// Milliseconds since the epoch of the commit that stored it.
    public var at: Int64

    public init(scene: String, revision: Int64, change: [UInt8], layoutHash: String?, at: Int64) {
        self.scene = scene
        self.revision = revision
        self.change = change
        self.layoutHash = layoutHash
        self.at = at
    }
}

/// A recorded snapshot session without its body: what `snapshot.list` shows.
public struct SnapshotSessionSummary: Sendable, Hashable {
    /// The session id the daemon chose (unique for the life of the database).
    public var session: String
    /// The number `nextSessionNumber()` reserved for it; orders sessions by creation.
    public var number: Int64
    public var scene: String
    public var baseRevision: Int64
    /// The requested sizes, serialized by the daemon.
    public var sizes: [UInt8]
    /// The content hash of the session's result.
    public var hash: String
    public var createdAt: Int64

    public init(
        session: String, number: Int64, scene: String, baseRevision: Int64, sizes: [UInt8],
        hash: String, createdAt: Int64
    ) {
        self.session = session
        self.number = number
        self.scene = scene
        self.baseRevision = baseRevision
        self.sizes = sizes
        self.hash = hash
        self.createdAt = createdAt
    }
}

/// A recorded snapshot session with its body: what `snapshot.get` returns.
public struct SnapshotSession: Sendable, Hashable {
    public var summary: SnapshotSessionSummary
    /// The session's result (snapshots and round trip), serialized by the daemon.
    public var body: [UInt8]

    public init(summary: SnapshotSessionSummary, body: [UInt8]) {
        self.summary = summary
        self.body = body
    }
}

/// Row counts and file size, for `stats`.
public struct StoreCounts: Sendable, Hashable {
    public var scenes: Int64
    public var journalEntries: Int64
    public var snapshotSessions: Int64
    /// page_count * page_size of the main file (the WAL not included).
    public var databaseBytes: Int64

    public init(scenes: Int64, journalEntries: Int64, snapshotSessions: Int64, databaseBytes: Int64) {
        self.scenes = scenes
        self.journalEntries = journalEntries
        self.snapshotSessions = snapshotSessions
        self.databaseBytes = databaseBytes
    }
}

/// What the store has done since it opened, for `stats` and logs.
public struct StoreStatistics: Sendable, Hashable {
    /// Batches committed.
    public var commits: Int64 = 0
    /// Batches that failed and were rolled back.
    public var failedCommits: Int64 = 0
    /// Operations (upserts, deletions, appends, inserts, meta writes) committed.
    public var operations: Int64 = 0
    /// Journal entries deleted by retention.
    public var prunedJournalEntries: Int64 = 0
    /// Wall time of the last successful commit, including its fsync, in nanoseconds.
    public var lastCommitNanoseconds: Int64 = 0
    /// WAL checkpoints run (copies of the WAL into the database file), off the writer's thread
    /// or, when the WAL outgrew that thread, by the writer.
    public var walCheckpoints: Int64 = 0
    /// Of those, the ones the writer ran itself (the WAL outgrew the thread).
    public var writerWALCheckpoints: Int64 = 0
    /// Of those, the last passes of a cycle, which held the writer's commits back so that
    /// the WAL could start over.
    public var walCheckpointsHoldingWriter: Int64 = 0
    /// Commits refused by `commitUnlessHeldBack` while such a pass ran (the caller retried).
    public var commitsHeldBack: Int64 = 0
    /// The longest time one such pass held the writer's commits back, in nanoseconds.
    public var longestWriterHoldNanoseconds: Int64 = 0
    /// Checkpoint cycles the writer raised from the background to the loop's priority (the
    /// WAL reached 1.5 times the threshold: the background left the thread too little CPU).
    public var walCheckpointCatchUps: Int64 = 0

    public init() {}
}

/// What rebuilds a scene at a past revision (`SceneStore.history`).
public enum SceneHistory: Sendable, Hashable {
    /// A checkpoint at or below the revision asked for, and the scene's journal entries
    /// above it up to that revision, oldest first.
    case replay(checkpoint: StoredScene, entries: [JournalEntry])
    /// The revision asked for is below `oldest`, the oldest one the store can rebuild.
    case pruned(oldest: Int64)
    /// No such scene.
    case unknownScene
}
