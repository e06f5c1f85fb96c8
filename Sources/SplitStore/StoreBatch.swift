/// Everything one loop turn changed, committed at once by `SceneStore.commit(_:)`: all of it
/// or none of it.
///
/// Operations apply in the order they were added, so a scene created, deleted and created
/// again in one turn ends as the second creation. A snapshot session must follow the upsert
/// of its scene (the table references `scenes`); deleting a scene deletes its snapshot
/// sessions and turns its journal entries into history. Reuse one batch across turns with
/// `removeAll()` to keep its storage.
public struct StoreBatch: Sendable {
    /// One change to the database.
    public enum Operation: Sendable, Hashable {
        /// Creates the scene or replaces its device, revision and state (a checkpoint): the
        /// journal entries appended before it are covered and no longer replayed.
        case upsertScene(id: String, device: String, revision: Int64, state: [UInt8])
        /// Deletes the scene and its snapshot sessions (no-op if absent); its journal entries
        /// become history, never replayed, and a new scene with the same id starts after them.
        case deleteScene(id: String)
        /// Records the change that produced `revision` at the end of the journal. The store
        /// trusts the daemon's order (one entry per revision, after the scene's creation); a
        /// restart refuses a scene whose entries above its checkpoint are not contiguous.
        /// `change` locates the record in the batch's `journalBytes` (`change(of:)`).
        case appendJournal(scene: String, revision: Int64, change: Range<Int>, layoutHash: String?)
        /// Records a snapshot session; `number` comes from `nextSessionNumber()`.
        case insertSnapshotSession(SnapshotSessionInsert)
        /// Sets a daemon-defined key in `meta`.
        case setMeta(key: String, value: String)
        /// Cluster mode: consumes the request another node forwarded for `scene` (`request`,
        /// its forwarding id) and records `reply` for that node, in the same transaction as
        /// the scene's other changes, so that a forwarded request is applied and answered
        /// exactly once. Only a cluster store sees it; a single-host store has nothing to do.
        case answerForwarded(scene: String, request: String, reply: [UInt8])
    }

    /// The operations, in the order they will apply.
    public private(set) var operations: [Operation] = []
    /// The journal entries' change records, one after the other: one buffer for the batch,
    /// where an array per entry was an allocation and a free per change.
    public private(set) var journalBytes: [UInt8] = []

    /// The record an `appendJournal` operation's `change` range locates.
    public func change(of range: Range<Int>) -> ArraySlice<UInt8> { journalBytes[range] }

    public init() {}

    public var isEmpty: Bool { operations.isEmpty }
    public var count: Int { operations.count }

    public mutating func upsertScene(id: String, device: String, revision: Int64, state: [UInt8]) {
        operations.append(.upsertScene(id: id, device: device, revision: revision, state: state))
    }

    public mutating func deleteScene(id: String) {
        operations.append(.deleteScene(id: id))
    }

    public mutating func appendJournal(scene: String, revision: Int64, change: [UInt8], layoutHash: String? = nil) {
        change.withUnsafeBytes { appendJournal(scene: scene, revision: revision, change: $0, layoutHash: layoutHash) }
    }

    public mutating func appendJournal(
        scene: String, revision: Int64, change: UnsafeRawBufferPointer, layoutHash: String? = nil
    ) {
        let start = journalBytes.count
        journalBytes.append(contentsOf: change)
        operations.append(
            .appendJournal(scene: scene, revision: revision, change: start..<journalBytes.count, layoutHash: layoutHash)
        )
    }

    public mutating func insertSnapshotSession(_ session: SnapshotSessionInsert) {
        operations.append(.insertSnapshotSession(session))
    }

    public mutating func setMeta(key: String, value: String) {
        operations.append(.setMeta(key: key, value: value))
    }

    public mutating func answerForwarded(scene: String, request: String, reply: [UInt8]) {
        operations.append(.answerForwarded(scene: scene, request: request, reply: reply))
    }

    /// Appends another batch's operations after this one's.
    public mutating func append(contentsOf other: StoreBatch) {
        let offset = journalBytes.count
        journalBytes.append(contentsOf: other.journalBytes)
        operations.append(
            contentsOf: other.operations.lazy.map { operation in
                guard case let .appendJournal(scene, revision, change, layoutHash) = operation else { return operation }
                return .appendJournal(
                    scene: scene, revision: revision,
                    change: (change.lowerBound + offset)..<(change.upperBound + offset),
                    layoutHash: layoutHash)
            })
    }

    /// Empties the batch, keeping its capacity for the next turn.
    public mutating func removeAll() {
        operations.removeAll(keepingCapacity: true)
        journalBytes.removeAll(keepingCapacity: true)
    }
}

/// A snapshot session to record (the store stamps `createdAt`).
public struct SnapshotSessionInsert: Sendable, Hashable {
    public var session: String
    public var number: Int64
    public var scene: String
    public var baseRevision: Int64
    public var sizes: [UInt8]
    public var hash: String
    public var body: [UInt8]

    public init(
        session: String, number: Int64, scene: String, baseRevision: Int64, sizes: [UInt8],
        hash: String, body: [UInt8]
    ) {
        self.session = session
        self.number = number
        self.scene = scene
        self.baseRevision = baseRevision
        self.sizes = sizes
        self.hash = hash
        self.body = body
    }
}
