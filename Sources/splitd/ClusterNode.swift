#if Cluster
import EtcdAPI
import Foundation
import Logging
import SplitCluster
import SplitServer
import SplitSettings
import SplitStore

/// Cluster mode's glue: the daemon's `SceneStore` and `ClusterMember` over `SplitCluster`'s
/// etcd-backed store, so that SplitServer links no etcd client.
///
/// Used by the loop thread only (a plain thread: `EtcdClient`'s blocking calls trap on a
/// Swift task or a NIO event loop). When the node's lease is lost (a pause or partition
/// longer than its TTL) every claim is void: the node grants itself a new lease and
/// registers again, and takes scenes anew as clients ask for them.
final class ClusterNode: SceneStore, ClusterMember {
    let settings: ClusterSettings
    let client: EtcdClient
    let options: ClusterStoreOptions
    private(set) var store: EtcdSceneStore
    private let logger: Logger
    /// The etcd revision the node joined at: the watch starts after it.
    private let joinedAt: Int64
    private var watch: SceneWatch?
    /// Counter of this registration's forwarded requests (their ids).
    private var forwardCounter: Int64 = 0
    /// Answers read whose keys are deleted with the next forward.
    private var answersToDiscard: [String] = []

    var node: String { settings.node }
    var endpoints: [String] { settings.endpoints }
    var ownedScenes: Int { store.claims.count }

    private init(
        settings: ClusterSettings, client: EtcdClient, options: ClusterStoreOptions, store: EtcdSceneStore,
        joinedAt: Int64, logger: Logger
    ) {
        self.joinedAt = joinedAt
        self.settings = settings
        self.client = client
        self.options = options
        self.store = store
        self.logger = logger
    }

