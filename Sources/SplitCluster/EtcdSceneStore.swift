import EtcdAPI
import Foundation
import SplitStore

public struct ClusterStoreOptions: Sendable {
    public var keys: ClusterKeys
    /// How long one write transaction may take before its outcome counts as unknown.
    public var txnTimeout: Duration
    /// How long the store keeps trying to learn an unknown outcome (a leader election
    /// takes about one election timeout) before it reports the scene indeterminate.
    public var resolveBudget: Duration
    /// A batch touching a scene without an owner takes ownership of it first; a scene
    /// owned by another node is refused (not applied).
    public var autoAcquire: Bool
    public var maxOps: Int
    public var maxBytes: Int

    public init(
        keys: ClusterKeys = ClusterKeys(), txnTimeout: Duration = .seconds(2), resolveBudget: Duration = .seconds(15),
        autoAcquire: Bool = true, maxOps: Int = TxnPlanner.defaultMaxOps, maxBytes: Int = TxnPlanner.defaultMaxBytes
    ) {
        self.keys = keys
        self.txnTimeout = txnTimeout
        self.resolveBudget = resolveBudget
        self.autoAcquire = autoAcquire
        self.maxOps = maxOps
        self.maxBytes = maxBytes
    }
}

/// What `commitDetailed` did with each scene of a batch.
public struct ClusterCommitOutcome: Sendable {
    /// Per scene, the highest revision of the batch now committed in etcd (deletions and
    /// sessions, which carry no revision, count 0).
    public var durable: [String: Int64] = [:]
    /// Scenes all of whose changes in the batch were committed.
    public var completed: Set<String> = []
    /// Scenes whose remaining changes were certainly not applied, and why (answer
    /// `unavailable`): fencing lost, another owner, or etcd refused or could not be reached
    /// before anything was proposed.
    public var notApplied: [String: String] = [:]
    /// Scenes whose last transaction's outcome could not be learned within the budget: their
    /// uncertain changes must be reported neither applied nor failed.
    public var indeterminate: Set<String> = []
    /// Scenes this node may no longer write (they stopped; `acquire` again to resume).
    public var fenced: [String: FenceReason] = [:]
    public var transactions = 0
    public var unknownOutcomes = 0
    public var metaCommitted = true

    public var isComplete: Bool { notApplied.isEmpty && indeterminate.isEmpty && metaCommitted }
}

/// Scenes stored in etcd, owned one node at a time (docs/CLUSTER.md). The I/O layer over
/// `TxnPlanner` (what to send) and `Ownership` (what the answers mean).
///
/// Like every `SceneStore`, used by one thread; its etcd calls block that thread (it must
/// be a plain thread, see `EtcdClient.blocking`).
public final class EtcdSceneStore: SceneStore {
    public let node: String
    public let client: EtcdClient
    public let lease: EtcdLease
    public let options: ClusterStoreOptions
    public private(set) var claims: [String: SceneClaim] = [:]
    public private(set) var fenced: [String: FenceReason] = [:]
    public private(set) var statistics = StoreStatistics()
    /// Write transactions whose outcome was unknown and was then resolved by a read.
    public private(set) var resolvedUnknownOutcomes = 0
    private var keys: ClusterKeys { options.keys }
    private let sessionBase: Int64
    private var sessionCounter: Int64 = 0
    private var closed = false

    /// Registers the node (`node/<name>`, bound to its lease) and returns a store that owns
    /// nothing yet.
    public init(
        client: EtcdClient, node: String, lease: EtcdLease, options: ClusterStoreOptions = ClusterStoreOptions()
    ) throws(EtcdError) {
        self.client = client
        self.node = node
        self.lease = lease
        self.options = options
        let put = Etcdserverpb_PutRequest.with {
            $0.key = Data(options.keys.node(node)); $0.value = Data(Array(node.utf8)); $0.lease = lease.id
        }
        let response = try client.putBlocking(put, timeout: options.txnTimeout)
        // Session numbers: this registration's etcd revision (unique to it) in the high
        // bits, a counter in the low 20.
        sessionBase = response.header.revision << 20
    }

    private static func nowMillis() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    // MARK: ownership

