import EtcdAPI
import Foundation
import Glibc
import SplitCluster
import SplitStore

/// The measurements of `splitbench cluster` against one etcd cluster. Every key it writes
/// lives under `<prefix><run>/`, deleted by `finish`.
final class ClusterBench: Sendable {
    let endpoints: [EtcdEndpoint]
    let tls: EtcdTLSFiles?
    /// The writers' connections: writer w uses `clients[w % clients.count]`.
    let clients: [EtcdClient]
    /// `<prefix><pid>-<time>/`: this run's keys.
    let runPrefix: String

    init(endpoints: [EtcdEndpoint], tls: EtcdTLSFiles?, prefix: String, connections: Int) throws {
        self.endpoints = endpoints
        self.tls = tls
        runPrefix = prefix + "\(getpid())-\(time(nil))/"
        clients = try (0..<connections).map { _ in
            try EtcdClient(options: EtcdClientOptions(endpoints: endpoints, tls: tls, callTimeout: .seconds(5)))
        }
    }

    /// Deletes this run's keys and closes the connections.
    func finish() {
        let key = Array(runPrefix.utf8)
        _ = try? clients[0].blocking("delete") { client throws(EtcdError) in
            try await client.deleteRange(
                .with {
                    $0.key = Data(key); $0.rangeEnd = Data(ClusterKeys.rangeEnd(ofPrefix: key))
                })
        }
        for client in clients { client.close() }
    }

    /// etcd's version, leader and database size as the first member that answers reports them.
    func describeCluster() throws -> String {
        let status = try clients[0].statusBlocking(timeout: .seconds(5))
        let members = endpoints.map(\.description).joined(separator: ",")
        return
            "etcd \(status.version) at \(members): leader \(String(status.leader, radix: 16)), raft term \(status.raftTerm), "
            + "db \(fixed(Double(status.dbSize) / 1_048_576, 1)) MiB"
    }

    // MARK: put: etcd's anchor

    /// `writers` tasks, each putting `valueBytes` to its own key in a closed loop.
    func puts(writers: Int, valueBytes: Int, warmup: Double, seconds: Double) throws -> ClusterResult {
        let value = Data(repeating: UInt8(ascii: "v"), count: valueBytes)
        let keyPrefix = runPrefix + "put/\(writers)/"
        let measureFrom = monotonicNanoseconds() + nanoseconds(seconds: warmup)
        let until = measureFrom + nanoseconds(seconds: seconds)
        let clients = self.clients
        let tally = try runAsync { () async throws -> Tally in
            try await withThrowingTaskGroup(of: Tally.self) { group in
                for writer in 0..<writers {
                    let client = clients[writer % clients.count]
                    let key = Data(Array((keyPrefix + "w\(writer)").utf8))
                    group.addTask {
                        var tally = Tally()
                        while true {
                            let start = monotonicNanoseconds()
                            if start >= until { break }
                            do {
                                _ = try await client.put(
                                    .with {
                                        $0.key = key; $0.value = value
                                    })
                                if start >= measureFrom { tally.record(monotonicNanoseconds() - start) }
                            } catch {
                                tally.fail("\(error)", counted: start >= measureFrom)
                                try? await Task.sleep(for: .milliseconds(10))
                            }
                        }
                        return tally
                    }
                }
                var total = Tally()
                for try await one in group { total.merge(one) }
                return total
            }
        }
        return ClusterResult(
            part: "etcd-put", writers: writers, connections: clients.count, seconds: seconds, tally: tally,
            fields: ["value_bytes=\(valueBytes)"], note: "anchor: etcd alone")
    }

    // MARK: store: what EtcdSceneStore adds

