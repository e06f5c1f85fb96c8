import Foundation
import SplitClient
import SplitLaunch
import SplitWire
@testable import SplitCluster
import XCTest

/// Two real splitd processes in cluster mode on one etcd lab: a change acknowledged on one
/// node reaches a client of the same scene on the other with the same revision and layout;
/// `scene.get` shows the owner; SIGKILL of the owning splitd hands the scene to the other
/// node within the lease's TTL + 1 s, at the next revision, nothing acknowledged lost.
final class ClusterDaemonTests: XCTestCase {
    nonisolated(unsafe) static var lab: EtcdLab?
    var lab: EtcdLab { Self.lab! }

    override func setUpWithError() throws {
        try EtcdLab.skipUnlessEnabled()
        if Self.lab == nil { Self.lab = try EtcdLab(name: "sdcd", net: "10.231.31") }
    }

    override class func tearDown() {
        lab?.down()
        lab = nil
    }

    /// The built splitd: `$SPLITD_BIN_DIR`, else beside the test bundle, else .build/debug.
    static var splitd: String {
        if let dir = ProcessInfo.processInfo.environment["SPLITD_BIN_DIR"], !dir.isEmpty { return dir + "/splitd" }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("splitd").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for argument in CommandLine.arguments where argument.hasSuffix(".xctest") {
            let candidate = URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent("splitd")
                .path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/splitd").path
    }

    /// A node inside member `namespace`'s network namespace, that member's endpoint first (as
    /// a node beside its etcd member is deployed); its socket is reachable from here.
    func startNode(_ name: String, prefix: String, namespace: Int) throws -> DaemonProcess {
        let members = [namespace] + (1...3).filter { $0 != namespace }
        return try FaultNode.start(name, lab: lab, prefix: prefix, members: members, namespace: namespace).daemon
    }

    func connect(_ daemon: DaemonProcess) throws -> SplitConnection {
        try SplitConnection.connect(to: daemon.socketPath)
    }

    /// Sends a request and answers its whole response (an error response included).
    func request(_ connection: SplitConnection, _ fields: JSONObject) throws -> JSONValue {
        try connection.response(to: connection.send(request: fields))
    }

    private static let device = "mac"

    func testAChangeOnOneNodeIsPushedToTheOtherAndTheOwnerShown() throws {
        let prefix = "/push-\(UInt32.random(in: 0...UInt32.max))/"
        let a = try startNode("node-a", prefix: prefix, namespace: 1)
        let b = try startNode("node-b", prefix: prefix, namespace: 2)
        defer {
            _ = a.terminate()
            _ = b.terminate()
        }
        let writer = try connect(a), viewer = try connect(b)
        let created = try request(
            writer, ["op": "scene.create", "scene": "s", "device": "mac", "size": ["width": 800, "height": 600]])
        XCTAssertEqual(created["revision"], 1, "\(created)")
        let attached = try request(viewer, ["op": "scene.attach", "scene": "s", "role": "viewer"])
        XCTAssertEqual(attached["revision"], 1, "\(attached)")
        XCTAssertEqual(try request(viewer, ["op": "scene.get", "scene": "s"])["owner"], "node-a")
        var latencies: [Double] = []
        for step in 0..<20 {
            let started = ContinuousClock.now
            let change = try request(
                writer, ["op": "resize", "scene": "s", "width": .int(Int64(900 + step)), "height": 600])
            XCTAssertEqual(change["revision"], .int(Int64(2 + step)), "\(change)")
            let push = try viewer.nextPush(timeout: .seconds(5))
            let elapsed = ContinuousClock.now - started
            latencies.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            XCTAssertEqual(push["revision"], change["revision"])
            XCTAssertEqual(push["layout"], change["layout"])
        }
        latencies.sort()
        print(
            "cluster push: 20 changes acknowledged on node A, each pushed on node B with the same revision and layout; request-to-push p50 \(String(format: "%.2f", latencies[10])) ms, max \(String(format: "%.2f", latencies[19])) ms"
        )
        // A change sent to B goes to A, the owner, and is answered on B once applied there.
        let forwarded = try request(viewer, ["op": "resize", "scene": "s", "width": 1200, "height": 600])
        XCTAssertEqual(forwarded["revision"], 22, "\(forwarded)")
        XCTAssertEqual(forwarded["layout"]?["size"]?["width"], 1200)
        XCTAssertEqual(try request(writer, ["op": "scene.get", "scene": "s"])["revision"], 22)
        XCTAssertEqual(try request(viewer, ["op": "scene.get", "scene": "s"])["owner"], "node-a")
        let stats = try request(viewer, ["op": "stats"])
        XCTAssertEqual(stats["cluster"]?["node"], "node-b")
        XCTAssertEqual(stats["cluster"]?["leaderReachable"], true)
        XCTAssertEqual(stats["cluster"]?["forwarded"], 1)
        XCTAssertEqual(try request(writer, ["op": "stats"])["cluster"]?["forwardsRun"], 1)
    }

    func testKillingTheOwnerHandsTheSceneToTheOtherNode() throws {
        let prefix = "/takeover-\(UInt32.random(in: 0...UInt32.max))/"
        let a = try startNode("node-a", prefix: prefix, namespace: 1)
        let b = try startNode("node-b", prefix: prefix, namespace: 2)
        defer {
            _ = a.terminate()
            _ = b.terminate()
        }
        let writer = try connect(a), viewer = try connect(b)
        XCTAssertEqual(
            try request(
                writer, ["op": "scene.create", "scene": "t", "device": "mac", "size": ["width": 800, "height": 600]])[
                    "revision"], 1)
        XCTAssertEqual(try request(viewer, ["op": "scene.attach", "scene": "t", "role": "viewer"])["revision"], 1)
        var acknowledged = 1
        for step in 0..<50 {
            let change = try request(
                writer, ["op": "resize", "scene": "t", "width": .int(Int64(900 + step)), "height": 600])
            XCTAssertEqual(change["revision"], .int(Int64(acknowledged + 1)), "\(change)")
            acknowledged += 1
        }
        // Every acknowledged revision reached B before the kill.
        var seen = 1
        while seen < acknowledged {
            let push = try viewer.nextPush(timeout: .seconds(5))
            seen = push["revision"]?.int ?? seen
        }
        a.kill9()
        let killed = ContinuousClock.now
        // B's client retries its change until it is applied: B forwards it to A, which is
        // dead; once A's lease expired B takes the scene and runs the request itself.
        var taken: JSONValue?
        var attempts = 0
        while ContinuousClock.now - killed < .seconds(10) {
            attempts += 1
            let answer = try request(viewer, ["op": "resize", "scene": "t", "width": 1500, "height": 600])
            if answer["ok"] == true {
                taken = answer
                break
            }
            XCTAssertEqual(answer["error"]?["code"], "unavailable", "\(answer)")
            Thread.sleep(forTimeInterval: 0.05)
        }
        let gap = ContinuousClock.now - killed
        let seconds = Double(gap.components.seconds) + Double(gap.components.attoseconds) / 1e18
        print(
            "cluster takeover: owner SIGKILLed after \(acknowledged) acknowledged revisions; node B changed the scene \(String(format: "%.2f", seconds)) s later (lease TTL 3 s) at revision \(taken?["revision"] ?? "none"), after \(attempts) attempts"
        )
        XCTAssertEqual(taken?["revision"], .int(Int64(acknowledged + 1)))
        XCTAssertLessThan(seconds, 4.0, "takeover within the lease TTL (3 s) + 1 s")
        let detail = try request(viewer, ["op": "scene.get", "scene": "t"])
        XCTAssertEqual(detail["owner"], "node-b")
        XCTAssertEqual(detail["revision"], .int(Int64(acknowledged + 1)))
    }

    /// Milliseconds since `start`.
    private static func millis(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    func testConcurrentWritersOnBothNodesLeaveIdenticalSequences() throws {
        let prefix = "/concurrent-\(UInt32.random(in: 0...UInt32.max))/"
        let a = try startNode("node-a", prefix: prefix, namespace: 1)
        let b = try startNode("node-b", prefix: prefix, namespace: 2)
        defer {
            _ = a.terminate()
            _ = b.terminate()
        }
        let setup = try connect(a)
        XCTAssertEqual(
            try request(
                setup,
                ["op": "scene.create", "scene": "c", "device": "ipad-pro-11", "size": ["width": 1194, "height": 834]]
            )["revision"], 1)
        let viewers = [try connect(a), try connect(b)]
        for viewer in viewers {
            XCTAssertEqual(try request(viewer, ["op": "scene.attach", "scene": "c", "role": "viewer"])["revision"], 1)
        }
        // Two writers per node, each alternating resizes across the compact/regular boundary
        // and intents; B's requests are forwarded to A.
        let writersPerNode = 2, changesPerWriter = 25
        let sockets = [a.socketPath, b.socketPath]
        let total = 2 * writersPerNode * changesPerWriter
        let results = Locked<[(node: Int, revision: Int, millis: Double)]>([])
        let failures = Locked<[String]>([])
        // The viewers read while the writers write, as live clients do.
        let sequences = Locked<[[(Int, JSONValue)]]>([[], []])
        let group = DispatchGroup()
        for (i, viewer) in viewers.enumerated() {
            // Each viewer is read by its thread alone from here on.
            nonisolated(unsafe) let viewer = viewer
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var seen: [(Int, JSONValue)] = []
                while (seen.last?.0 ?? 1) < total + 1 {
                    guard let push = try? viewer.nextPush(timeout: .seconds(20)) else { break }
                    seen.append((push["revision"]?.int ?? -1, push["layout"] ?? .null))
                }
                sequences.withLock { $0[i] = seen }
            }
        }
        for index in 0..<(2 * writersPerNode) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                Self.write(
                    index: index, to: sockets[index % 2], changes: changesPerWriter, results: results,
                    failures: failures)
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(failures.withLock { $0 }, [])
        let acknowledged = results.withLock { $0 }
        XCTAssertEqual(acknowledged.count, total)
        // One order: every revision acknowledged once, 2...total+1.
        XCTAssertEqual(acknowledged.map(\.revision).sorted(), Array(2...(total + 1)))
        // Both viewers saw every revision, in order, with the same layouts.
        let seen = sequences.withLock { $0 }
        for (i, sequence) in seen.enumerated() {
            let missing = Set(2...(total + 1)).subtracting(sequence.map(\.0)).sorted()
            if !missing.isEmpty {
                let made = acknowledged.filter { missing.contains($0.revision) }.map { "\($0.revision)@\($0.node)" }
                print("viewer \(i) missed \(made)")
            }
        }
        XCTAssertEqual(seen[0].map(\.0), Array(2...(total + 1)))
        XCTAssertEqual(seen[1].map(\.0), Array(2...(total + 1)))
        for (pushA, pushB) in zip(seen[0], seen[1]) {
            XCTAssertEqual(pushA.1, pushB.1, "revision \(pushA.0)")
        }
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        let onA = acknowledged.filter { $0.node == 0 }.map(\.millis)
        let onB = acknowledged.filter { $0.node == 1 }.map(\.millis)
        print(
            "cluster concurrent writers: \(total) changes from \(writersPerNode) writers on each of 2 nodes, revisions 2-\(total + 1) each acknowledged once; both nodes' viewers saw the same \(total) (revision, layout) pairs in order; change latency on the owner p50 \(String(format: "%.1f", percentile(onA, 0.5))) ms p99 \(String(format: "%.1f", percentile(onA, 0.99))) ms, forwarded from the other node p50 \(String(format: "%.1f", percentile(onB, 0.5))) ms p99 \(String(format: "%.1f", percentile(onB, 0.99))) ms"
        )
    }

    /// One writer: `changes` changes to scene `c`, alternating resizes across the
    /// compact/regular boundary and pushes.
    private static func write(
        index: Int, to socket: String, changes: Int, results: Locked<[(node: Int, revision: Int, millis: Double)]>,
        failures: Locked<[String]>
    ) {
        let node = index % 2
        do {
            let writer = try SplitConnection.connect(to: socket)
            for step in 0..<changes {
                let fields: JSONObject =
                    step % 3 == 2
                    ? [
                        "op": "intent", "scene": "c",
                        "intent": ["kind": "push", "column": "primary", "vc": .string("w\(index)-\(step)")],
                    ]
                    : ["op": "resize", "scene": "c", "width": .int(Int64(500 + 40 * index + 17 * step)), "height": 834]
                let started = ContinuousClock.now
                let answer = try writer.response(to: writer.send(request: fields))
                guard answer["ok"] == true, let revision = answer["revision"]?.int else {
                    failures.withLock { $0.append("\(answer)") }
                    continue
                }
                let elapsed = millis(since: started)
                results.withLock { $0.append((node, revision, elapsed)) }
            }
        } catch {
            failures.withLock { $0.append("\(error)") }
        }
    }
}
