import SplitCore
import SplitLoop
import SplitStore
import SplitWire

/// A scene's attachments at one moment, for a rollback.
struct AttachmentSnapshot {
    var attachments: [Connection.ID: Attachment]
    var latestSizeSource: Connection.ID?
}

/// Everything one loop turn staged (Redis's beforeSleep input): the store rows to commit as
/// one batch, each connection's replies and pushes in order, and how to undo the turn's
/// in-memory changes if the commit fails. Nothing staged here is visible to any client
/// before `Server.finishTurn()` commits it.
struct Turn {
    /// One item of a connection's output, in request order.
    enum Reply {
        /// A reply that stands whatever the commit does (errors, ping, stats...).
        case fixed([UInt8])
        /// A reply reading `scene`: answered only if the scene was not rolled back.
        case read([UInt8], id: RequestID, scene: String)
        /// A reply reporting a change, its bytes at `range` of the turn's `changeReplyBytes`
        /// (one buffer for the turn: an array per reply was an allocation, a copy and a free
        /// per change): answered only if the commit succeeds.
        case change(Range<Int>, id: RequestID, scene: String?)
        /// A reply reading what this turn staged (several scenes, snapshot sessions): answered
        /// only if the commit succeeds, else a `storage` error saying the read was not answered.
        case readStaged([UInt8], id: RequestID, what: String)
        /// A `scene.attach` reply: like `read`, and the attachment is undone on failure.
        case attach([UInt8], id: RequestID, scene: String)
        /// A layout push; dropped if the commit fails.
        case push(scene: String, revision: Int, bytes: [UInt8])
        /// An unsolicited notice about a change (a deleted scene); dropped if the commit fails.
        case notice([UInt8])
        /// Close the connection once everything before it is written.
        case close(reason: String)

        /// The bytes a client's backpressure counts as staged for it (`stagedBytes`): replies
        /// to its requests, not pushes or notices, which can be held back and coalesced.
        var stagedByteCount: Int {
            switch self {
            case .fixed(let bytes), .read(let bytes, _, _), .attach(let bytes, _, _), .readStaged(let bytes, _, _):
                bytes.count
            case .change(let range, _, _):
                range.count
            case .push, .notice, .close:
                0
            }
        }
    }

    var batch = StoreBatch()
    /// The bytes of the turn's `.change` replies, one after the other.
    private(set) var changeReplyBytes: [UInt8] = []
    /// Every reply of the turn in staging order; `replies(of:)` picks one connection's.
    // One flat array with links kept across turns: a dictionary of arrays would free one
    // array per connection per turn.
    private var staged: [Reply] = []
    /// The index in `staged` of the same connection's next reply, or -1.
    private var nextOfSameConnection: [Int] = []
    /// Connections in the order they first got a reply this turn.
    private(set) var connectionOrder: [Connection.ID] = []
    /// For each connection of `connectionOrder` (same index): its first and last reply in `staged`.
    private var firstReply: [Int] = []
    private var lastReply: [Int] = []
    /// A connection's index in `connectionOrder`.
    private var slots: [Connection.ID: Int] = [:]
    /// What each change of this turn replaced, in change order: undone last to first, the
    /// earliest entry of a scene (its pre-turn value) is the one left. A list rather than a
    /// dictionary keyed by scene: appending moves the replaced value in, where a dictionary
    /// hashes the id twice per change and is emptied every turn.
    private var replaced: [(id: String, value: ReplacedScene)] = []
    /// Each scene's attachments (and `latest` size source) as they were before this turn
    /// first changed them (attach, detach, a window's resize or leaving, a delete), put back
    /// if the commit fails: a change answered `storage` was not applied, its attachment side
    /// included.
    var attachmentsBefore: [String: AttachmentSnapshot] = [:]
    /// Scenes a window's leaving resized this turn, and whether the window that left was the
    /// `latest` size source: if the commit fails, the resize is tried again later (the
    /// window is gone either way).
    var windowLeftResizes: [String: Bool] = [:]
    /// Snapshot sessions recorded this turn, visible to `snapshot.list`/`get` of the same turn.
    var pendingSessions: [SnapshotSessionInsert] = []