    public enum AcquireResult: Sendable, Hashable {
        case acquired(SceneClaim)
        case ownedBy(node: String, token: Int64)
    }

    /// Takes the scene if nobody owns it (its owner key is absent: never owned, or the
    /// owner's lease expired), reading its head in the same transaction.
    public func acquire(_ scene: String) throws(EtcdError) -> AcquireResult {
        if let claim = claims[scene] { return .acquired(claim) }
        let found = try readOwnership(scene, taking: true, extra: [])
        if let claim = found.claim { return .acquired(claim) }
        return .ownedBy(
            node: found.owner.map { String(decoding: $0.value, as: UTF8.self) } ?? "",
            token: found.owner?.createRevision ?? 0)
    }

    /// One transaction reading the scene's owner key, its head and `extra` (their answers in
    /// order), when `taking` first taking the scene if nobody owns it. `claim`: the claim this
    /// node now holds, because it took the scene or found its own owner key (an acquisition
    /// whose answer was lost, adopted).
    private func readOwnership(
        _ scene: String, taking: Bool, extra: [Etcdserverpb_RequestOp]
    ) throws(EtcdError) -> (
        claim: SceneClaim?, owner: Etcdserverpb_KeyValue?, extra: [Etcdserverpb_RangeResponse], revision: Int64
    ) {
        let reads = [TxnPlanner.rangeOp(keys.owner(scene)), TxnPlanner.rangeOp(keys.head(scene))] + extra
        let request = Etcdserverpb_TxnRequest.with {
            if taking {
                $0.compare = [
                    .with {
                        $0.key = Data(keys.owner(scene)); $0.target = .create; $0.result = .equal
                        $0.createRevision = 0
                    }
                ]
                $0.success = [TxnPlanner.put(keys.owner(scene), Array(node.utf8), lease: lease.id)] + reads
                $0.failure = reads
            } else {
                $0.success = reads
            }
        }
        let response = try client.txnBlocking(request, timeout: options.txnTimeout)
        let took = taking && response.succeeded
        let ranges = response.responses.dropFirst(took ? 1 : 0).map(\.responseRange)
        guard ranges.count == reads.count else {
            throw .rpc(
                operation: "txn", code: "unknown", message: "etcd answered \(ranges.count) of \(reads.count) reads")
        }
        let ownerKV = ranges[0].kvs.first
        let headKV = ranges[1].kvs.first
        var token: Int64?
        if took {
            token = response.header.revision
        } else if taking, let ownerKV, ownerKV.lease == lease.id {
            token = ownerKV.createRevision
        }
        var claim: SceneClaim?
        if let token {
            claim = SceneClaim(
                token: token, headModRevision: headKV?.modRevision ?? 0,
                head: headKV.flatMap { SceneHead(decoding: Array($0.value)) })
            claims[scene] = claim
            fenced[scene] = nil
        }
        return (claim, ownerKV, Array(ranges.dropFirst(2)), response.header.revision)
    }

    /// Gives the scene up (deletes the owner key if it is still this node's).
    public func release(_ scene: String) throws(EtcdError) {
        guard let claim = claims.removeValue(forKey: scene) else { return }
        let request = Etcdserverpb_TxnRequest.with {
            $0.compare = [
                .with {
                    $0.key = Data(keys.owner(scene)); $0.target = .create; $0.result = .equal;
                    $0.createRevision = claim.token
                }
            ]
            $0.success = [TxnPlanner.deleteOp(keys.owner(scene))]
        }
        _ = try client.txnBlocking(request, timeout: options.txnTimeout)
    }

    /// Drops the local claim of a scene without touching etcd: its owner key (if still this
    /// node's) stays, and the next `acquire` adopts it, reading the head again. For a caller
    /// whose copy of the scene no longer matches the claim's head.
    public func forget(_ scene: String) {
        claims[scene] = nil
    }

    /// The owner of a scene as etcd has it now: node name and token, nil when unowned.
    public func owner(of scene: String) throws(EtcdError) -> (node: String, token: Int64)? {
        let response = try client.rangeBlocking(.with { $0.key = Data(keys.owner(scene)) }, timeout: options.txnTimeout)
        return response.kvs.first.map { (String(decoding: $0.value, as: UTF8.self), $0.createRevision) }
    }

