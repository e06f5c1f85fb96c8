import Foundation
import Glibc

/// A `SceneStore` that keeps everything in memory: the demo's store when no database is
/// given, and a test double that can be told to fail commits.
public final class MemorySceneStore: SceneStore, @unchecked Sendable {
    // @unchecked: used by the loop thread only, except `failure`, which a test may set from
    // another thread and is guarded by `lock`.
    private let lock = NSLock()
    private var injectedFailure: StoreError?
    private var scenes: [String: StoredScene] = [:]
    private var journalEntries: [String: [JournalEntry]] = [:]
    /// Every checkpoint of each scene, oldest first (like the journal, kept whole).
    private var checkpoints: [String: [StoredScene]] = [:]
    private var sessions: [String: SnapshotSession] = [:]
    private var metaValues: [String: String] = [:]
    private var sessionNumber: Int64 = 0
    private var isClosed = false
    public private(set) var statistics = StoreStatistics()
    private var injectedDelay: UInt32 = 0
    private var holdingBack = false

    /// A flush the daemon must run before it answers a commit (tests of the deferred flush);
    /// nil: commits count as durable when they return. Set before the daemon starts.
    public var deferredFlush: (any DurableFlush)?

    /// Microseconds every commit takes (a slow disk, for tests of what arrives meanwhile).
    public var commitDelayMicroseconds: UInt32 {
        get { lock.withLock { injectedDelay } }
        set { lock.withLock { injectedDelay = newValue } }
    }

    /// When set, `commit` fails with this error (and changes nothing).
    public var failure: StoreError? {
        get { lock.withLock { injectedFailure } }
        set { lock.withLock { injectedFailure = newValue } }
    }

    /// While true, `commitUnlessHeldBack` refuses every batch, as a SQLite store does during
    /// a WAL checkpoint's last pass (tests of the turns the daemon defers meanwhile).
    public var holdsCommitsBack: Bool {
        get { lock.withLock { holdingBack } }
        set { lock.withLock { holdingBack = newValue } }
    }

    public init() {}

    public func commitUnlessHeldBack(_ batch: StoreBatch) throws(StoreError) -> Bool {
        guard !batch.isEmpty else { return true }
        if holdsCommitsBack {
            statistics.commitsHeldBack += 1
            return false
        }
        try commit(batch)
        return true
    }

    public func commit(_ batch: StoreBatch) throws(StoreError) {
        guard !batch.isEmpty else { return }
        let delay = commitDelayMicroseconds
        if delay > 0 { usleep(delay) }
        if let failure {
            statistics.failedCommits += 1
            throw failure
        }
        for operation in batch.operations { apply(operation, of: batch) }
        statistics.commits += 1
        statistics.operations += Int64(batch.count)
    }

    private func apply(_ operation: StoreBatch.Operation, of batch: StoreBatch) {
        switch operation {
        case let .upsertScene(id, device, revision, state):
            let created = scenes[id]?.createdAt ?? 0
            scenes[id] = StoredScene(
                id: id, device: device, revision: revision, state: state, createdAt: created, updatedAt: 0)
            checkpoints[id, default: []].append(scenes[id]!)
        case let .deleteScene(id):
            scenes.removeValue(forKey: id)
            journalEntries.removeValue(forKey: id)
            checkpoints.removeValue(forKey: id)
            sessions = sessions.filter { $0.value.summary.scene != id }
        case let .appendJournal(scene, revision, change, layoutHash):
            journalEntries[scene, default: []].append(
                JournalEntry(
                    scene: scene, revision: revision, change: Array(batch.change(of: change)),
                    layoutHash: layoutHash, at: 0))
        case let .insertSnapshotSession(insert):
            let summary = SnapshotSessionSummary(
                session: insert.session, number: insert.number, scene: insert.scene,
                baseRevision: insert.baseRevision, sizes: insert.sizes, hash: insert.hash, createdAt: 0)
            sessions[insert.session] = SnapshotSession(summary: summary, body: insert.body)
        case let .setMeta(key, value):
            metaValues[key] = value
        case .answerForwarded:
            // Only cluster mode forwards requests; this store serves one host.
            break
        }
    }

    public func loadScenes() throws(StoreError) -> [StoredScene] {
        scenes.values.sorted { $0.id < $1.id }
    }

    public func journal(scene: String, from revision: Int64, limit: Int?) throws(StoreError) -> [JournalEntry] {
        let entries = (journalEntries[scene] ?? []).filter { $0.revision >= revision }
        return limit.map { Array(entries.prefix($0)) } ?? entries
    }

    public var keepsHistory: Bool { true }

    public func history(scene: String, revision: Int64) throws(StoreError) -> SceneHistory {
        guard let kept = checkpoints[scene], let oldest = kept.first else { return .unknownScene }
        guard let checkpoint = kept.last(where: { $0.revision <= revision }) else {
            return .pruned(oldest: oldest.revision)
        }
        let entries = (journalEntries[scene] ?? []).filter {
            $0.revision > checkpoint.revision && $0.revision <= revision
        }
        return .replay(checkpoint: checkpoint, entries: entries.sorted { $0.revision < $1.revision })
    }

    public func journalTails() throws(StoreError) -> [JournalEntry] {
        scenes.values.sorted { $0.id < $1.id }.flatMap { scene in
            (journalEntries[scene.id] ?? []).filter { $0.revision > scene.revision }.sorted {
                $0.revision < $1.revision
            }
        }
    }

    public func snapshotSessions(scene: String) throws(StoreError) -> [SnapshotSessionSummary] {
        sessions.values.map(\.summary).filter { $0.scene == scene }.sorted { $0.number < $1.number }
    }

    public func snapshotSession(id: String) throws(StoreError) -> SnapshotSession? {
        sessions[id]
    }

    public func nextSessionNumber() -> Int64 {
        sessionNumber += 1
        return sessionNumber
    }

    public func meta(key: String) throws(StoreError) -> String? { metaValues[key] }

    public func counts() throws(StoreError) -> StoreCounts {
        StoreCounts(
            scenes: Int64(scenes.count), journalEntries: Int64(journalEntries.values.map(\.count).reduce(0, +)),
            snapshotSessions: Int64(sessions.count), databaseBytes: 0)
    }

    public func checkpoint() throws(StoreError) {}

    public func close() throws(StoreError) { isClosed = true }
}