    /// `writers` nodes, each an `EtcdSceneStore` with its own lease on its own thread, owning
    /// scene `w<i>` and committing one change per `commitDetailed` (a journal record and the
    /// scene's head, both compared), a checkpoint every `checkpointEvery` changes.
    func commits(
        writers: Int, valueBytes: Int, stateBytes: Int, checkpointEvery: Int, txnTimeout: Double, warmup: Double,
        seconds: Double
    ) throws -> ClusterResult {
        let keys = ClusterKeys(prefix: runPrefix + "store\(writers)/")
        let change = [UInt8](repeating: UInt8(ascii: "c"), count: valueBytes)
        let state = [UInt8](repeating: UInt8(ascii: "s"), count: stateBytes)
        var stores: [StoreBox] = []
        defer { for box in stores { try? box.store.close() } }
        for writer in 0..<writers {
            let client = clients[writer % clients.count]
            // A TTL well above a loaded machine's pauses: the run measures commits, not failover.
            let lease = try EtcdLease(client: client, ttlSeconds: 10)
            let store = try EtcdSceneStore(
                client: client, node: "bench-w\(writer)", lease: lease,
                options: ClusterStoreOptions(keys: keys, txnTimeout: .milliseconds(Int(txnTimeout * 1000))))
            stores.append(StoreBox(store))
            // The scene is created (and owned) before the clock starts: the run measures changes.
            var batch = StoreBatch()
            batch.upsertScene(id: "w\(writer)", device: "bench", revision: 1, state: state)
            let created = store.commitDetailed(batch)
            guard created.completed.contains("w\(writer)") else {
                throw BenchError("creating scene w\(writer): \(created.notApplied["w\(writer)"] ?? "not committed")")
            }
        }
        let measureFrom = monotonicNanoseconds() + nanoseconds(seconds: warmup)
        let until = measureFrom + nanoseconds(seconds: seconds)
        let group = DispatchGroup()
        for (writer, box) in stores.enumerated() {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                box.tally = Self.commitLoop(
                    store: box.store, scene: "w\(writer)", change: change, state: state,
                    checkpointEvery: checkpointEvery, measureFrom: measureFrom, until: until)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        var total = Tally()
        for box in stores { total.merge(box.tally) }
        return ClusterResult(
            part: "store-commit", writers: writers, connections: clients.count, seconds: seconds, tally: total,
            fields: [
                "value_bytes=\(valueBytes)", "state_bytes=\(stateBytes)", "checkpoint_every=\(checkpointEvery)",
                "txn_timeout_s=\(fixed(txnTimeout, 1))",
                "txns=\(total.transactions)", "unknown_outcomes=\(total.unknownOutcomes)",
            ],
            note: "1 change/commit, checkpoint every \(checkpointEvery)")
    }

    /// One node's closed loop; ends early when the scene stops (fenced or indeterminate).
    private static func commitLoop(
        store: EtcdSceneStore, scene: String, change: [UInt8], state: [UInt8], checkpointEvery: Int,
        measureFrom: UInt64, until: UInt64
    ) -> Tally {
        var tally = Tally()
        var batch = StoreBatch()
        // Revision 1 (the scene's creation) was committed before the clock started.
        var revision: Int64 = 1
        while true {
            let start = monotonicNanoseconds()
            if start >= until { break }
            revision += 1
            batch.removeAll()
            batch.appendJournal(scene: scene, revision: revision, change: change, layoutHash: "bench")
            if revision % Int64(checkpointEvery) == 0 {
                batch.upsertScene(id: scene, device: "bench", revision: revision, state: state)
            }
            let outcome = store.commitDetailed(batch)
            let measured = start >= measureFrom
            if measured {
                tally.transactions += outcome.transactions
                tally.unknownOutcomes += outcome.unknownOutcomes
            }
            if outcome.completed.contains(scene) && outcome.durable[scene] == revision {
                if measured { tally.record(monotonicNanoseconds() - start) }
                continue
            }
            let why =
                outcome.notApplied[scene] ?? outcome.fenced[scene].map { "fenced: \($0)" }
                ?? (outcome.indeterminate.contains(scene) ? "indeterminate" : "incomplete")
            tally.fail("\(scene) revision \(revision): \(why)", counted: measured)
            if outcome.fenced[scene] != nil || outcome.indeterminate.contains(scene) { break }
            // Not applied: the same revision goes again.
            revision -= 1
        }
        return tally
    }

    // MARK: watch: delivery to another member

    /// Puts through the first endpoint, one at a time, each waited for on a watcher connected
    /// to the second: the time from sending the put until the event arrives, and how much
    /// later than the put's acknowledgement that is (negative: the event came first).
    func watch(events: Int, valueBytes: Int) throws -> ClusterResult {
        let writer = try EtcdClient(
            options: EtcdClientOptions(endpoints: [endpoints[0]], tls: tls, callTimeout: .seconds(5)))
        let watcher = try EtcdClient(
            options: EtcdClientOptions(
                endpoints: [endpoints[endpoints.count > 1 ? 1 : 0]], tls: tls, callTimeout: .seconds(5)))
        defer {
            writer.close()
            watcher.close()
        }
        let prefix = Array((runPrefix + "watch/").utf8)
        let arrivals = Arrivals()
        let watch = Task.detached {
            try? await watcher.watch(prefix: prefix, fromRevision: 0) { response in
                let now = monotonicNanoseconds()
                for event in response.events {
                    let text = String(decoding: event.kv.value.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)
                    if let sequence = Int(text) { arrivals.set(sequence, now) }
                }
                return true
            }
        }
        defer { watch.cancel() }
        let padding = String(repeating: "w", count: max(0, valueBytes - 8))
        let key = Data(prefix + Array("k".utf8))
        let result = try runAsync { () async throws -> WatchTally in
            // The watch is established once a put made after it is delivered.
            let ready = monotonicNanoseconds() + 10_000_000_000
            while arrivals.get(-1) == nil {
                guard monotonicNanoseconds() < ready else { throw BenchError("watch: no event within 10 s") }
                _ = try await writer.put(
                    .with {
                        $0.key = key; $0.value = Data("-1:".utf8)
                    })
                try await Task.sleep(for: .milliseconds(100))
            }
            var tally = WatchTally()
            for sequence in 0..<events {
                let start = monotonicNanoseconds()
                var acknowledged: UInt64?
                do {
                    _ = try await writer.put(
                        .with {
                            $0.key = key; $0.value = Data("\(sequence):\(padding)".utf8)
                        })
                    acknowledged = monotonicNanoseconds()
                } catch {
                    tally.tally.fail("\(error)", counted: true)
                    continue
                }
                let deadline = monotonicNanoseconds() + 5_000_000_000
                while arrivals.get(sequence) == nil && monotonicNanoseconds() < deadline {
                    try await Task.sleep(for: .microseconds(20))
                }
                guard let arrived = arrivals.get(sequence), let acknowledged else {
                    tally.tally.fail("event \(sequence) not delivered within 5 s", counted: true)
                    continue
                }
                tally.tally.record(arrived - start)
                tally.afterAck.append(Int64(bitPattern: arrived &- acknowledged))
            }
            return tally
        }
        let after = result.afterAck.sorted()
        func percentile(_ p: Double) -> Double {
            guard !after.isEmpty else { return .nan }
            return Double(after[min(after.count - 1, Int(Double(after.count) * p / 100))]) / 1000
        }
        let members = endpoints.count > 1 ? "member 1 → member 2" : "one member"
        return ClusterResult(
            part: "watch", writers: 1, connections: 2, seconds: nil, tally: result.tally,
            fields: [
                "events=\(events)", "after_ack_p50_us=\(fixed(percentile(50), 0))",
                "after_ack_p99_us=\(fixed(percentile(99), 0))",
            ],
            note:
                "put sent → event (\(members)); after the ack p50 \(fixed(percentile(50), 0)) µs, p99 \(fixed(percentile(99), 0)) µs"
        )
    }
}

/// Counts and latencies of one writer, merged into a cell's.
struct Tally: @unchecked Sendable {
    // @unchecked: the histogram is a value owned by one writer, handed over once at its end.
    var latencies = Latencies()
    var operations = 0
    var errors = 0
    var firstError: String?
    var transactions = 0
    var unknownOutcomes = 0