    /// What one transaction learned of a scene: its owner, and what a new owner replays (the
    /// checkpoint and the journal above it) and runs (the requests forwarded to the owner not
    /// consumed yet), all at one etcd revision.
    public struct SceneRead: Sendable {
        /// This node owns the scene now: it took it, or adopted its own owner key from an
        /// acquisition whose answer was lost.
        public var acquired: Bool
        /// The owning node's name; nil when nobody owns the scene.
        public var owner: String?
        public var checkpoint: StoredScene?
        public var journal: [JournalEntry]
        /// Inbox requests in the order they were put (read only when taking).
        public var forwarded: [(request: String, line: [UInt8])]
    }

    /// Reads the scene in one transaction (one etcd round trip unless its journal is longer
    /// than a page); when `taking`, takes it first if nobody owns it (its owner key absent:
    /// never owned, or the owner's lease expired), as `acquire` does.
    public func read(_ scene: String, taking: Bool) throws(EtcdError) -> SceneRead {
        let journalKeys = keys.journalPrefix(scene)
        let journalEnd = ClusterKeys.rangeEnd(ofPrefix: journalKeys)
        let inboxKeys = keys.inboxPrefix(scene)
        var extra = [
            TxnPlanner.rangeOp(keys.checkpoint(scene)),
            Etcdserverpb_RequestOp.with {
                $0.requestRange = .with {
                    $0.key = Data(journalKeys); $0.rangeEnd = Data(journalEnd); $0.limit = Self.readPage
                }
            },
        ]
        if taking {
            extra.append(
                .with {
                    $0.requestRange = .with {
                        $0.key = Data(inboxKeys); $0.rangeEnd = Data(ClusterKeys.rangeEnd(ofPrefix: inboxKeys))
                        $0.sortOrder = .ascend; $0.sortTarget = .mod
                    }
                })
        }
        let found = try readOwnership(scene, taking: taking, extra: extra)
        let checkpoint = found.extra[0].kvs.first.flatMap { CheckpointRecord(decoding: Array($0.value)) }.map {
            record in
            StoredScene(
                id: scene, device: record.device, revision: record.revision, state: record.state,
                createdAt: record.createdAt, updatedAt: record.updatedAt)
        }
        var journalKVs = found.extra[1].kvs
        if found.extra[1].more, let last = journalKVs.last {
            journalKVs += try rangeAll(from: Array(last.key) + [0], to: journalEnd, at: found.revision)
        }
        // Entries the checkpoint covers stay until the next checkpoint (`TxnPlanner`).
        let above = checkpoint?.revision ?? 0
        let forwarded =
            taking
            ? found.extra[2].kvs.compactMap { kv -> (request: String, line: [UInt8])? in
                keys.inboxEntry(ofKey: Array(kv.key)).map { (request: $0.request, line: Array(kv.value)) }
            } : []
        let acquired = found.claim != nil
        return SceneRead(
            acquired: acquired,
            owner: acquired ? node : found.owner.map { String(decoding: $0.value, as: UTF8.self) },
            checkpoint: checkpoint, journal: journalKVs.compactMap(journalEntry).filter { $0.revision > above },
            forwarded: forwarded)
    }

    /// Journal entries a read transaction returns at once; more are read in pages.
    static let readPage: Int64 = 1000

    private func journalEntry(_ kv: Etcdserverpb_KeyValue) -> JournalEntry? {
        guard let (scene, revision) = keys.journalEntry(ofKey: Array(kv.key)),
            let record = JournalRecord(decoding: Array(kv.value))
        else { return nil }
        return JournalEntry(
            scene: scene, revision: revision, change: record.change, layoutHash: record.layoutHash, at: record.at)
    }

    /// Every key in [from, to), read in pages at one revision (0: the latest).
    private func rangeAll(
        from: [UInt8], to: [UInt8], at revision: Int64 = 0, limit: Int? = nil
    ) throws(EtcdError) -> [Etcdserverpb_KeyValue] {
        var out: [Etcdserverpb_KeyValue] = []
        var start = from
        var atRevision = revision
        while true {
            let page = min(1000, limit.map { $0 - out.count } ?? 1000)
            if page <= 0 { break }
            let response = try client.rangeBlocking(
                .with {
                    $0.key = Data(start); $0.rangeEnd = Data(to); $0.limit = Int64(page); $0.revision = atRevision
                }, timeout: options.txnTimeout)
            out.append(contentsOf: response.kvs)
            if atRevision == 0 { atRevision = response.header.revision }
            guard response.more, let last = response.kvs.last else { break }
            start = Array(last.key) + [0]
        }
        return out
    }

