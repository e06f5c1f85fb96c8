import ArgumentParser
import Foundation

/// `splitbench suite`: everything in one invocation, anchors included, ending with the table
/// of the performance goals and their ratios.
struct SuiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Run every benchmark and the anchors (echo, Redis) in one go; print the goals table.",
        discussion: """
            Starts its own daemons (durability full and normal) on fresh databases under \
            --work-dir, which must be on a real disk (not tmpfs) for the durable figures to \
            mean anything. The goal comparisons alternate splitd and its anchors for --rounds \
            rounds and report medians. Servers run on --server-cpu, clients on --client-cpu.
            """)

    @OptionGroup var daemon: DaemonOptions

    @Option(
        help: ArgumentHelp(
            "The anchors' sources, copied then built with make (default: Benchmarks/anchors of this checkout).",
            valueName: "dir"))
    var anchors: String?

    @Option(help: "Alternated rounds of the goal comparisons (medians are reported).")
    var rounds = 3

    @Option(help: "Warm-up seconds per load run.")
    var warmup = 1.0

    @Option(help: "Measured seconds per goal run.")
    var seconds = 5.0

    @Option(help: "Measured seconds per cell of the connections x depth matrix (0 skips it).")
    var matrixSeconds = 3.0

    @Option(help: "Scenes for the idle-memory and restart run (0 skips it).")
    var idleScenes = 100_000

    @Option(help: "Measured seconds of the resize storm (0 skips it).")
    var stormSeconds = 10.0

    @Option(help: "Requests of the Redis run.")
    var redisRequests = 150_000

    @Flag(help: "Skip Redis (when it is not installed).")
    var skipRedis = false

    func run() throws {
        daemon.pinClient()
        let scratch = daemon.freshDirectory("suite")
        defer { removeDirectory(scratch) }
        var suite = Suite(command: self, scratch: scratch)
        try suite.run()
    }
}

/// The suite's state: what it measured so far.
struct Suite {
    let command: SuiteCommand
    let scratch: String
    var goals = GoalFigures()

    var serverCPU: Int? { command.daemon.serverCPU >= 0 ? command.daemon.serverCPU : nil }
    var clientCPU: Int? { command.daemon.clientCPU >= 0 ? command.daemon.clientCPU : nil }

    init(command: SuiteCommand, scratch: String) {
        self.command = command
        self.scratch = scratch
    }

