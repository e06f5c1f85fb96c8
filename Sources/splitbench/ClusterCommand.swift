import ArgumentParser
import Foundation
import Glibc
import SplitCluster

/// `splitbench cluster`: cluster mode's costs, each with etcd's own figure from the same run
/// beside it: etcd puts (the anchor), `EtcdSceneStore` commits (what splitd's store adds on
/// top: compares, journal records, heads, checkpoints), and watch delivery across members.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "etcd cluster mode: etcd put latency (anchor), scene store commits, watch delivery across members.",
        discussion: """
            Targets the etcd cluster at --endpoints, or, without it and as root, starts a \
            3-member lab in network namespaces with Scripts/cluster-netns (its data under \
            --work-dir, so on the work folder's disk) and removes it at the end. Parts: \
            `put` (etcd's anchor: one put per request through the project's EtcdClient, W \
            writers in a closed loop, each on its own key), `store` (W nodes, each an \
            EtcdSceneStore on its own thread owning one scene, committing one change per \
            transaction plus a checkpoint every --checkpoint-every changes), `watch` (a put \
            through the first endpoint, the event on a watcher connected to the second). \
            Every key lives under --prefix, deleted at the end. \
            Daemon-level parts start `splitd --cluster` nodes (--splitd, default: next to \
            splitbench) on the same etcd: `daemon-change` (W writers, each changing a scene \
            of its own owned by node A, connected to A, then to B so that every change is \
            forwarded to A through etcd), `daemon-push` (a change acknowledged on A until B \
            pushes it, --push-events times), `failover` (the owner SIGKILLed: time until the \
            other node answers a change, --failover-rounds times). \
            One RESULT line per measurement, then a table. Exit status 3 when any request failed.
            """)

    @Option(help: ArgumentHelp("etcd client URLs, comma-separated (default: start a lab, as root).", valueName: "urls"))
    var endpoints: String?

    @Option(help: ArgumentHelp("With https:// endpoints: CA file.", valueName: "file"))
    var tlsCA: String?

    @Option(help: ArgumentHelp("With https:// endpoints: client certificate file.", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("With https:// endpoints: client key file.", valueName: "file"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("The lab script (default: Scripts/cluster-netns of this checkout).", valueName: "path"))
    var labScript: String?

    @Option(help: ArgumentHelp("Folder for the lab's etcd data and scratch files.", valueName: "dir"))
    var workDir = "bench-out"

    @Option(parsing: .upToNextOption, help: "Parts to run.")
    var parts: [ClusterPart] = [.put, .store, .watch]

    @Option(parsing: .upToNextOption, help: "Concurrent writers (put and store).")
    var writers: [Int] = [1, 10, 100]

    @Option(help: "etcd connections the writers share (one HTTP/2 connection each, writers spread evenly).")
    var connections = 1

    @Option(help: "Warm-up seconds per cell (not measured).")
    var warmup: Double = 1

    @Option(help: "Measured seconds per cell.")
    var seconds: Double = 5

    @Option(help: "Bytes of each put's value and of each store change.")
    var valueBytes = 256

    @Option(help: "Bytes of a store checkpoint (a scene's full state).")
    var stateBytes = 4096

    @Option(help: "Store: a checkpoint (full state, journal deleted) every this many changes of a scene.")
    var checkpointEvery = 100

    @Option(
        help:
            "Store: seconds a transaction may take before its outcome counts as unknown (splitd's store uses 2); a loaded machine at 100 writers needs more to measure anything but timeouts."
    )
    var txnTimeout: Double = 2

    @Option(help: "Watch: events measured (one at a time).")
    var watchEvents = 500

    @Option(help: ArgumentHelp("Key prefix of everything written (deleted at the end).", valueName: "prefix"))
    var prefix = "/splitbench/"

    @Option(help: ArgumentHelp("Daemon parts: splitd binary (default: next to splitbench).", valueName: "path"))
    var splitd: String?

    @Option(help: "daemon-push: changes measured (one at a time).")
    var pushEvents = 200

    @Option(help: "failover: rounds (two fresh nodes each).")
    var failoverRounds = 3

    func validate() throws {
        guard writers.allSatisfy({ $0 >= 1 && $0 <= 1000 }) else { throw ValidationError("--writers: 1...1000 each") }
        guard connections >= 1 && connections <= 100 else { throw ValidationError("--connections: 1...100") }
        guard txnTimeout > 0 && txnTimeout <= 60 else { throw ValidationError("--txn-timeout: (0, 60] seconds") }
        guard seconds > 0, warmup >= 0 else { throw ValidationError("--seconds must be > 0, --warmup >= 0") }
        guard pushEvents >= 1, failoverRounds >= 1 else {
            throw ValidationError("--push-events and --failover-rounds must be >= 1")
        }
        guard valueBytes >= 1, stateBytes >= 1, checkpointEvery >= 1, watchEvents >= 1 else {
            throw ValidationError("--value-bytes, --state-bytes, --checkpoint-every and --watch-events must be >= 1")
        }
        guard prefix.hasPrefix("/"), prefix.hasSuffix("/"), prefix.count > 2 else {
            throw ValidationError("--prefix must start and end with '/' and name something (e.g. /splitbench/)")
        }
        let tlsCount = [tlsCA, tlsCert, tlsKey].compactMap { $0 }.count
        guard tlsCount == 0 || tlsCount == 3 else {
            throw ValidationError("--tls-ca, --tls-cert and --tls-key go together")
        }
        if endpoints == nil && tlsCount > 0 {
            throw ValidationError("TLS files need --endpoints (the lab is plaintext)")
        }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        let workDir = URL(fileURLWithPath: workDir).standardizedFileURL.path
        let daemonParts = parts.filter(\.isDaemonLevel)
        if !daemonParts.isEmpty {
            try ClusterDaemonParts.requireClusterSplitd(splitd ?? ClusterDaemonParts.defaultSplitd, parts: daemonParts)
        }
        print(MachineInfo.describe(directory: workDir))
        var lab: ClusterLab?
        defer { lab?.down() }
        let urls: String
        if let endpoints {
            urls = endpoints
        } else {
            lab = try ClusterLab.up(script: labScript, workDir: workDir)
            urls = lab!.endpoints
            print("lab: 3 etcd members in network namespaces (Scripts/cluster-netns), data in \(lab!.directory)")
        }
        let tls = tlsCA.map { EtcdTLSFiles(ca: $0, cert: tlsCert!, key: tlsKey!) }
        let bench = try ClusterBench(
            endpoints: try EtcdEndpoint.parseList(urls), tls: tls, prefix: prefix, connections: connections)
        defer { bench.finish() }
        print(try bench.describeCluster())
        print("")

        var table = Table(["part", "writers", "ops/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors", "notes"])
        var failed = false
        for part in parts where !part.isDaemonLevel {
            switch part {
            case .put, .store:
                for count in writers {
                    let result =
                        part == .put
                        ? try bench.puts(
                            writers: count, valueBytes: valueBytes, warmup: warmup, seconds: seconds)
                        : try bench.commits(
                            writers: count, valueBytes: valueBytes, stateBytes: stateBytes,
                            checkpointEvery: checkpointEvery, txnTimeout: txnTimeout, warmup: warmup,
                            seconds: seconds)
                    print(result.line)
                    table.add(result.row)
                    failed = failed || result.errors > 0
                }
            case .watch:
                let result = try bench.watch(events: watchEvents, valueBytes: valueBytes)
                print(result.line)
                table.add(result.row)
                failed = failed || result.errors > 0
            case .daemonChange, .daemonPush, .failover:
                break
            }
        }
        let nodes = ClusterDaemonParts(
            splitd: splitd ?? ClusterDaemonParts.defaultSplitd, endpoints: urls, workDir: workDir, prefix: prefix,
            tls: tlsCA.map { ($0, tlsCert!, tlsKey!) })
        for part in daemonParts {
            var results: [ClusterResult] = []
            switch part {
            case .daemonChange:
                for count in writers {
                    results.append(
                        try nodes.changes(writers: count, forwarded: false, warmup: warmup, seconds: seconds))
                    results.append(try nodes.changes(writers: count, forwarded: true, warmup: warmup, seconds: seconds))
                }
            case .daemonPush: results.append(try nodes.pushes(count: pushEvents))
            case .failover: results.append(try nodes.failovers(rounds: failoverRounds))
            case .put, .store, .watch: break
            }
            for result in results {
                print(result.line)
                table.add(result.row)
                failed = failed || result.errors > 0
            }
        }
        print("")
        print(table.render())
        if failed { throw ExitCode(3) }
    }
}

/// What `splitbench cluster` can measure.
enum ClusterPart: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// etcd's own write latency and rate: the anchor.
    case put
    /// `EtcdSceneStore.commitDetailed`: what the daemon's store does per flush.
    case store
    /// A put through one member, the event on a watcher connected to another.
    case watch
    /// A change through `splitd --cluster` (request to reply), with etcd under it.
    case daemonChange = "daemon-change"
    /// A change acknowledged by node A until node B pushes it to its client.
    case daemonPush = "daemon-push"
    /// The owner node killed: time until another node answers changes of its scene.
    case failover

    var isDaemonLevel: Bool { self == .daemonChange || self == .daemonPush || self == .failover }
}