    var isEmpty: Bool { batch.isEmpty && staged.isEmpty && replaced.isEmpty }

    /// How many replies the turn's storage holds without growing.
    var replyCapacity: Int { staged.capacity }

    /// How many bytes of change replies the turn's storage holds without growing.
    var changeReplyCapacity: Int { changeReplyBytes.capacity }

    /// How many bytes of change replies the turn holds.
    var changeReplyByteCount: Int { changeReplyBytes.count }

    /// Frees the change-reply storage of a turn that holds no reply when it can hold more than
    /// `limit` bytes; the bytes freed (0: kept).
    mutating func dropReplyStorage(above limit: Int) -> Int {
        let capacity = changeReplyBytes.capacity
        guard changeReplyBytes.isEmpty, capacity > limit else { return 0 }
        changeReplyBytes = []
        return capacity
    }

    /// Keeps a change reply's bytes with the turn's others; where they are, for `.change`.
    mutating func appendChangeReply(_ bytes: UnsafeRawBufferPointer) -> Range<Int> {
        let start = changeReplyBytes.count
        changeReplyBytes.append(contentsOf: bytes)
        return start..<changeReplyBytes.count
    }

    /// True once a scene was changed (created, deleted, checkpointed) this turn.
    var changedScenes: Bool { !replaced.isEmpty }

    /// The scenes changed this turn.
    var changedSceneIDs: Set<String> { Set(replaced.map(\.id)) }

    /// The scenes this turn changed in a way a read can show: not those it only checkpointed
    /// (the sweep), whose state and layout stay what they were if the commit fails. A read of
    /// them stands either way; before, a failed sweep on a full disk made reads fail.
    var visiblyChangedSceneIDs: Set<String> {
        var ids = Set<String>()
        for entry in replaced {
            if case .checkpointed = entry.value { continue }
            ids.insert(entry.id)
        }
        return ids
    }

    /// True once a scene was changed this turn in a way a read can show (`visiblyChangedSceneIDs`).
    var changedScenesVisibly: Bool {
        replaced.contains { if case .checkpointed = $0.value { false } else { true } }
    }

    /// The value each change of this turn replaced (nil: the scene did not exist), in change
    /// order, for a rollback (which undoes them last to first).
    var replacedScenes: [(id: String, value: LiveScene?)] { replaced.map { ($0.id, $0.value.scene) } }

    mutating func stage(_ reply: Reply, for connection: Connection.ID) {
        let index = staged.count
        staged.append(reply)
        nextOfSameConnection.append(-1)
        if let slot = slots[connection] {
            nextOfSameConnection[lastReply[slot]] = index
            lastReply[slot] = index
        } else {
            slots[connection] = connectionOrder.count
            connectionOrder.append(connection)
            firstReply.append(index)
            lastReply.append(index)
        }
    }

    /// The replies staged for the connection at `slot` of `connectionOrder`, in staging order.
    func replies(of slot: Int) -> ConnectionReplies {
        ConnectionReplies(
            staged: staged, next: nextOfSameConnection, first: firstReply[slot],
            changeReplyBytes: changeReplyBytes)
    }

    /// One connection's replies of a turn, in the order they were staged.
    struct ConnectionReplies: Sequence {
        fileprivate let staged: [Reply]
        fileprivate let next: [Int]
        fileprivate let first: Int
        /// The turn's change replies, where `.change` ranges point.
        let changeReplyBytes: [UInt8]

        /// The reply when it is the connection's only one (depth 1, the common case).
        var single: Reply? { next[first] < 0 ? staged[first] : nil }

        func makeIterator() -> Iterator { Iterator(replies: self, index: first) }

        struct Iterator: IteratorProtocol {
            fileprivate let replies: ConnectionReplies
            fileprivate var index: Int