    mutating func run() throws {
        let started = monotonicNanoseconds()
        section("machine")
        print(MachineInfo.describe(directory: scratch))
        let fileSystem = FsyncProbe.fileSystem(of: scratch)
        if fileSystem == "tmpfs" { print("WARNING: \(scratch) is tmpfs: durable figures are meaningless here") }

        section("fsync")
        // Where a flush waits changes what it takes (FsyncProbe): on each pinned side, else unpinned.
        let pinned = [(serverCPU, "the server's"), (clientCPU, "the client's")].compactMap { cpu, side in
            cpu.map { (Optional($0), ", on CPU \($0) (\(side))") }
        }
        for mode in [FsyncProbe.Mode.append, .overwrite] {
            for (cpu, place) in pinned.isEmpty ? [(nil, "")] : pinned {
                let fsync = try FsyncProbe.measure(directory: scratch, mode: mode, onCPU: cpu)
                print(
                    "4 KiB \(mode.rawValue) + fdatasync on \(fileSystem)\(place): "
                        + "p50 \(fixed(fsync.p50, 0)) µs, p99 \(fixed(fsync.p99, 0)) µs")
            }
        }

        section("core microbenchmarks")
        let core = try CoreBench.run(Microbench())
        print(microTable(core).render())
        goals.snapshotCore = core.last?.microseconds

        section("codec microbenchmarks")
        print(microTable(try CodecBench.run(Microbench())).render())

        section("anchors: build")
        let anchors = try Anchors.build(from: command.anchors ?? Anchors.defaultSource(), in: scratch)
        print("built \(anchors.echoServer) and \(anchors.loadgen)")

        section("goal runs: 100 connections, depth 1, \(command.rounds) alternated rounds")
        for round in 1...max(1, command.rounds) {
            try goalRound(round, anchors: anchors)
        }

        if command.matrixSeconds > 0 {
            section(
                "matrix: connections x depth, splitbench load (resize), \(fixed(command.matrixSeconds, 0)) s per cell")
            try matrix(anchors: anchors)
        }
        if command.stormSeconds > 0 {
            section("resize storm: 1000 windows x 30 Hz, durable")
            let result = try command.daemon.withDaemon(named: "storm", durability: "full") { socket, pid in
                try Storm.run(
                    socket: socket, pid: pid, windows: 1000, hertz: 30, warmup: command.warmup,
                    seconds: command.stormSeconds)
            }
            print(Storm.report(result))
            goals.storm = result
        }

        section("snapshot sessions through the daemon (durable, 10 connections)")
        let snapshots = try command.daemon.withDaemon(named: "snapshot", durability: "full") { socket, pid in
            try Snapshots.run(
                socket: socket, pid: pid, connections: 10, depth: 1, warmup: command.warmup,
                seconds: command.seconds)
        }
        print(LoadReport.line(snapshots, label: "snapshot"))
        goals.snapshotDaemon = snapshots

        section("attach fan-out: 1 writer, 100 viewers (durable)")
        let fanout = try command.daemon.withDaemon(named: "fanout", durability: "full") { socket, pid in
            try Fanout.run(socket: socket, pid: pid, viewers: 100, warmup: command.warmup, seconds: command.seconds)
        }
        print(Fanout.report(fanout))
        goals.fanout = fanout

        if command.idleScenes > 0 {
            section("idle scenes and restart (\(command.idleScenes) scenes, durable)")
            var options = command.daemon
            options.durability = "full"
            let idle = try IdleScenes.run(options: options, scenes: command.idleScenes)
            print(IdleScenes.report(idle))
            goals.idle = idle
        }

        section("goals")
        print(goals.table().render())
        print("\nsuite took \(fixed(Double(monotonicNanoseconds() - started) / 1e9, 0)) s")
    }

    private func reportRedis(_ round: Int, _ redis: Anchors.RedisResult, appendfsync: Anchors.AppendFsync) {
        print(
            "round \(round): redis appendfsync \(appendfsync.rawValue) (redis-benchmark): \(rate(redis.requestsPerSecond)) req/s, "
                + "p50 \(fixed(redis.p50Milliseconds * 1000, 0)) µs, p99 \(fixed(redis.p99Milliseconds * 1000, 0)) µs")
    }

