import Foundation
import SplitClient
import SplitLaunch
import SplitWire
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

    func startNode(_ name: String, prefix: String) throws -> DaemonProcess {
        var launch = DaemonProcess.Launch(binary: Self.splitd)
        launch.durability = nil
        launch.extraArguments = [
            "--cluster", lab.endpoints.map(\.description).joined(separator: ","), "--node", name, "--log-level", "info",
        ]
        launch.environment = ["SPLITD_CLUSTER_PREFIX": prefix]
        return try DaemonProcess(launch, readyWithin: .seconds(30))
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
        let a = try startNode("node-a", prefix: prefix)
        let b = try startNode("node-b", prefix: prefix)
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
        // B refuses to change A's scene (no forwarding yet): retryable, nothing applied.
        let refused = try request(viewer, ["op": "resize", "scene": "s", "width": 1200, "height": 600])
        XCTAssertEqual(refused["error"]?["code"], "unavailable", "\(refused)")
        XCTAssertEqual(try request(writer, ["op": "scene.get", "scene": "s"])["revision"], 21)
        let stats = try request(viewer, ["op": "stats"])
        XCTAssertEqual(stats["cluster"]?["node"], "node-b")
        XCTAssertEqual(stats["cluster"]?["leaderReachable"], true)
        XCTAssertEqual(stats["cluster"]?["changesFollowed"], 20)
    }

    func testKillingTheOwnerHandsTheSceneToTheOtherNode() throws {
        let prefix = "/takeover-\(UInt32.random(in: 0...UInt32.max))/"
        let a = try startNode("node-a", prefix: prefix)
        let b = try startNode("node-b", prefix: prefix)
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
        // B's client retries its change until B owns the scene.
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
}