    mutating func record(_ nanoseconds: UInt64) {
        latencies.record(nanoseconds)
        operations += 1
    }

    mutating func fail(_ error: String, counted: Bool) {
        if counted { errors += 1 }
        if firstError == nil { firstError = error }
    }

    mutating func merge(_ other: Tally) {
        latencies.merge(other.latencies)
        operations += other.operations
        errors += other.errors
        firstError = firstError ?? other.firstError
        transactions += other.transactions
        unknownOutcomes += other.unknownOutcomes
    }
}

struct WatchTally: Sendable {
    var tally = Tally()
    /// Event arrival minus the put's acknowledgement, nanoseconds (negative: the event first).
    var afterAck: [Int64] = []
}

/// One store and its writer's result; the writer thread alone touches it until it is joined.
final class StoreBox: @unchecked Sendable {
    let store: EtcdSceneStore
    var tally = Tally()
    init(_ store: EtcdSceneStore) { self.store = store }
}

/// When each watch event arrived, by sequence number.
final class Arrivals: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var times: [Int: UInt64] = [:]

    func set(_ sequence: Int, _ time: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        if times[sequence] == nil { times[sequence] = time }
    }

    func get(_ sequence: Int) -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return times[sequence]
    }
}

/// One measurement of `splitbench cluster`: a RESULT line and a table row.
struct ClusterResult {
    var part: String
    var writers: Int
    var connections: Int
    /// The measured period (nil: as many operations as asked, one at a time).
    var seconds: Double?
    var tally: Tally
    var fields: [String]
    var note: String

    var errors: Int { tally.errors }
    var summary: LatencySummary { tally.latencies.summary() }
    var perSecond: Double? { seconds.map { Double(tally.operations) / $0 } }

    var line: String {
        let s = summary
        var all = [
            "part=\(part)", "writers=\(writers)", "conns=\(connections)",
            "secs=\(seconds.map { fixed($0, 1) } ?? "-")", "ops=\(tally.operations)",
            "ops_per_s=\(perSecond.map { fixed($0, 0) } ?? "-")", "p50_us=\(fixed(s.p50, 0))",
            "p99_us=\(fixed(s.p99, 0))",
            "p999_us=\(fixed(s.p999, 0))", "max_us=\(fixed(s.max, 0))", "mean_us=\(fixed(s.mean, 0))",
        ]
        all += fields
        all.append("errors=\(tally.errors)")
        var text = "RESULT " + all.joined(separator: " ")
        if let error = tally.firstError { text += "\n  first error: \(error)" }
        return text
    }

    var row: [String] {
        let s = summary
        return [
            part, String(writers), perSecond.map { rate($0) } ?? "-", fixed(s.p50, 0), fixed(s.p99, 0),
            fixed(s.p999, 0),
            fixed(s.max, 0), String(tally.errors), note,
        ]
    }
}

/// Runs `body` in a detached task and waits for it on this (plain) thread.
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = AsyncResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// What `runAsync`'s task produced.
final class AsyncResult<T: Sendable>: @unchecked Sendable {
    // @unchecked: written once by the task before the semaphore is signalled, read after.
    var result: Result<T, any Error>?
}