/// A lab started for the run: 3 members in network namespaces through Scripts/cluster-netns,
/// their data under the work folder.
struct ClusterLab {
    let script: String
    let directory: String
    let endpoints: String
    static let name = "sdbench"
    // Its own net: the test labs use 10.231.28-42, and the bench may run beside them.
    static let net = "10.231.51"

    static func up(script: String?, workDir: String) throws -> ClusterLab {
        guard getuid() == 0 else {
            throw BenchError(
                "splitbench cluster: without --endpoints it starts an etcd lab in network namespaces, which needs root")
        }
        let script = try script ?? defaultScript()
        let directory = workDir + "/etcd-lab"
        // cluster-netns reads its names and folder from the environment.
        setenv("CLUSTER_NAME", name, 1)
        setenv("CLUSTER_NET", net, 1)
        setenv("CLUSTER_DIR", directory, 1)
        let lab = ClusterLab(script: script, directory: directory, endpoints: "")
        let run = try Subprocess.run("/bin/bash", [script, "up"], timeout: 90, scratch: workDir)
        guard run.status == 0,
            let line = run.output.split(separator: "\n").first(where: { $0.hasPrefix("ENDPOINTS=") })
        else {
            lab.down()
            throw BenchError("cluster-netns up failed (status \(run.status)): \(run.errorOutput.suffix(800))")
        }
        return ClusterLab(script: script, directory: directory, endpoints: String(line.dropFirst("ENDPOINTS=".count)))
    }

    func down() {
        _ = try? Subprocess.run("/bin/bash", [script, "down"], timeout: 60, scratch: NSTemporaryDirectory())
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Scripts/cluster-netns in the current directory, else in the checkout holding this binary.
    static func defaultScript() throws -> String {
        var candidates = [FileManager.default.currentDirectoryPath]
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: me).deletingLastPathComponent()
        while folder.path != "/" {
            candidates.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        for root in candidates where FileManager.default.isExecutableFile(atPath: root + "/Scripts/cluster-netns") {
            return root + "/Scripts/cluster-netns"
        }
        throw BenchError(
            "cannot find Scripts/cluster-netns in the current directory or above splitbench; pass --lab-script")
    }
}
