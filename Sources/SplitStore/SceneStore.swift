/// The daemon's only view of storage. Local SQLite (`SQLiteSceneStore`) is one
/// implementation; a replicated engine can be another without touching the core or the
/// protocol. Blobs are opaque: the daemon serializes scene states, changes and sessions.
///
/// A store is used by one thread (the daemon's loop) and is not `Sendable`.
/// Every method that fails throws a `StoreError`; a failed `commit` wrote nothing.
public protocol SceneStore: AnyObject {
    /// Applies `batch` in one transaction: all of it or, on error, none of it (the error
    /// then has `rolledBack == true` and the daemon reverts its in-memory state).
    /// Returns when the batch is durable as `Durability` defines. An empty batch is a no-op.
    func commit(_ batch: StoreBatch) throws(StoreError)

    /// `commit`, unless the store holds commits back for a moment (the last pass of a WAL
    /// checkpoint, a few ms to tens of ms): then false, nothing written, and the caller keeps
    /// the batch and tries again soon instead of blocking. An empty batch is a no-op (true).
    func commitUnlessHeldBack(_ batch: StoreBatch) throws(StoreError) -> Bool

    /// Every scene with the revision and state of its last checkpoint (the upsert that last
    /// wrote its row), in no particular order. Later changes are in `journalTails()`.
    func loadScenes() throws(StoreError) -> [StoredScene]

    /// The scene's journal entries with revision >= `revision`, oldest first, at most
    /// `limit` of them (nil: all), since the scene was created (a deleted scene's entries are
    /// not returned for a new scene with its id). History past the retention is gone. Scans
    /// the journal: for tools and tests, not for hot paths.
    func journal(scene: String, from revision: Int64, limit: Int?) throws(StoreError) -> [JournalEntry]

    /// Whether `history(scene:revision:)` can rebuild past revisions.
    var keepsHistory: Bool { get }

    /// What rebuilds `scene` at `revision`: the newest checkpoint at or below it and the
    /// scene's journal entries above that checkpoint up to `revision`, oldest first (fewer
    /// when `revision` is above what is stored). `.pruned` names the oldest revision the
    /// store can still rebuild. Reads a bounded window (the scene's retained history and the
    /// log): for a client asking for a past revision, not for hot paths.
    func history(scene: String, revision: Int64) throws(StoreError) -> SceneHistory

    /// Every journal entry above its scene's checkpoint: what a restart replays. Grouped by
    /// scene, oldest first within a scene.
    func journalTails() throws(StoreError) -> [JournalEntry]

    /// The scene's snapshot sessions, oldest first, without their bodies.
    func snapshotSessions(scene: String) throws(StoreError) -> [SnapshotSessionSummary]

    /// One snapshot session with its body, nil when unknown (or deleted with its scene).
    func snapshotSession(id: String) throws(StoreError) -> SnapshotSession?

    /// A number never returned before for this database, for a new session id. Not
    /// persisted until a batch inserting a session with it commits; a number whose batch
    /// failed is skipped, never reused.
    func nextSessionNumber() -> Int64

    /// A daemon-defined `meta` value, nil when unset.
    func meta(key: String) throws(StoreError) -> String?

    /// Row counts and database size (journal entries include history and entries of deleted
    /// scenes not pruned yet). Counting the journal scans it: call it on demand.
    func counts() throws(StoreError) -> StoreCounts

    /// What the store has done since it opened.
    var statistics: StoreStatistics { get }

    /// Non-nil when `commit` returns before the batch is durable: the caller acknowledges a
    /// commit only after a `flush()` of this handle that started after the commit returned
    /// (it may run on another thread). Nil: a commit is durable when it returns.
    var deferredFlush: (any DurableFlush)? { get }

    /// Whether the store's database file is still the one its path names; the problem
    /// ("was deleted", "was replaced by another file") once it is not, after which every
    /// commit fails until the daemon has rescued what was committed.
    func verifyFileInPlace() -> String?

    /// Writes everything committed into a new database file at `target` (which must not exist).
    func rescue(to target: String) throws(StoreError)

    /// Moves the WAL into the main file and truncates it (clean shutdown).
    func checkpoint() throws(StoreError)

    /// Closes the store; further calls fail. Idempotent.
    func close() throws(StoreError)
}

extension SceneStore {
    /// A store keeps no history unless it says so.
    public var keepsHistory: Bool { false }

    public func history(scene: String, revision: Int64) throws(StoreError) -> SceneHistory {
        throw StoreError.check(
            .other, code: 1, operation: "read scene \(scene) at revision \(revision)",
            message: "this store keeps no history")
    }

    public var deferredFlush: (any DurableFlush)? { nil }

    /// A store without a file of its own (memory) is always in place.
    public func verifyFileInPlace() -> String? { nil }

    public func rescue(to target: String) throws(StoreError) {
        throw StoreError.check(
            .other, code: 1, operation: "rescue to \(target)", message: "this store has no file to rescue")
    }

    /// A store that never holds commits back commits at once.
    public func commitUnlessHeldBack(_ batch: StoreBatch) throws(StoreError) -> Bool {
        try commit(batch)
        return true
    }

    /// Every journal entry of the scene from `revision` on.
    public func journal(scene: String, from revision: Int64) throws(StoreError) -> [JournalEntry] {
        try journal(scene: scene, from: revision, limit: nil)
    }
}