    /// One round of the comparisons behind the ratios, alternating servers.
    private mutating func goalRound(_ round: Int, anchors: Anchors) throws {
        let warmup = command.warmup
        let seconds = command.seconds
        let echo = try anchors.withEchoServer(cpu: serverCPU, scratch: scratch) { socket, pid in
            try anchors.runLoadgen(
                socket: socket, connections: 100, depth: 1, warmup: warmup, seconds: seconds,
                serverPID: pid, clientCPU: clientCPU, scratch: scratch)
        }
        report(round, "echo (loadgen)", echo)
        goals.echo.append(echo.requestsPerSecond)

        let relaxed = try loadgenAgainstSplitd(durability: "normal", connections: 100, anchors: anchors)
        report(round, "splitd normal (loadgen)", relaxed)
        goals.relaxed.append(relaxed.requestsPerSecond)

        if !command.skipRedis {
            let redis = try Anchors.runRedis(
                clients: 100, requests: command.redisRequests, serverCPU: serverCPU,
                clientCPU: clientCPU, scratch: scratch)
            reportRedis(round, redis, appendfsync: .always)
            goals.redis.append(redis.requestsPerSecond)
            if redis.p99Milliseconds.isFinite { goals.redisP99.append(redis.p99Milliseconds * 1000) }
            // No goal: Redis without a flush per reply, beside splitd's `normal`, shows what
            // durability costs each of them.
            let everysec = try Anchors.runRedis(
                clients: 100, requests: command.redisRequests, appendfsync: .everysec,
                serverCPU: serverCPU, clientCPU: clientCPU, scratch: scratch)
            reportRedis(round, everysec, appendfsync: .everysec)
            goals.redisEverysec.append(everysec.requestsPerSecond)
        }

        let durable = try loadgenAgainstSplitd(durability: "full", connections: 100, anchors: anchors)
        report(round, "splitd full (loadgen)", durable)
        goals.durable.append(durable.requestsPerSecond)
        goals.durableP99.append(durable.p99)

        let own = try splitbenchLoad(durability: "full", connections: 100, depth: 1, seconds: seconds)
        print(
            "round \(round): splitd full (splitbench load): \(rate(own.requestsPerSecond)) req/s, p50 \(fixed(own.latency.p50, 0)) µs, "
                + "p99 \(fixed(own.latency.p99, 0)) µs, server CPU \(optionalPercent(own.daemonCPUPercent))% = "
                + "\(own.daemonCPUMicrosecondsPerRequest.map { fixed($0, 1) } ?? "-") µs/request, errors \(own.errors)")
        goals.durableOwnClient.append(own.requestsPerSecond)
        goals.durableOwnP99.append(own.latency.p99)

        // The disk's flush latency drifts over minutes: probe it right before the run it
        // anchors, on the daemon's CPU (where its flushes wait; FsyncProbe), and for
        // reference on the client's.
        let append = try FsyncProbe.measure(directory: scratch, mode: .append, onCPU: serverCPU)
        let overwrite = try FsyncProbe.measure(directory: scratch, mode: .overwrite, onCPU: serverCPU)
        goals.fsyncAppendP50.append(append.p50)
        goals.fsyncOverwriteP50.append(overwrite.p50)
        goals.fsyncOnServerCPU = serverCPU != nil
        let place = serverCPU.map { "on the server's CPU \($0)" } ?? "unpinned"
        var line =
            "round \(round): fsync p50 \(place): append \(fixed(append.p50, 0)) µs, overwrite \(fixed(overwrite.p50, 0)) µs"
        if let serverCPU, let clientCPU, clientCPU != serverCPU {
            let elsewhere = try FsyncProbe.measure(directory: scratch, mode: .overwrite, onCPU: clientCPU)
            line += "; overwrite on the client's CPU \(clientCPU) \(fixed(elsewhere.p50, 0)) µs (reference)"
        }
        print(line)
        // The daemon's own flushes in the same run: what its replies actually waited for.
        var ownFlushP50: Int?
        let single = try splitbenchLoad(durability: "full", connections: 1, depth: 1, seconds: seconds) { socket in
            let stats = try LineClient(path: socket).call(#"{"id":1,"op":"stats"}"#)
            ownFlushP50 = Fanout.integer(after: #""walFlushP50Microseconds":"#, in: Array(stats.utf8))
        }
        print(
            "round \(round): splitd full, 1 connection (splitbench load): \(rate(single.requestsPerSecond)) req/s, "
                + "p50 \(fixed(single.latency.p50, 0)) µs, p99 \(fixed(single.latency.p99, 0)) µs, errors \(single.errors); "
                + "the daemon's own fdatasync p50 \(ownFlushP50.map(String.init) ?? "?") µs")
        goals.singleP50.append(single.latency.p50)
        if let ownFlushP50 { goals.singleOwnFlushP50.append(Double(ownFlushP50)) }
        goals.errors += own.errors + single.errors + max(0, durable.errors) + max(0, relaxed.errors)
    }

    private func report(_ round: Int, _ label: String, _ result: Anchors.LoadgenResult) {
        print(
            "round \(round): \(label): \(rate(result.requestsPerSecond)) req/s, p50 \(fixed(result.p50, 0)) µs, "
                + "p99 \(fixed(result.p99, 0)) µs, server CPU \(fixed(result.serverCPU, 0))%, client CPU \(fixed(result.clientCPU, 0))%, "
                + "errors \(result.errors)")
        if result.errors != 0 { print("  " + result.line) }
    }

    private func loadgenAgainstSplitd(
        durability: String, connections: Int, anchors: Anchors
    ) throws -> Anchors.LoadgenResult {
        try command.daemon.withDaemon(named: "goal-\(durability)", durability: durability) { socket, pid in
            try SceneSetup.createScenes(socketPath: socket, count: connections)
            return try anchors.runLoadgen(
                socket: socket, connections: connections, depth: 1, warmup: command.warmup,
                seconds: command.seconds, serverPID: pid, clientCPU: clientCPU, scratch: scratch)
        }
    }

    /// A `splitbench load` run against a fresh daemon; `after` reads from the daemon before it stops.
    private func splitbenchLoad(
        durability: String, connections: Int, depth: Int, seconds: Double,
        workload: Workload = .resize,
        after: (_ socket: String) throws -> Void = { _ in }
    ) throws -> LoadResult {
        try command.daemon.withDaemon(named: "load-\(durability)", durability: durability) { socket, pid in
            try SceneSetup.createScenes(socketPath: socket, count: connections)
            let plan = LoadPlan(
                socketPath: socket, connections: connections, pacing: .closed(depth: depth),
                warmupSeconds: command.warmup, measureSeconds: seconds,
                templates: workload.templates, daemonPID: pid)
            let result = LoadEngine(plan: plan).run()
            try after(socket)
            return result
        }
    }

    /// Every cell of connections x depth, both durabilities, resize and mixed requests, with
    /// the echo anchor under the same load (loadgen, fixed template) beside it; then durable
    /// resizes at depth 4 from 1 and 10 connections.
    private mutating func matrix(anchors: Anchors) throws {
        var table = Table([
            "server", "mix", "conns", "depth", "req/s", "p50 µs", "p99 µs", "p99.9 µs", "errors",
            "server CPU%", "CPU µs/req", "client CPU%", "RSS MiB",
        ])
        for depth in [1, 16] {
            for connections in [1, 10, 100, 1000] {
                let echo = try anchors.withEchoServer(cpu: serverCPU, scratch: scratch) { socket, pid in
                    try anchors.runLoadgen(
                        socket: socket, connections: connections, depth: depth, warmup: command.warmup,
                        seconds: command.matrixSeconds, serverPID: pid, clientCPU: clientCPU,
                        scratch: scratch)
                }
                table.add([
                    "echo (loadgen)", "resize", String(connections), String(depth), rate(echo.requestsPerSecond),
                    fixed(echo.p50, 0), fixed(echo.p99, 0), fixed(echo.p999, 0), String(echo.errors),
                    fixed(echo.serverCPU, 0),
                    fixed(echo.serverCPU / 100 * 1e6 / max(1, echo.requestsPerSecond), 1),
                    fixed(echo.clientCPU, 0), "-",
                ])
                for durability in ["normal", "full"] {
                    for workload in [Workload.resize, .mixed] {
                        let result = try splitbenchLoad(
                            durability: durability, connections: connections, depth: depth,
                            seconds: command.matrixSeconds, workload: workload)
                        print(LoadReport.line(result, label: "\(workload.rawValue)/\(durability)"))
                        var row = LoadReport.row(result, label: workload.rawValue)
                        row.insert("splitd \(durability)", at: 0)
                        row.remove(at: 8)  // max µs: not in this table
                        table.add(row)
                        goals.errors += result.errors
                    }
                }
            }
        }
        // Pipelines shallower than the group-commit count (database.flushDelayCount, 16): a
        // flush must not wait out the whole delay for company that cannot come.
        for connections in [1, 10] {
            let result = try splitbenchLoad(
                durability: "full", connections: connections, depth: 4,
                seconds: command.matrixSeconds, workload: .resize)
            print(LoadReport.line(result, label: "resize/full"))
            var row = LoadReport.row(result, label: Workload.resize.rawValue)
            row.insert("splitd full", at: 0)
            row.remove(at: 8)  // max µs: not in this table
            table.add(row)
            goals.errors += result.errors
        }
        print(table.render())
    }

    private func section(_ title: String) {
        print("\n== \(title) ==")
        fflush(nil)
    }
}
