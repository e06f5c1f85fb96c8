import ArgumentParser

/// `splitbench snapshot`: appSwitcher snapshot sessions through the daemon.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "appSwitcher snapshot sessions through the daemon: sessions/s and latency.",
        discussion: """
            Each request is `snapshot` with preset appSwitcher on the connection's own scene; \
            every session is recorded in the database before it is answered. The core-only cost \
            of a session is `splitbench core`.
            """)

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "Connections.")
    var connections = 10

    @Option(help: "Requests in flight per connection.")
    var depth = 1

    @Option(help: "Warm-up seconds.")
    var warmup = 1.0

    @Option(help: "Measured seconds.")
    var seconds = 5.0

    func run() throws {
        daemon.pinClient()
        let result = try daemon.withDaemon(named: "snapshot") { socket, pid in
            try Snapshots.run(
                socket: socket, pid: pid, connections: connections, depth: depth,
                warmup: warmup, seconds: seconds)
        }
        print(LoadReport.line(result, label: "snapshot"))
        print(
            "snapshot: \(rate(result.requestsPerSecond)) appSwitcher sessions/s at \(connections) connections x \(depth); "
                + "p50 \(fixed(result.latency.p50, 0)) µs, p99 \(fixed(result.latency.p99, 0)) µs")
        if result.errors > 0 { throw ExitCode(3) }
    }
}

/// Snapshot sessions through the daemon, shared with `suite`.
enum Snapshots {
    static func run(
        socket: String, pid: Int32?, connections: Int, depth: Int, warmup: Double,
        seconds: Double
    ) throws -> LoadResult {
        try SceneSetup.createScenes(socketPath: socket, count: connections)
        let plan = LoadPlan(
            socketPath: socket, connections: connections, pacing: .closed(depth: depth),
            warmupSeconds: warmup, measureSeconds: seconds, templates: Workload.snapshot.templates,
            daemonPID: pid)
        return LoadEngine(plan: plan).run()
    }
}