    // MARK: commit

    /// Commits the batch as etcd transactions (one per flush unless it exceeds a
    /// transaction's limits) and says per scene what became durable. Never both applied
    /// and reported not applied: an unknown outcome is resolved by reading the keys back.
    public func commitDetailed(_ batch: StoreBatch) -> ClusterCommitOutcome {
        var outcome = ClusterCommitOutcome()
        if batch.isEmpty { return outcome }
        let segmented = TxnPlanner.segments(of: batch, maxOps: options.maxOps, maxBytes: options.maxBytes)
        let order = segmented.scenes
        var queues = segmented.queues
        var meta = segmented.meta
        outcome.metaCommitted = meta.isEmpty
        for scene in order where claims[scene] == nil {
            if let reason = fenced[scene], !options.autoAcquire {
                queues[scene] = nil
                outcome.notApplied[scene] = reason.description
                continue
            }
            guard options.autoAcquire else {
                queues[scene] = nil
                outcome.notApplied[scene] = "this node does not own the scene"
                continue
            }
            do {
                switch try acquire(scene) {
                case .acquired: break
                case let .ownedBy(node, token):
                    queues[scene] = nil
                    outcome.fenced[scene] = .ownedByAnother(token: token)
                    outcome.notApplied[scene] = "scene owned by node \(node)"
                }
            } catch {
                // An acquisition whose outcome is unknown leaves at worst an owner key bound
                // to our lease, which the next acquire adopts. Nothing of the batch was written.
                queues[scene] = nil
                outcome.notApplied[scene] = "\(error)"
            }
        }
        let deadline = ContinuousClock.now + options.resolveBudget
        while let plan = TxnPlanner.next(
            order: order, queues: queues, claims: claims, meta: meta, keys: keys,
            now: Self.nowMillis(), maxOps: options.maxOps, maxBytes: options.maxBytes)
        {
            outcome.transactions += 1
            let started = ContinuousClock.now
            do {
                let response = try client.txnBlocking(plan.request, timeout: options.txnTimeout)
                if response.succeeded {
                    applied(plan, at: response.header.revision, into: &outcome, queues: &queues)
                    meta = []
                    outcome.metaCommitted = true
                    statistics.commits += 1
                    statistics.operations += Int64(plan.request.success.count)
                    statistics.lastCommitNanoseconds = Self.nanos(ContinuousClock.now - started)
                } else {
                    statistics.failedCommits += 1
                    refused(plan, response: response, into: &outcome, queues: &queues)
                }
            } catch let error where error.mayHaveApplied {
                outcome.unknownOutcomes += 1
                resolveUnknown(plan, error: error, deadline: deadline, into: &outcome, queues: &queues, meta: &meta)
            } catch {
                statistics.failedCommits += 1
                for scene in plan.scenes {
                    queues[scene] = nil
                    outcome.notApplied[scene] = "\(error)"
                }
                if !meta.isEmpty { meta = []; outcome.metaCommitted = false }
            }
            if plan.scenes.isEmpty && meta.isEmpty { continue }
            if ContinuousClock.now > deadline {
                for scene in order where !(queues[scene]?.isEmpty ?? true) {
                    queues[scene] = nil
                    outcome.notApplied[scene] = "etcd did not commit in time"
                }
                break
            }
        }
        for scene in order where queues[scene]?.isEmpty ?? false { queues[scene] = nil }
        return outcome
    }

    private static func nanos(_ d: Duration) -> Int64 {
        d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000
    }

    private func applied(
        _ plan: PlannedTxn, at revision: Int64, into outcome: inout ClusterCommitOutcome,
        queues: inout [String: [SceneSegment]]
    ) {
        for (scene, segment) in zip(plan.scenes, plan.segments) {
            let intended = plan.intended[scene] ?? nil
            claims[scene]?.head = intended
            claims[scene]?.headModRevision = intended == nil ? 0 : revision
            popSegment(scene, segment, into: &outcome, queues: &queues)
        }
    }

