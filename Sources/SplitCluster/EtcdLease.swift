import EtcdAPI
import Foundation
import GRPCCore

/// A lease of this node, kept alive by a background keepalive stream.
///
/// Owner keys are put with this lease: when the node stops renewing it (crash, pause,
/// partition), etcd deletes them after the TTL and another node may take the scenes. The
/// local expiry estimate is conservative: it counts the TTL from when the oldest
/// keepalive still unanswered was *sent*, so the node believes the lease lost no later
/// than etcd does. Fencing never depends on that estimate (every write compares the owner
/// key in etcd); it only lets the node stop serving before its writes start failing.
public final class EtcdLease: Sendable {
    public let id: Int64
    public let ttlSeconds: Int64
    public let keepAliveInterval: Duration
    private let client: EtcdClient
    private let state: Locked<State>
    private let task: Locked<Task<Void, Never>?>

    struct State {
        /// Send instants of keepalives without a response yet, oldest first.
        var unanswered: [ContinuousClock.Instant] = []
        /// The instant the lease is known to be good until.
        var goodUntil: ContinuousClock.Instant
        var lost = false
        var stopped = false
        var renewals = 0
    }

    /// Grants a lease (blocking: call from a plain thread) and starts keeping it alive.
    public convenience init(
        client: EtcdClient, ttlSeconds: Int64 = 3, keepAliveInterval: Duration = .seconds(1)
    ) throws(EtcdError) {
        let sentAt = ContinuousClock.now
        let grant = try client.blocking("lease grant") { client throws(EtcdError) in
            try await client.leaseGrant(ttlSeconds: ttlSeconds)
        }
        self.init(
            client: client, id: grant.id, ttlSeconds: grant.ttl, keepAliveInterval: keepAliveInterval, grantedAt: sentAt
        )
    }

    /// Async variant of the blocking initializer.
    public static func grant(
        client: EtcdClient, ttlSeconds: Int64 = 3, keepAliveInterval: Duration = .seconds(1)
    ) async throws(EtcdError) -> EtcdLease {
        let sentAt = ContinuousClock.now
        let grant = try await client.leaseGrant(ttlSeconds: ttlSeconds)
        return EtcdLease(
            client: client, id: grant.id, ttlSeconds: grant.ttl, keepAliveInterval: keepAliveInterval, grantedAt: sentAt
        )
    }

    private init(
        client: EtcdClient, id: Int64, ttlSeconds: Int64, keepAliveInterval: Duration,
        grantedAt: ContinuousClock.Instant
    ) {
        self.client = client
        self.id = id
        self.ttlSeconds = ttlSeconds
        self.keepAliveInterval = keepAliveInterval
        self.state = Locked(State(goodUntil: grantedAt + .seconds(ttlSeconds)))
        self.task = Locked(nil)
        let state = self.state
        let leases = client.leases
        let ttl = Duration.seconds(ttlSeconds)
        let started = Task.detached {
            while !Task.isCancelled {
                if state.withLock({ $0.lost || $0.stopped }) { return }
                do {
                    try await leases.leaseKeepAlive(
                        requestProducer: { writer in
                            while !Task.isCancelled {
                                if state.withLock({ $0.lost || $0.stopped }) { return }
                                state.withLock { $0.unanswered.append(.now) }
                                try await writer.write(.with { $0.id = id })
                                try await Task.sleep(for: keepAliveInterval)
                            }
                        },
                        onResponse: { response in
                            for try await message in response.messages {
                                let lost = state.withLock { s -> Bool in
                                    let sent = s.unanswered.isEmpty ? ContinuousClock.now : s.unanswered.removeFirst()
                                    if message.ttl <= 0 { s.lost = true; return true }
                                    s.goodUntil = max(s.goodUntil, sent + .seconds(message.ttl))
                                    s.renewals += 1
                                    return false
                                }
                                if lost { return }
                            }
                        })
                } catch {
                    // The stream broke (connection lost, leader change): open another one.
                }
                state.withLock { s in
                    s.unanswered.removeAll()
                    if ContinuousClock.now > s.goodUntil { s.lost = true }
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
            _ = ttl
        }
        task.withLock { $0 = started }
    }

    /// True once etcd said the lease is gone, or the local estimate of its expiry passed.
    public var isLost: Bool {
        state.withLock { s in s.lost || ContinuousClock.now > s.goodUntil }
    }

    /// Keepalive responses received so far.
    public var renewals: Int { state.withLock { $0.renewals } }

    /// Stops renewing; the lease expires after its TTL (what a crashed node does).
    public func stopKeepAlive() {
        state.withLock { $0.stopped = true }
        task.withLock { $0?.cancel() }
    }

    /// Revokes the lease now (blocking): etcd deletes every key bound to it at once.
    public func revoke() throws(EtcdError) {
        stopKeepAlive()
        let id = self.id
        try client.blocking("lease revoke") { client throws(EtcdError) in try await client.leaseRevoke(id: id) }
        state.withLock { $0.lost = true }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}
