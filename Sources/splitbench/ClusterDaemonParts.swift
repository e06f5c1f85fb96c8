import Foundation
import Glibc
import SplitCluster

/// The daemon-level parts of `splitbench cluster` (`daemon-change`, `daemon-push`,
/// `failover`): figures through `splitd --cluster` nodes on the same etcd as the etcd parts,
/// so that each sits beside etcd's own figure from the same run.
struct ClusterDaemonParts {
    let splitd: String
    let endpoints: String
    let workDir: String
    /// Each run's nodes use a prefix of their own under this one (deleted with it).
    let prefix: String
    /// With https:// endpoints: the nodes' CA, certificate and key files.
    let tls: (ca: String, cert: String, key: String)?

    /// splitd next to this splitbench.
    static var defaultSplitd: String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("splitd").path
    }

    /// Refuses, before anything starts, a splitd without cluster mode.
    static func requireClusterSplitd(_ binary: String, parts: [ClusterPart]) throws {
        let names = parts.map(\.rawValue).joined(separator: ", ")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("\(names): no splitd at \(binary) (pass --splitd)")
        }
        let help = try Subprocess.run(binary, ["--help"], timeout: 30, scratch: NSTemporaryDirectory())
        guard help.output.contains("--cluster") else {
            throw BenchError("\(names): \(binary) has no cluster mode (no --cluster in its --help)")
        }
    }

    /// Two nodes, `node-a` and `node-b`, on a fresh prefix.
    private func startNodes(_ tag: String) throws -> (DaemonProcess, DaemonProcess) {
        let runPrefix = prefix + "\(tag)-\(UInt32.random(in: 0...UInt32.max))/"
        func start(_ name: String) throws -> DaemonProcess {
            let directory = workDir + "/cluster-\(tag)-\(name)"
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var launch = DaemonProcess.Launch(binary: splitd, directory: directory)
            launch.extraArguments = ["--cluster", endpoints, "--node", name]
            launch.environment = ["SPLITD_CLUSTER_PREFIX": runPrefix]
            if let tls {
                launch.environment["SPLITD_CLUSTER_TLS_CA"] = tls.ca
                launch.environment["SPLITD_CLUSTER_TLS_CERT"] = tls.cert
                launch.environment["SPLITD_CLUSTER_TLS_KEY"] = tls.key
            }
            let daemon = try DaemonProcess(launch)
            _ = try daemon.waitUntilReady(timeout: 60)
            return daemon
        }
        return (try start("node-a"), try start("node-b"))
    }

    private static func create(_ scene: String, on client: LineClient) throws {
        try client.call(
            #"{"id":0,"op":"scene.create","scene":"\#(scene)","device":"mac","size":{"width":800,"height":600}}"#)
    }

    private static func resize(_ scene: String, step: Int, id: Int) -> String {
        #"{"id":\#(id),"op":"resize","scene":"\#(scene)","width":\#(800 + step % 2),"height":600}"#
    }

    /// `writers` closed-loop clients, each changing a scene of its own that node A owns,
    /// connected to A (`forwarded` false) or to B (each change forwarded to A through etcd).
    func changes(writers: Int, forwarded: Bool, warmup: Double, seconds: Double) throws -> ClusterResult {
        let (a, b) = try startNodes("change")
        defer {
            a.stop()
            b.stop()
        }
        let setup = try LineClient(path: a.socketPath)
        for writer in 0..<writers { try Self.create("w\(writer)", on: setup) }
        let socket = forwarded ? b.socketPath : a.socketPath
        let tallies = Locked<[Tally]>([])
        let group = DispatchGroup()
        let start = monotonicNanoseconds()
        let measureFrom = start + nanoseconds(seconds: warmup)
        let end = measureFrom + nanoseconds(seconds: seconds)
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var tally = Tally()
                do {
                    let client = try LineClient(path: socket)
                    var step = 0
                    while true {
                        let sent = monotonicNanoseconds()
                        if sent >= end { break }
                        step += 1
                        do {
                            try client.call(Self.resize("w\(writer)", step: step, id: step), timeout: 30)
                            if sent >= measureFrom { tally.record(monotonicNanoseconds() - sent) }
                        } catch {
                            tally.fail("\(error)", counted: sent >= measureFrom)
                        }
                    }
                } catch {
                    tally.fail("\(error)", counted: true)
                }
                tallies.withLock { $0.append(tally) }
            }
        }
        group.wait()
        var total = Tally()
        for tally in tallies.withLock({ $0 }) { total.merge(tally) }
        return ClusterResult(
            part: forwarded ? "daemon-change-forwarded" : "daemon-change", writers: writers, connections: writers,
            seconds: seconds, tally: total, fields: ["via=\(forwarded ? "node-b" : "owner")"],
            note: forwarded
                ? "resize sent to node B, forwarded to owner A through etcd, request to reply"
                : "resize on the owning node, request to reply (durable in etcd)")
    }

    /// A change acknowledged on node A until node B pushes it to its viewer, one at a time.
    func pushes(count: Int) throws -> ClusterResult {
        let (a, b) = try startNodes("push")
        defer {
            a.stop()
            b.stop()
        }
        let writer = try LineClient(path: a.socketPath)
        try Self.create("p", on: writer)
        let viewer = try LineClient(path: b.socketPath)
        try viewer.call(#"{"id":1,"op":"scene.attach","scene":"p","role":"viewer"}"#)
        var tally = Tally()
        for step in 1...count {
            do {
                let reply = try writer.call(Self.resize("p", step: step, id: step))
                let acknowledged = monotonicNanoseconds()
                guard let revision = Self.revision(in: reply) else { throw BenchError("no revision in \(reply)") }
                while true {
                    let line = String(decoding: try viewer.readLine(timeout: 10), as: UTF8.self)
                    if Self.revision(in: line) == revision, line.contains(#""event""#) { break }
                }
                tally.record(monotonicNanoseconds() - acknowledged)
            } catch {
                tally.fail("\(error)", counted: true)
            }
        }
        return ClusterResult(
            part: "daemon-push", writers: 1, connections: 2, seconds: nil, tally: tally, fields: [],
            note: "reply on node A (owner) to the push of that revision on node B")
    }

    /// The owner node SIGKILLed while a client of node B changes its scene: the time from the
    /// kill until B answers a change (after the lease's TTL, B takes the scene over). Each
    /// round starts two fresh nodes.
    func failovers(rounds: Int) throws -> ClusterResult {
        var tally = Tally()
        for round in 0..<rounds {
            let (a, b) = try startNodes("failover\(round)")
            defer {
                a.stop()
                b.stop()
            }
            let writer = try LineClient(path: a.socketPath)
            try Self.create("f", on: writer)
            for step in 1...10 { try writer.call(Self.resize("f", step: step, id: step)) }
            let client = try LineClient(path: b.socketPath)
            try client.call(#"{"id":1,"op":"scene.attach","scene":"f","role":"viewer"}"#)
            kill(a.pid, SIGKILL)
            let killed = monotonicNanoseconds()
            var answered = false
            var step = 100
            while monotonicNanoseconds() - killed < nanoseconds(seconds: 20) {
                step += 1
                if (try? client.call(Self.resize("f", step: step, id: step), timeout: 20)) != nil {
                    answered = true
                    break
                }
            }
            if answered {
                tally.record(monotonicNanoseconds() - killed)
            } else {
                tally.fail("round \(round): node B answered no change within 20 s of the kill", counted: true)
            }
        }
        return ClusterResult(
            part: "failover", writers: 1, connections: 1, seconds: nil, tally: tally, fields: ["rounds=\(rounds)"],
            note: "owner SIGKILLed: kill to the first change answered by the other node (lease TTL 3 s)")
    }

    private static func revision(in line: String) -> Int? {
        guard let range = line.range(of: #""revision":"#) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