    private func popSegment(
        _ scene: String, _ segment: SceneSegment, into outcome: inout ClusterCommitOutcome,
        queues: inout [String: [SceneSegment]]
    ) {
        queues[scene]?.removeFirst()
        outcome.durable[scene] = max(outcome.durable[scene] ?? 0, segment.lastRevision)
        if queues[scene]?.isEmpty ?? true { outcome.completed.insert(scene) }
    }

    private func stop(_ scene: String, _ reason: FenceReason, into outcome: inout ClusterCommitOutcome) {
        claims[scene] = nil
        fenced[scene] = reason
        outcome.fenced[scene] = reason
    }

    /// The compares failed: nothing applied. The failure branch read each scene's owner and
    /// head keys, in the plan's scene order.
    private func refused(
        _ plan: PlannedTxn, response: Etcdserverpb_TxnResponse, into outcome: inout ClusterCommitOutcome,
        queues: inout [String: [SceneSegment]]
    ) {
        var anyFenced = false
        for (i, scene) in plan.scenes.enumerated() {
            guard let claim = claims[scene], response.responses.count > 2 * i + 1 else { continue }
            let owner = response.responses[2 * i].responseRange.kvs.first
            let head = response.responses[2 * i + 1].responseRange.kvs.first
            let observed = SceneObservation(
                ownerCreateRevision: owner?.createRevision ?? 0,
                headModRevision: head?.modRevision ?? 0,
                head: head.flatMap { SceneHead(decoding: Array($0.value)) })
            if case let .fenced(reason) = Ownership.afterFailedCompare(claim: claim, observed: observed) {
                anyFenced = true
                stop(scene, reason, into: &outcome)
                queues[scene] = nil
                outcome.notApplied[scene] = reason.description
            }
        }
        if !anyFenced {
            // Every compare held on re-read yet the transaction was refused: a claim out of
            // step with etcd. Stop the plan's scenes rather than retry forever.
            for scene in plan.scenes {
                stop(scene, .headMovedUnderUs, into: &outcome)
                queues[scene] = nil
                outcome.notApplied[scene] = FenceReason.headMovedUnderUs.description
            }
        }
    }