    /// Connects to etcd, grants the node's lease and registers it. A configuration etcd
    /// cannot use (bad URL, unreadable TLS file) throws; etcd not answering is retried with
    /// a log line each time, backing off to 5 s, until it answers or a stop signal arrives
    /// (then nil).
    static func connect(_ settings: ClusterSettings, logger: Logger) throws -> ClusterNode? {
        let endpoints = try EtcdEndpoint.parseList(settings.endpoints.joined(separator: ","))
        let tls: EtcdTLSFiles? =
            if let ca = settings.tlsCA, let cert = settings.tlsCert, let key = settings.tlsKey {
                EtcdTLSFiles(ca: ca, cert: cert, key: key)
            } else { nil }
        let client = try EtcdClient(options: EtcdClientOptions(endpoints: endpoints, tls: tls))
        // Commits, and the read-backs that learn an unknown outcome, run on the loop thread:
        // past a leader election (about one election timeout) more waiting would only stall
        // the node's other clients. A scene whose outcome is still unknown is reported
        // indeterminate (its client's connection closes) and read back on its next request.
        let options = ClusterStoreOptions(
            keys: ClusterKeys(prefix: settings.prefix), resolveBudget: Self.resolveBudget, autoAcquire: false)
        var delay = 0.25
        var attempts = 0
        while true {
            attempts += 1
            do throws(EtcdError) {
                let store = try register(settings, client: client, options: options)
                // Before the scenes are loaded: the watch replays what changes meanwhile, and
                // the loop skips what its copies hold already.
                let joinedAt = try client.rangeBlocking(
                    .with {
                        $0.key = Data(options.keys.everything); $0.limit = 1
                    }, timeout: options.txnTimeout
                ).header.revision
                logger.info(
                    "cluster: node \(settings.node) joined etcd at \(settings.endpoints.joined(separator: ",")) (lease \(store.lease.id), TTL \(store.lease.ttlSeconds) s)"
                )
                let node = ClusterNode(
                    settings: settings, client: client, options: options, store: store, joinedAt: joinedAt,
                    logger: logger)
                // Answers to an earlier process of this node were never read by this one.
                let stale = options.keys.replyPrefix(node: settings.node)
                _ = try? client.txnBlocking(
                    .with {
                        $0.success = [
                            TxnPlanner.deleteOp(stale, rangeEnd: ClusterKeys.rangeEnd(ofPrefix: stale))
                        ]
                    }, timeout: options.txnTimeout)
                return node
            } catch {
                if error.isConfiguration { throw error }
                logger.warning(
                    "cluster: etcd at \(settings.endpoints.joined(separator: ",")) does not answer (attempt \(attempts): \(error)); retrying in \(delay) s"
                )
            }
            let until = Date().addingTimeInterval(delay)
            while Date() < until {
                if Daemon.stopRequestedDuringStartup {
                    client.close()
                    return nil
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            delay = min(delay * 2, 5)
        }
    }

    /// How long a commit keeps reading back an unknown outcome.
    static let resolveBudget: Duration = .seconds(5)

    private static func register(
        _ settings: ClusterSettings, client: EtcdClient, options: ClusterStoreOptions
    ) throws(EtcdError) -> EtcdSceneStore {
        let lease = try EtcdLease(client: client)
        return try EtcdSceneStore(client: client, node: settings.node, lease: lease, options: options)
    }

    /// A lost lease voids every claim: a new lease and registration before anything else.
    private func renewIfLost() throws(EtcdError) {
        guard store.lease.isLost else { return }
        let owned = store.claims.count
        store = try Self.register(settings, client: client, options: options)
        logger.warning(
            "cluster: the node's lease was lost; \(owned) scene(s) given up, registered again with lease \(store.lease.id)"
        )
    }

    // MARK: ClusterMember

    func claim(_ scene: String, take: Bool) -> ClusterClaim {
        do {
            try renewIfLost()
            if store.claims[scene] != nil { return .owned }
            let read = try store.read(scene, taking: take)
            let record = ClusterSceneRecord(
                checkpoint: read.checkpoint, journal: read.journal,
                forwarded: read.forwarded.map { ForwardedRequest(request: $0.request, line: $0.line) })
            return read.acquired ? .acquired(record) : .ownedElsewhere(node: read.owner, record)
        } catch {
            return .unreachable("\(error)")
        }
    }

    func owners() -> [String: String]? {
        let keys = options.keys
        do {
            let response = try client.rangeBlocking(
                .with {
                    $0.key = Data(keys.allOwners); $0.rangeEnd = Data(ClusterKeys.rangeEnd(ofPrefix: keys.allOwners))
                }, timeout: options.txnTimeout)
            var out: [String: String] = [:]
            for kv in response.kvs {
                if let scene = keys.scene(ofSceneKey: Array(kv.key)) {
                    out[scene] = String(decoding: kv.value, as: UTF8.self)
                }
            }
            return out
        } catch {
            return nil
        }
    }

    func owner(of scene: String) -> String? {
        if store.claims[scene] != nil, !store.lease.isLost { return node }
        return (try? store.owner(of: scene))?.node
    }

    func commitTurn(_ batch: StoreBatch) -> ClusterCommitReport {
        if batch.isEmpty { return ClusterCommitReport() }
        do {
            try renewIfLost()
        } catch {
            // No lease, no claim: nothing of the batch can be written.
            var report = ClusterCommitReport()
            for scene in Self.scenes(of: batch) { report.notApplied[scene] = "no lease: \(error)" }
            return report
        }
        let outcome = store.commitDetailed(batch)
        var report = ClusterCommitReport()
        report.fenced = Set(outcome.fenced.keys)
        report.indeterminate = outcome.indeterminate
        for (scene, why) in outcome.notApplied {
            if outcome.durable[scene] != nil {
                // Part of the scene's changes stored, the rest not: the loop's copy cannot say
                // which. Nothing of it is acknowledged; the next request reads it back.
                store.forget(scene)
                report.indeterminate.insert(scene)
            } else {
                report.notApplied[scene] = why
            }
        }
        if !outcome.metaCommitted { logger.warning("cluster: daemon values (meta) of a commit were not stored") }
        return report
    }

    private static func scenes(of batch: StoreBatch) -> Set<String> {
        var out = Set<String>()
        for operation in batch.operations {
            switch operation {
            case .upsertScene(let id, _, _, _), .deleteScene(let id): out.insert(id)
            case .appendJournal(let scene, _, _, _): out.insert(scene)
            case .insertSnapshotSession(let session): out.insert(session.scene)
            case .answerForwarded(let scene, _, _): out.insert(scene)
            case .setMeta: break
            }
        }
        return out
    }

    func leaderReachable() -> Bool {
        guard let status = try? client.statusBlocking(timeout: .milliseconds(500)) else { return false }
        return status.leader != 0
    }

    /// A claim under a lost lease holds nothing: another node may own the scene already, and
    /// its changes must be followed.
    func holds(_ scene: String) -> Bool { store.claims[scene] != nil && !store.lease.isLost }

    func ownedSince(_ scene: String) -> Int64? { store.claims[scene]?.token }

    func release(_ scene: String) {
        do {
            try store.release(scene)
        } catch {
            // The key goes with the node's lease anyway.
            logger.warning("cluster: scene '\(scene)' could not be given up: \(error)")
        }
    }

    func forward(_ requests: [(line: [UInt8], scene: String)]) -> [String]? {
        do {
            try renewIfLost()
            let keys = options.keys
            var ids: [String] = []
            var puts: [Etcdserverpb_RequestOp] = []
            for request in requests {
                forwardCounter += 1
                let id = ClusterKeys.forwardRequest(node: node, lease: store.lease.id, counter: forwardCounter)
                ids.append(id)
                // Bound to this node's lease: a request whose sender died goes with it.
                puts.append(TxnPlanner.put(keys.inbox(request.scene, request: id), request.line, lease: store.lease.id))
            }
            let discard = Array(answersToDiscard.prefix(max(0, TxnPlanner.defaultMaxOps - puts.count)))
            let response = try client.txnBlocking(
                .with { $0.success = puts + discard.map { TxnPlanner.deleteOp(keys.reply($0)) } },
                timeout: options.txnTimeout)
            guard response.succeeded else { return nil }
            answersToDiscard.removeFirst(discard.count)
            return ids
        } catch {
            logger.warning("cluster: \(requests.count) request(s) could not be forwarded: \(error)")
            return nil
        }
    }

    func withdraw(_ request: String, scene: String) -> Bool? {
        let key = options.keys.inbox(scene, request: request)
        do {
            let response = try client.txnBlocking(
                .with {
                    $0.compare = [
                        .with {
                            $0.key = Data(key); $0.target = .version; $0.result = .greater; $0.version = 0
                        }
                    ]
                    $0.success = [TxnPlanner.deleteOp(key)]
                }, timeout: options.txnTimeout)
            return response.succeeded
        } catch {
            return nil
        }
    }

    func answer(to request: String) -> [UInt8]? {
        let response = try? client.rangeBlocking(
            .with { $0.key = Data(options.keys.reply(request)) }, timeout: options.txnTimeout)
        return response?.kvs.first.map { Array($0.value) }
    }

    func discardAnswers(_ requests: [String]) {
        answersToDiscard.append(contentsOf: requests)
        // Deleted with the next forward; a node that stops forwarding deletes them in bulk.
        guard answersToDiscard.count >= 64 else { return }
        let keys = options.keys
        let discard = answersToDiscard
        if (try? client.txnBlocking(
            .with { $0.success = discard.map { TxnPlanner.deleteOp(keys.reply($0)) } },
            timeout: options.txnTimeout)) != nil
        {
            answersToDiscard.removeFirst(discard.count)
        }
    }

    func startWatching(_ deliver: @escaping @Sendable ([ClusterEvent]) -> Void) {
        watch = SceneWatch(client: client, keys: options.keys, fromRevision: joinedAt + 1) { events, _ in
            deliver(
                events.map { event -> ClusterEvent in
                    switch event {
                    case .journal(let entry): .journal(entry)
                    case .checkpoint(let stored): .checkpoint(stored)
                    case .sceneDeleted(let scene): .sceneDeleted(scene)
                    case .ownerGone(let scene): .ownerGone(scene)
                    case .resync: .resync
                    case .forwarded(let scene, let request, let line, let at):
                        .forwarded(scene: scene, ForwardedRequest(request: request, line: line), at: at)
                    case .answered(let request, let reply): .answered(request: request, reply: reply)
                    }
                })
        }
    }

    func stopWatching() {
        watch?.stop()
        watch = nil
    }

    var watchStatus: (open: Bool, reopened: Int) { (watch?.isOpen ?? false, watch?.reopened ?? 0) }

    // MARK: SceneStore (the etcd store's, through the current registration)

    func commit(_ batch: StoreBatch) throws(StoreError) { try store.commit(batch) }
    func loadScenes() throws(StoreError) -> [StoredScene] { try store.loadScenes() }
    func journal(scene: String, from revision: Int64, limit: Int?) throws(StoreError) -> [JournalEntry] {
        try store.journal(scene: scene, from: revision, limit: limit)
    }
    func journalTails() throws(StoreError) -> [JournalEntry] { try store.journalTails() }
    func snapshotSessions(scene: String) throws(StoreError) -> [SnapshotSessionSummary] {
        try store.snapshotSessions(scene: scene)
    }
    func snapshotSession(id: String) throws(StoreError) -> SnapshotSession? { try store.snapshotSession(id: id) }
    func nextSessionNumber() -> Int64 { store.nextSessionNumber() }
    func meta(key: String) throws(StoreError) -> String? { try store.meta(key: key) }
    func counts() throws(StoreError) -> StoreCounts { try store.counts() }
    var statistics: StoreStatistics { store.statistics }
    func checkpoint() throws(StoreError) { try store.checkpoint() }
    func close() throws(StoreError) {
        stopWatching()
        try store.close()
        client.close()
    }
}

extension EtcdError {
    /// A problem of the configuration, which retrying does not cure.
    var isConfiguration: Bool {
        if case .configuration = self { return true }
        return false
    }
}
#endif
