import Foundation
import EtcdAPI
import SplitStore

/// One scene's share of a batch: its operations in the batch's order.
public enum SceneChange: Sendable, Hashable {
    case checkpoint(revision: Int64, device: String, state: [UInt8])
    case delete
    case journal(revision: Int64, change: [UInt8], layoutHash: String?)
    case session(SnapshotSessionInsert)
    /// A forwarded request answered: its inbox key deleted, its reply put.
    case answer(request: String, reply: [UInt8])
}

/// A run of one scene's changes that fits in one etcd transaction.
public struct SceneSegment: Sendable, Hashable {
    public var scene: String
    public var changes: [SceneChange]

    /// The highest revision this segment makes durable (0 for a deletion or sessions only).
    public var lastRevision: Int64 {
        changes.reduce(0) { top, change in
            switch change {
            case let .checkpoint(revision, _, _), let .journal(revision, _, _): max(top, revision)
            default: top
            }
        }
    }

    /// etcd operations the segment costs, its head put included.
    var cost: Int { changes.reduce(1) { $0 + TxnPlanner.cost(of: $1) } }
    var bytes: Int {
        changes.reduce(64) { total, change in
            switch change {
            case let .checkpoint(_, device, state): total + state.count + device.utf8.count + 64
            case let .journal(_, change, hash): total + change.count + (hash?.utf8.count ?? 0) + 96
            case let .session(s): total + s.body.count + s.sizes.count + 128
            case .delete: total + 64
            case let .answer(request, reply): total + reply.count + 2 * request.utf8.count + 96
            }
        }
    }
}

/// A transaction ready to send, with what it will do to each scene.
public struct PlannedTxn: Sendable {
    public var request: Etcdserverpb_TxnRequest
    /// Scenes in the order of their compares (two per scene: owner, then head) and of the
    /// failure branch's reads (owner key, then head key per scene).
    public var scenes: [String]
    /// The head each scene has once the transaction applied (nil: the scene is deleted).
    public var intended: [String: SceneHead?]
    /// The highest journal revision written per scene (for the read-back after an unknown
    /// outcome), absent when the transaction writes no journal entry of the scene.
    public var journalRevision: [String: Int64]
    /// How many segments of each scene's queue it consumed (always the first one).
    public var segments: [SceneSegment]
}

/// Turns a `StoreBatch` into etcd transactions. Pure: the store sends what it returns.
///
/// Rules (each a fact about etcd or about fencing):
/// - At most `maxOps` operations in a transaction's success branch and at most `maxOps`
///   compares (etcd's `--max-txn-ops`, 128 by default), and at most `maxBytes` of values
///   (below etcd's `--max-request-bytes`, 1.5 MiB by default).
/// - Two compares per scene: `owner` create revision == token, `head` mod revision == the
///   claim's. The failure branch reads both keys back, so a refused transaction says why in
///   the same round trip.
/// - A key is written at most once per transaction and never both put and deleted (etcd
///   refuses "duplicate key given in txn request"): a checkpoint deletes the journal entries
///   below the transaction's own, and a scene deletion ends its segment (a re-creation goes
///   in the next transaction).
/// - Every change gets its journal entry, even one a checkpoint of the same transaction
///   covers, and the entries come before the checkpoint in the transaction: a node following
///   the scene applies each revision in order (and pushes each one) before it sees the
///   checkpoint, which it then already has. The entries a checkpoint covers go with the next
///   checkpoint; a replay skips them.
public enum TxnPlanner {
    public static let defaultMaxOps = 128
    public static let defaultMaxBytes = 1 << 20

    static func cost(of change: SceneChange) -> Int {
        switch change {
        case .journal: 1
        case .checkpoint: 2
        case .session: 2
        case .delete: 4
        case .answer: 2
        }
    }