            mutating func next() -> Reply? {
                guard index >= 0 else { return nil }
                defer { index = replies.next[index] }
                return replies.staged[index]
            }
        }
    }

    /// Keeps the value a change of `scene` replaced, for `rollBack` (every change's: the
    /// earliest one of the turn wins there).
    mutating func remember(scene id: String, before value: consuming LiveScene?) {
        replaced.append((id, value.map { .scene($0) } ?? .absent))
    }

    /// Keeps a scene as it was before a checkpoint that changed nothing else of it (the sweep).
    mutating func remember(checkpointOf id: String, before value: consuming LiveScene) {
        replaced.append((id, .checkpointed(value)))
    }

    /// Keeps the state and layout a change swapped out of the scene (`LiveScene.exchange`),
    /// carried back in the change's own transition: moved here whole, nothing is copied.
    mutating func remember(scene id: String, swappedOut transition: consuming Transition, checkpointRevision: Int) {
        replaced.append((id, .swapped(transition, checkpointRevision: checkpointRevision)))
    }

    /// Empties the turn, keeping the batch's storage.
    mutating func reset() {
        batch.removeAll()
        changeReplyBytes.removeAll(keepingCapacity: true)
        staged.removeAll(keepingCapacity: true)
        nextOfSameConnection.removeAll(keepingCapacity: true)
        connectionOrder.removeAll(keepingCapacity: true)
        firstReply.removeAll(keepingCapacity: true)
        lastReply.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        replaced.removeAll(keepingCapacity: true)
        attachmentsBefore.removeAll()
        windowLeftResizes.removeAll()
        pendingSessions.removeAll()
    }
}

/// A scene as the loop holds it: its state, the layout last resolved for it, and the
/// revision its stored row (checkpoint) holds. Kept here so that a turn whose commit fails
/// puts the checkpoint bookkeeping back with the state.
struct LiveScene: Sendable {
    var state: SceneState
    var layout: Layout
    /// The revision of the scene's row in the store; the journal holds every revision above it.
    var checkpointRevision: Int = 0
    /// The revision the last checkpoint sweep saw. A scene that changed since is still in
    /// use: its own changes checkpoint it every `checkpointEvery`, and the sweep leaves it for
    /// a later round, once it rests (a storm's windows would make every sweep a long turn).
    var revisionAtLastSweep = -1

    /// Changes above the checkpoint, which a restart would replay from the journal.
    var uncheckpointedChanges: Int { state.revision - checkpointRevision }
}

extension LiveScene {
    /// Lends the scene to `body` in place: reached through `Dictionary.Values`' modify
    /// accessor, the scene is neither copied nor retained field by field as a get would.
    mutating func withValue<Result, Failure: Error>(
        _ body: (borrowing LiveScene) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(self)
    }
}

/// What a change replaced, as `Turn` keeps it for a rollback.
enum ReplacedScene {
    /// The scene did not exist.
    case absent
    case scene(LiveScene)
    /// The scene before a checkpoint that changed nothing a read shows (`Turn.remember(checkpointOf:before:)`).
    case checkpointed(LiveScene)
    /// The state and layout a change swapped out, in the transition that brought the new ones.
    case swapped(Transition, checkpointRevision: Int)

    var scene: LiveScene? {
        switch self {
        case .absent: nil
        case .scene(let live), .checkpointed(let live): live
        case let .swapped(transition, checkpointRevision):
            LiveScene(state: transition.state, layout: transition.layout, checkpointRevision: checkpointRevision)
        }
    }
}

extension LiveScene {
    /// Puts `transition`'s state and layout in this scene and the scene's old ones in
    /// `transition`, with `checkpointRevision`; returns the old checkpoint revision. Swapped,
    /// not assigned: the new values are not copied and the old ones not freed here.
    mutating func exchange(_ transition: inout Transition, checkpointRevision: Int) -> Int {
        swap(&state, &transition.state)
        swap(&layout, &transition.layout)
        defer { self.checkpointRevision = checkpointRevision }
        return self.checkpointRevision
    }
}
