/// What this node holds for a scene it owns: the fencing token and the head it last wrote
/// or read. Every write transaction of the scene compares both, so it applies only while
/// the node still owns the scene and nobody else has moved the head since.
public struct SceneClaim: Sendable, Hashable {
    /// The create revision of the scene's `owner` key when this node put it. A node whose
    /// lease expired has its key deleted by etcd; a later owner's key has a higher create
    /// revision. Never 0 for a held claim.
    public var token: Int64
    /// The head key's mod revision as this node last saw it (0: no head, a new or deleted
    /// scene).
    public var headModRevision: Int64
    /// The head's value at that mod revision (nil: no head).
    public var head: SceneHead?

    public init(token: Int64, headModRevision: Int64, head: SceneHead?) {
        self.token = token
        self.headModRevision = headModRevision
        self.head = head
    }

    /// The scene revision the claim continues from (0 for a scene without a head).
    public var revision: Int64 { head?.revision ?? 0 }
}

/// A read of a scene's keys, made to learn why or whether a write transaction applied.
public struct SceneObservation: Sendable, Hashable {
    /// The owner key's create revision, 0 when there is no owner key.
    public var ownerCreateRevision: Int64
    /// The head key's mod revision, 0 when there is no head.
    public var headModRevision: Int64
    public var head: SceneHead?
    /// The writer token of the journal entry at the revision the uncertain transaction
    /// wrote, nil when that entry does not exist (never written, or deleted by a
    /// checkpoint) or was not read.
    public var journalWriterAtIntended: Int64?

    public init(
        ownerCreateRevision: Int64, headModRevision: Int64, head: SceneHead?, journalWriterAtIntended: Int64? = nil
    ) {
        self.ownerCreateRevision = ownerCreateRevision
        self.headModRevision = headModRevision
        self.head = head
        self.journalWriterAtIntended = journalWriterAtIntended
    }
}

/// Why this node may no longer write a scene.
public enum FenceReason: Sendable, Hashable, CustomStringConvertible {
    /// The owner key is gone: the node's lease expired or was revoked.
    case ownerGone
    /// Another node owns the scene now (its token).
    case ownedByAnother(token: Int64)
    /// The head moved under a token that is still this node's: another process writes with
    /// this node's lease (misconfiguration) or the store lost track of its own write.
    case headMovedUnderUs

    public var description: String {
        switch self {
        case .ownerGone: "the ownership lease expired"
        case let .ownedByAnother(token): "another node owns the scene (fencing token \(token))"
        case .headMovedUnderUs: "the scene's head moved although this node owns it"
        }
    }
}

/// The fencing decisions of cluster mode, as pure functions of a claim and what etcd
/// showed. The store's I/O layer only sends transactions and reads keys; every decision
/// whether a write applied and whether the node may go on writing is made here.
public enum Ownership {
    /// After a transaction etcd answered with `succeeded == false` (nothing of it applied):
    /// the node keeps the scene only when both of its compares still hold, i.e. the
    /// transaction failed because of another scene in it.
    public enum AfterFailedCompare: Sendable, Hashable {
        case stillOwned
        case fenced(FenceReason)
    }

    public static func afterFailedCompare(claim: SceneClaim, observed: SceneObservation) -> AfterFailedCompare {
        if observed.ownerCreateRevision != claim.token {
            return .fenced(
                observed.ownerCreateRevision == 0 ? .ownerGone : .ownedByAnother(token: observed.ownerCreateRevision))
        }
        if observed.headModRevision != claim.headModRevision { return .fenced(.headMovedUnderUs) }
        return .stillOwned
    }

    /// What a transaction with an unknown outcome (timed out, connection lost) did, learned
    /// from a read made afterwards.
    public enum Resolution: Sendable, Hashable {
        /// It applied; the claim continues from the head it wrote.
        case applied(SceneClaim)
        /// It applied, and the node has lost the scene since: the changes are durable (they
        /// may be acknowledged) but the node must stop writing the scene.
        case appliedThenFenced(FenceReason)
        /// It did not apply and the node still owns the scene: the same changes may be sent
        /// again under the same claim.
        case notApplied
        /// It did not apply and the node has lost the scene: the changes must be reported
        /// as not applied (`unavailable`), the scene stopped.
        case notAppliedFenced(FenceReason)
        /// The read cannot tell (the record was covered by another owner's checkpoint): the
        /// changes must be reported neither applied nor failed; the scene is stopped.
        case indeterminate(FenceReason)
    }

    /// - Parameters:
    ///   - intended: the head the transaction would have written (its revision, or nil
    ///     when the transaction deleted the scene).
    public static func resolveUnknown(claim: SceneClaim, intended: SceneHead?, observed: SceneObservation) -> Resolution
    {
        let stillOwner = observed.ownerCreateRevision == claim.token
        let reason: FenceReason =
            observed.ownerCreateRevision == 0
            ? .ownerGone : .ownedByAnother(token: observed.ownerCreateRevision)
        // Every transaction of the claim puts (or deletes) the head, so an unchanged head
        // means it did not apply: etcd applies a transaction whole or not at all.
        if observed.headModRevision == claim.headModRevision && observed.head == claim.head {
            return stillOwner ? .notApplied : .notAppliedFenced(reason)
        }
        if stillOwner {
            // Nobody else can write under our token: the head moved because ours applied.
            if observed.head == intended {
                return .applied(
                    SceneClaim(token: claim.token, headModRevision: observed.headModRevision, head: observed.head))
            }
            return .indeterminate(.headMovedUnderUs)
        }
        // Another owner has written since. Ours applied iff the head or the journal entry
        // at our revision carries our token (a later owner continues after the revisions
        // that were committed and never rewrites one).
        guard let intended else { return .indeterminate(reason) }
        if let head = observed.head, head.writer == claim.token, head.revision >= intended.revision {
            return .appliedThenFenced(reason)
        }
        if let writer = observed.journalWriterAtIntended {
            return writer == claim.token ? .appliedThenFenced(reason) : .notAppliedFenced(reason)
        }
        if let head = observed.head, head.revision < intended.revision, head.writer != claim.token {
            // Another owner's head below our revision: it continued from a head before ours.
            return .notAppliedFenced(reason)
        }
        if observed.head == nil && observed.headModRevision == 0 {
            return .indeterminate(reason)
        }
        return .indeterminate(reason)
    }

    /// Whether a node may take a scene whose owner key it read: only when there is none
    /// (the previous owner's lease is gone). A live owner is never displaced.
    public static func mayAcquire(ownerCreateRevision: Int64) -> Bool { ownerCreateRevision == 0 }
}