    /// The batch's operations per scene, cut into segments, plus its meta writes. Scenes
    /// appear in the order of their first operation.
    public static func segments(
        of batch: StoreBatch, maxOps: Int = defaultMaxOps, maxBytes: Int = defaultMaxBytes
    )
        -> (scenes: [String], queues: [String: [SceneSegment]], meta: [(key: String, value: String)])
    {
        var order: [String] = []
        var changes: [String: [SceneChange]] = [:]
        var meta: [(String, String)] = []
        for op in batch.operations {
            let scene: String
            let change: SceneChange
            switch op {
            case let .upsertScene(id, device, revision, state):
                scene = id; change = .checkpoint(revision: revision, device: device, state: state)
            case let .deleteScene(id):
                scene = id; change = .delete
            case let .appendJournal(id, revision, range, hash):
                scene = id;
                change = .journal(revision: revision, change: Array(batch.change(of: range)), layoutHash: hash)
            case let .insertSnapshotSession(session):
                scene = session.scene; change = .session(session)
            case let .answerForwarded(id, request, reply):
                scene = id; change = .answer(request: request, reply: reply)
            case let .setMeta(key, value):
                meta.append((key, value)); continue
            }
            if changes[scene] == nil { order.append(scene) }
            changes[scene, default: []].append(change)
        }
        var queues: [String: [SceneSegment]] = [:]
        for scene in order {
            var segments: [SceneSegment] = []
            var current = SceneSegment(scene: scene, changes: [])
            for change in changes[scene]! {
                // An answer follows its change into the segment, even after a deletion: the
                // scene's claim is what its transaction compares.
                let endsAfterDelete: Bool
                if case .answer = change {
                    endsAfterDelete = false
                } else {
                    endsAfterDelete = current.changes.last == .delete
                }
                let next = SceneSegment(scene: scene, changes: current.changes + [change])
                if !current.changes.isEmpty && (endsAfterDelete || next.cost > maxOps - 2 || next.bytes > maxBytes) {
                    segments.append(current)
                    current = SceneSegment(scene: scene, changes: [change])
                } else {
                    current = next
                }
            }
            if !current.changes.isEmpty { segments.append(current) }
            queues[scene] = segments
        }
        return (order, queues, meta)
    }

    /// The next transaction: the first pending segment of as many scenes as fit, in
    /// `order`. Scenes without a claim are not planned (the caller refuses them first).
    public static func next(
        order: [String], queues: [String: [SceneSegment]], claims: [String: SceneClaim],
        meta: [(key: String, value: String)], keys: ClusterKeys, now: Int64,
        maxOps: Int = defaultMaxOps, maxBytes: Int = defaultMaxBytes
    ) -> PlannedTxn? {
        var request = Etcdserverpb_TxnRequest()
        var planned = PlannedTxn(request: request, scenes: [], intended: [:], journalRevision: [:], segments: [])
        var ops = meta.count
        var bytes = 0
        for (key, value) in meta {
            request.success.append(put(keys.meta(key), Array(value.utf8)))
        }
        for scene in order {
            guard let segment = queues[scene]?.first, let claim = claims[scene] else { continue }
            if !planned.scenes.isEmpty
                && (ops + segment.cost > maxOps || 2 * (planned.scenes.count + 1) > maxOps
                    || bytes + segment.bytes > maxBytes)
            {
                continue
            }
            ops += segment.cost
            bytes += segment.bytes
            let (success, intended, journalRevision) = operations(of: segment, claim: claim, keys: keys, now: now)
            request.success.append(contentsOf: success)
            request.compare.append(
                Etcdserverpb_Compare.with {
                    $0.key = Data(keys.owner(scene)); $0.target = .create; $0.result = .equal;
                    $0.createRevision = claim.token
                })
            request.compare.append(
                Etcdserverpb_Compare.with {
                    $0.key = Data(keys.head(scene)); $0.target = .mod; $0.result = .equal;
                    $0.modRevision = claim.headModRevision
                })
            request.failure.append(rangeOp(keys.owner(scene)))
            request.failure.append(rangeOp(keys.head(scene)))
            planned.scenes.append(scene)
            planned.intended[scene] = .some(intended)
            if let journalRevision { planned.journalRevision[scene] = journalRevision }
            planned.segments.append(segment)
        }
        if planned.scenes.isEmpty && meta.isEmpty { return nil }
        planned.request = request
        return planned
    }