    /// Reads every scene of an uncertain transaction back (one read transaction: one etcd
    /// revision) until etcd answers or the budget runs out, and decides per scene.
    private func resolveUnknown(
        _ plan: PlannedTxn, error: EtcdError, deadline: ContinuousClock.Instant,
        into outcome: inout ClusterCommitOutcome, queues: inout [String: [SceneSegment]],
        meta: inout [(key: String, value: String)]
    ) {
        var read = Etcdserverpb_TxnRequest()
        for scene in plan.scenes {
            read.success.append(TxnPlanner.rangeOp(keys.owner(scene)))
            read.success.append(TxnPlanner.rangeOp(keys.head(scene)))
            read.success.append(TxnPlanner.rangeOp(keys.journal(scene, plan.journalRevision[scene] ?? 0)))
        }
        var response: Etcdserverpb_TxnResponse?
        while response == nil && ContinuousClock.now < deadline {
            do {
                response = try client.txnBlocking(read, timeout: options.txnTimeout)
            } catch {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let response else {
            for scene in plan.scenes {
                outcome.indeterminate.insert(scene)
                stop(scene, .headMovedUnderUs, into: &outcome)
                queues[scene] = nil
            }
            if !meta.isEmpty { meta = []; outcome.metaCommitted = false }
            return
        }
        resolvedUnknownOutcomes += 1
        var anyApplied = false
        for (i, scene) in plan.scenes.enumerated() {
            guard let claim = claims[scene] else { continue }
            let owner = response.responses[3 * i].responseRange.kvs.first
            let head = response.responses[3 * i + 1].responseRange.kvs.first
            let journal =
                plan.journalRevision[scene] == nil ? nil : response.responses[3 * i + 2].responseRange.kvs.first
            let observed = SceneObservation(
                ownerCreateRevision: owner?.createRevision ?? 0, headModRevision: head?.modRevision ?? 0,
                head: head.flatMap { SceneHead(decoding: Array($0.value)) },
                journalWriterAtIntended: journal.flatMap { JournalRecord(decoding: Array($0.value))?.writer })
            let segment = plan.segments[i]
            switch Ownership.resolveUnknown(claim: claim, intended: plan.intended[scene] ?? nil, observed: observed) {
            case let .applied(newClaim):
                anyApplied = true
                claims[scene] = newClaim
                popSegment(scene, segment, into: &outcome, queues: &queues)
            case let .appliedThenFenced(reason):
                anyApplied = true
                popSegment(scene, segment, into: &outcome, queues: &queues)
                stop(scene, reason, into: &outcome)
                if !(queues[scene]?.isEmpty ?? true) { outcome.notApplied[scene] = reason.description }
                queues[scene] = nil
            case .notApplied:
                break  // sent again by the caller's loop under the same claim
            case let .notAppliedFenced(reason):
                stop(scene, reason, into: &outcome)
                queues[scene] = nil
                outcome.notApplied[scene] = reason.description
            case let .indeterminate(reason):
                stop(scene, reason, into: &outcome)
                queues[scene] = nil
                outcome.indeterminate.insert(scene)
            }
        }
        if plan.scenes.isEmpty || anyApplied {
            // Meta puts ride in the same transaction: they applied with it. A meta-only
            // transaction is a plain overwrite, safe to have applied or to send again.
            meta = []
            outcome.metaCommitted = true
        }
    }

    // MARK: SceneStore

    public func commit(_ batch: StoreBatch) throws(StoreError) {
        guard !closed else { throw Self.error("commit batch", "the store is closed", rolledBack: true) }
        let outcome = commitDetailed(batch)
        guard outcome.isComplete else {
            let nothing = outcome.durable.isEmpty && outcome.indeterminate.isEmpty
            var parts = outcome.notApplied.sorted { $0.key < $1.key }.map { "scene \($0.key): \($0.value)" }
            parts += outcome.indeterminate.sorted().map { "scene \($0): outcome unknown" }
            throw Self.error("commit batch to etcd", parts.joined(separator: "; "), rolledBack: nothing)
        }
    }

    static func error(_ operation: String, _ message: String, rolledBack: Bool = false) -> StoreError {
        StoreError(
            kind: .ioError, code: 0, extendedCode: 0, operation: operation, message: message, rolledBack: rolledBack)
    }

    private func wrap<T>(_ operation: String, _ body: () throws(EtcdError) -> T) throws(StoreError) -> T {
        guard !closed else { throw Self.error(operation, "the store is closed") }
        do { return try body() } catch { throw Self.error(operation, "\(error)") }
    }

    public func loadScenes() throws(StoreError) -> [StoredScene] {
        try wrap("load scenes") { () throws(EtcdError) in
            try rangeAll(from: keys.allCheckpoints, to: ClusterKeys.rangeEnd(ofPrefix: keys.allCheckpoints)).compactMap
            { kv in
                guard let scene = keys.scene(ofSceneKey: Array(kv.key)),
                    let r = CheckpointRecord(decoding: Array(kv.value))
                else { return nil }
                return StoredScene(
                    id: scene, device: r.device, revision: r.revision, state: r.state, createdAt: r.createdAt,
                    updatedAt: r.updatedAt)
            }
        }
    }

    public func journal(scene: String, from revision: Int64, limit: Int?) throws(StoreError) -> [JournalEntry] {
        try wrap("read journal of \(scene)") { () throws(EtcdError) in
            try rangeAll(
                from: keys.journal(scene, max(0, revision)),
                to: ClusterKeys.rangeEnd(ofPrefix: keys.journalPrefix(scene)),
                limit: limit
            ).compactMap(journalEntry)
        }
    }

    /// The entries above each scene's checkpoint (the journal also holds those the last
    /// checkpoint covers, until the next one).
    public func journalTails() throws(StoreError) -> [JournalEntry] {
        try wrap("read journal tails") { () throws(EtcdError) in
            // Above each scene's checkpoint only: the entries it covers stay until the next
            // one (`TxnPlanner`). Heads first: an entry put after them is above them.
            var checkpointOf: [String: Int64] = [:]
            for kv in try rangeAll(from: keys.allHeads, to: ClusterKeys.rangeEnd(ofPrefix: keys.allHeads)) {
                if let scene = keys.scene(ofSceneKey: Array(kv.key)), let head = SceneHead(decoding: Array(kv.value)) {
                    checkpointOf[scene] = head.checkpointRevision
                }
            }
            return try rangeAll(from: keys.allJournals, to: ClusterKeys.rangeEnd(ofPrefix: keys.allJournals))
                .compactMap(journalEntry).filter { $0.revision > checkpointOf[$0.scene, default: 0] }
        }
    }

    public func snapshotSessions(scene: String) throws(StoreError) -> [SnapshotSessionSummary] {
        try wrap("list snapshot sessions of \(scene)") { () throws(EtcdError) in
            try rangeAll(from: keys.sessionPrefix(scene), to: ClusterKeys.rangeEnd(ofPrefix: keys.sessionPrefix(scene)))
                .compactMap { kv in
                    SessionRecord(decoding: Array(kv.value)).map {
                        SnapshotSessionSummary(
                            session: $0.session, number: $0.number, scene: $0.scene, baseRevision: $0.baseRevision,
                            sizes: $0.sizes, hash: $0.hash, createdAt: $0.createdAt)
                    }
                }
        }
    }

    public func snapshotSession(id: String) throws(StoreError) -> SnapshotSession? {
        try wrap("read snapshot session \(id)") { () throws(EtcdError) -> SnapshotSession? in
            guard
                let pointer = try client.rangeBlocking(
                    .with { $0.key = Data(keys.sessionID(id)) }, timeout: options.txnTimeout
                ).kvs.first,
                let text = String(validating: Array(pointer.value), as: UTF8.self), let slash = text.lastIndex(of: "/"),
                let number = Int64(text[text.index(after: slash)...])
            else { return nil }
            let scene = ClusterKeys.unescape(text[..<slash])
            guard
                let kv = try client.rangeBlocking(
                    .with { $0.key = Data(keys.session(scene, number)) }, timeout: options.txnTimeout
                ).kvs.first,
                let r = SessionRecord(decoding: Array(kv.value)), r.session == id
            else { return nil }
            return SnapshotSession(
                summary: SnapshotSessionSummary(
                    session: r.session, number: r.number, scene: r.scene,
                    baseRevision: r.baseRevision, sizes: r.sizes, hash: r.hash,
                    createdAt: r.createdAt), body: r.body)
        }
    }

    public func nextSessionNumber() -> Int64 {
        sessionCounter += 1
        precondition(sessionCounter < 1 << 20, "session numbers of one registration exhausted")
        return sessionBase | sessionCounter
    }

    public func meta(key: String) throws(StoreError) -> String? {
        try wrap("read meta \(key)") { () throws(EtcdError) -> String? in
            try client.rangeBlocking(.with { $0.key = Data(keys.meta(key)) }, timeout: options.txnTimeout).kvs.first
                .map { String(decoding: $0.value, as: UTF8.self) }
        }
    }

    public func counts() throws(StoreError) -> StoreCounts {
        try wrap("count") { () throws(EtcdError) -> StoreCounts in
            func count(_ prefix: [UInt8]) throws(EtcdError) -> Int64 {
                try client.rangeBlocking(
                    .with {
                        $0.key = Data(prefix); $0.rangeEnd = Data(ClusterKeys.rangeEnd(ofPrefix: prefix));
                        $0.countOnly = true
                    },
                    timeout: options.txnTimeout
                ).count
            }
            let sessions = Array((keys.prefix + "session/").utf8)
            return StoreCounts(
                scenes: try count(keys.allHeads), journalEntries: try count(keys.allJournals),
                snapshotSessions: try count(sessions), databaseBytes: try client.statusBlocking().dbSize)
        }
    }

    /// etcd persists every committed transaction itself: nothing to move.
    public func checkpoint() throws(StoreError) {}

    /// Revokes the node's lease (its owner keys go at once, so other nodes may take its
    /// scenes without waiting for the TTL) and stops using the client.
    public func close() throws(StoreError) {
        guard !closed else { return }
        closed = true
        claims.removeAll()
        try? lease.revoke()
    }
}
