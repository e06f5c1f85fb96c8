import SplitStore

/// What the daemon needs of cluster mode (docs/CLUSTER.md), as a protocol so that the server
/// depends on no etcd client: the splitd executable implements it over `SplitCluster`.
///
/// Every call blocks the calling thread (the loop's) for at most one etcd round trip or its
/// timeout; the loop thread is a plain thread (never a Swift task or a NIO event loop).
public protocol ClusterMember: AnyObject {
    /// This node's name (its owner keys' value).
    var node: String { get }
    /// The etcd endpoints as configured.
    var endpoints: [String] { get }
    /// Scenes this node owns now.
    var ownedScenes: Int { get }

    /// Makes sure this node may serve `scene`: when it owns it, `.owned`; when it does not and
    /// `take` is true, takes it if nobody owns it (`.acquired` with what etcd holds of it,
    /// which replaces the local copy); when another node owns it (or `take` is false), that
    /// node with what etcd holds (`.ownedElsewhere`); `.unreachable` when etcd does not answer.
    func claim(_ scene: String, take: Bool) -> ClusterClaim

    /// The owner of every owned scene, by scene (one etcd read), nil when etcd does not answer.
    func owners() -> [String: String]?

    /// The scene's owner now: this node's name when it holds the scene, else etcd's answer
    /// (nil: nobody, or etcd did not answer).
    func owner(of scene: String) -> String?

    /// Commits the batch (`SceneStore.commit` for cluster mode) and says per scene what did
    /// not become durable. Never reports a change both applied and failed.
    func commitTurn(_ batch: StoreBatch) -> ClusterCommitReport

    /// Whether etcd answered a status request just now (its leader is reachable).
    func leaderReachable() -> Bool

    /// Whether this node holds the scene now, as far as it knows (no I/O).
    func holds(_ scene: String) -> Bool

    /// Starts watching every scene in etcd from the revision the node joined at; `deliver`
    /// gets the events in etcd's order on another thread, and must only hand them on.
    func startWatching(_ deliver: @escaping @Sendable ([ClusterEvent]) -> Void)

    /// Ends the watch.
    func stopWatching()

    /// The watch's stream: whether it is open now, and how many times it was opened again
    /// after it broke (its etcd member died or lost its leader).
    var watchStatus: (open: Bool, reopened: Int) { get }

    /// Sends request lines to their scenes' owners (their etcd inboxes) in one transaction;
    /// their forwarding ids in the same order, or nil when etcd did not take them (none was
    /// sent). At most `TxnPlanner`'s 128 operations' worth: the caller sends at most
    /// `Server.forwardsPerTransaction`.
    func forward(_ requests: [(line: [UInt8], scene: String)]) -> [String]?

    /// Takes back a forwarded request its owner has not consumed: true when withdrawn (it
    /// will never be applied), false when the owner consumed it (its answer exists), nil
    /// when etcd did not answer.
    func withdraw(_ request: String, scene: String) -> Bool?

    /// The owner's answer to a forwarded request, read from etcd (the watch lost it); nil
    /// when there is none or etcd did not answer.
    func answer(to request: String) -> [UInt8]?

    /// Answers read are no longer needed: their keys go (with the next forward, or now).
    func discardAnswers(_ requests: [String])

    /// Gives up `scene` (its owner key goes), for one taken by a request that then failed
    /// and left no scene: another node may take it at once.
    func release(_ scene: String)

    /// The etcd revision at which this node took `scene` (its fencing token), nil when it
    /// does not hold it. A forwarded request put before it was consumed by an earlier owner
    /// or is in the record the taking read.
    func ownedSince(_ scene: String) -> Int64?
}

/// A request line another node forwarded to this scene's owner, not yet consumed.
public struct ForwardedRequest: Sendable, Equatable {
    public var request: String
    public var line: [UInt8]

    public init(request: String, line: [UInt8]) {
        self.request = request
        self.line = line
    }
}

/// A change another node made, as the watch reports it.
public enum ClusterEvent: Sendable {
    /// A change above the checkpoint.
    case journal(JournalEntry)
    /// A full state at a revision (a creation or a checkpoint).
    case checkpoint(StoredScene)
    case sceneDeleted(String)
    /// The scene's owner key is gone (released, or its lease expired).
    case ownerGone(String)
    /// Events were lost (compaction): every copy must be read again.
    case resync
    /// A node forwarded a request for the scene's owner (put at etcd revision `at`).
    case forwarded(scene: String, ForwardedRequest, at: Int64)
    /// The owner answered a forwarded request.
    case answered(request: String, reply: [UInt8])
}

/// What etcd holds of a scene: its checkpoint and the journal above it (both absent: the
/// scene does not exist).
public struct ClusterSceneRecord {
    public var checkpoint: StoredScene?
    public var journal: [JournalEntry]
    /// Requests other nodes forwarded to the scene's owner that no owner consumed yet.
    public var forwarded: [ForwardedRequest]

    public init(checkpoint: StoredScene?, journal: [JournalEntry], forwarded: [ForwardedRequest] = []) {
        self.checkpoint = checkpoint
        self.journal = journal
        self.forwarded = forwarded
    }
}

/// `ClusterMember.claim`'s answer.
public enum ClusterClaim {
    /// This node owns the scene and its local copy is current.
    case owned
    /// This node just took the scene: the record replaces the local copy.
    case acquired(ClusterSceneRecord)
    /// Another node (nil: nobody) owns the scene; the record is what etcd holds of it.
    case ownedElsewhere(node: String?, ClusterSceneRecord)
    /// etcd did not answer: nothing known.
    case unreachable(String)
}

/// What a cluster commit did not make durable, per scene (everything else did).
public struct ClusterCommitReport: Equatable {
    /// Certainly not applied, and why: answered `unavailable` (retryable), the scene's
    /// in-memory changes rolled back.
    public var notApplied: [String: String] = [:]
    /// Outcome unknown: neither acknowledged nor reported failed (the client's connection
    /// is closed without an answer), the local copy dropped until it is read again.
    public var indeterminate: Set<String> = []
    /// Scenes this node may no longer write: it stops serving them until it owns them again.
    public var fenced: Set<String> = []

    public init(notApplied: [String: String] = [:], indeterminate: Set<String> = [], fenced: Set<String> = []) {
        self.notApplied = notApplied
        self.indeterminate = indeterminate
        self.fenced = fenced
    }

    public var isComplete: Bool { notApplied.isEmpty && indeterminate.isEmpty }
}

/// How a scene of a settled turn failed in a cluster commit (`ClusterCommitReport`).
enum SceneFailure: Equatable {
    case unavailable(String)
    case indeterminate
}

extension ClusterCommitReport {
    /// The per-scene failures a turn's replies are written with (`Server.answer`).
    var failures: [String: SceneFailure] {
        var out: [String: SceneFailure] = [:]
        for (scene, reason) in notApplied { out[scene] = .unavailable(reason) }
        for scene in indeterminate { out[scene] = .indeterminate }
        return out
    }
}