    /// The success-branch operations of one segment and the head they leave.
    static func operations(
        of segment: SceneSegment, claim: SceneClaim, keys: ClusterKeys, now: Int64
    )
        -> ([Etcdserverpb_RequestOp], SceneHead?, Int64?)
    {
        let scene = segment.scene
        var head = claim.head
        var deleted = false
        var checkpoint: CheckpointRecord?
        var journal: [(Int64, JournalRecord)] = []
        var sessions: [SnapshotSessionInsert] = []
        var answers: [(request: String, reply: [UInt8])] = []
        for change in segment.changes {
            switch change {
            case let .checkpoint(revision, device, state):
                let created = head?.createdAt ?? now
                checkpoint = CheckpointRecord(
                    revision: revision, device: device, state: state, createdAt: created, updatedAt: now)
                head = SceneHead(
                    revision: max(revision, head?.revision ?? 0), device: device, checkpointRevision: revision,
                    createdAt: created, updatedAt: now, writer: claim.token)
                deleted = false
            case .delete:
                deleted = true
                head = nil
                checkpoint = nil
                journal.removeAll()
                sessions.removeAll()
            case let .journal(revision, change, hash):
                journal.append(
                    (revision, JournalRecord(change: change, layoutHash: hash, at: now, writer: claim.token)))
                if var h = head {
                    h.revision = max(h.revision, revision)
                    h.updatedAt = now
                    h.writer = claim.token
                    head = h
                } else {
                    head = SceneHead(
                        revision: revision, device: "", checkpointRevision: 0, createdAt: now, updatedAt: now,
                        writer: claim.token)
                }
            case let .session(session):
                sessions.append(session)
            case let .answer(request, reply):
                answers.append((request, reply))
            }
        }
        // Last, so that a watcher has the scene's new records before the answer naming them.
        var answerOps: [Etcdserverpb_RequestOp] = []
        for answer in answers {
            answerOps.append(deleteOp(keys.inbox(scene, request: answer.request)))
            answerOps.append(put(keys.reply(answer.request), answer.reply))
        }
        var ops: [Etcdserverpb_RequestOp] = []
        if deleted {
            ops.append(
                deleteOp(keys.journalPrefix(scene), rangeEnd: ClusterKeys.rangeEnd(ofPrefix: keys.journalPrefix(scene)))
            )
            ops.append(
                deleteOp(keys.sessionPrefix(scene), rangeEnd: ClusterKeys.rangeEnd(ofPrefix: keys.sessionPrefix(scene)))
            )
            ops.append(deleteOp(keys.checkpoint(scene)))
            ops.append(deleteOp(keys.head(scene)))
            return (ops + answerOps, nil, nil)
        }
        for (revision, record) in journal {
            ops.append(put(keys.journal(scene, revision), record.encoded))
        }
        if let checkpoint {
            ops.append(put(keys.checkpoint(scene), checkpoint.encoded))
            let below = min(checkpoint.revision + 1, journal.first?.0 ?? Int64.max)
            ops.append(deleteOp(keys.journalPrefix(scene), rangeEnd: keys.journal(scene, below)))
        }
        for s in sessions {
            let record = SessionRecord(
                session: s.session, number: s.number, scene: s.scene, baseRevision: s.baseRevision,
                sizes: s.sizes, hash: s.hash, body: s.body, createdAt: now)
            ops.append(put(keys.session(scene, s.number), record.encoded))
            ops.append(put(keys.sessionID(s.session), Array("\(ClusterKeys.escape(scene))/\(s.number)".utf8)))
        }
        if let head { ops.append(put(keys.head(scene), head.encoded)) }
        return (ops + answerOps, head, journal.last?.0)
    }

    public static func put(_ key: [UInt8], _ value: [UInt8], lease: Int64 = 0) -> Etcdserverpb_RequestOp {
        Etcdserverpb_RequestOp.with {
            $0.requestPut = .with {
                $0.key = Data(key); $0.value = Data(value); $0.lease = lease
            }
        }
    }

    public static func deleteOp(_ key: [UInt8], rangeEnd: [UInt8]? = nil) -> Etcdserverpb_RequestOp {
        Etcdserverpb_RequestOp.with {
            $0.requestDeleteRange = .with {
                $0.key = Data(key); if let rangeEnd { $0.rangeEnd = Data(rangeEnd) }
            }
        }
    }

    static func rangeOp(_ key: [UInt8], rangeEnd: [UInt8]? = nil) -> Etcdserverpb_RequestOp {
        Etcdserverpb_RequestOp.with {
            $0.requestRange = .with {
                $0.key = Data(key); if let rangeEnd { $0.rangeEnd = Data(rangeEnd) }
            }
        }
    }
}
