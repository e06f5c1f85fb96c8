import ArgumentParser

/// `splitbench storm`: a resize storm, every window dragged at display rate.
struct StormCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm",
        abstract: "Resize storm: W windows each resizing at H Hz (open loop); every request must be answered.",
        discussion: """
            Window w is a connection resizing scene bench-w through a drag that crosses the \
            compact/regular boundary both ways. Requests are sent on a fixed schedule whatever \
            the replies do, and latency counts from the scheduled time. The daemon's memory is \
            sampled every half second. Goal: no error, no skipped send, p99 <= 16 ms, memory flat.
            """)

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "Windows (connections, one scene each).")
    var windows = 1000

    @Option(help: "Resizes per second per window.")
    var hertz = 30.0

    @Option(help: "Warm-up seconds.")
    var warmup = 1.0

    @Option(help: "Measured seconds.")
    var seconds = 10.0

    func run() throws {
        daemon.pinClient()
        let result = try daemon.withDaemon(named: "storm") { socket, pid in
            try Storm.run(socket: socket, pid: pid, windows: windows, hertz: hertz, warmup: warmup, seconds: seconds)
        }
        print(Storm.report(result))
        if result.errors > 0 || result.skippedSends > 0 { throw ExitCode(3) }
    }
}

/// The storm itself, shared with `suite`.
enum Storm {
    /// Widths of a drag between full screen and slide-over and back (points, 1024 high).
    static let dragWidths = [1366, 1250, 1100, 980, 800, 678, 507, 375, 507, 678, 800, 980, 1100, 1250]

    static var templates: [RequestTemplate] {
        dragWidths.map { RequestTemplate(#"{"id":%n,"op":"resize","scene":"bench-%c","width":\#($0),"height":1024}"#) }
    }

    static func run(
        socket: String, pid: Int32?, windows: Int, hertz: Double, warmup: Double,
        seconds: Double
    ) throws -> LoadResult {
        try SceneSetup.createScenes(socketPath: socket, count: windows)
        let plan = LoadPlan(
            socketPath: socket, connections: windows, pacing: .paced(hertz: hertz, maxInFlight: 64),
            warmupSeconds: warmup, measureSeconds: seconds, templates: templates,
            daemonPID: pid, memorySampleSeconds: 0.5)
        return LoadEngine(plan: plan).run()
    }

    /// The memory samples taken during the measured period (after the warm-up).
    static func measuredMemory(_ result: LoadResult) -> [Int] {
        result.memory.filter { $0.seconds >= result.plan.warmupSeconds }.map(\.residentBytes)
    }

    static func report(_ result: LoadResult) -> String {
        let memory = measuredMemory(result)
        let hertz: Double
        if case .paced(let rate, _) = result.plan.pacing { hertz = rate } else { hertz = 0 }
        var lines = [LoadReport.line(result, label: "storm")]
        lines.append(
            "storm: \(result.plan.connections) windows x \(fixed(hertz, 0)) Hz for \(fixed(result.seconds, 0)) s: "
                + "\(rate(result.requestsPerSecond)) resizes/s answered, p50 \(fixed(result.latency.p50 / 1000, 2)) ms, "
                + "p99 \(fixed(result.latency.p99 / 1000, 2)) ms, p99.9 \(fixed(result.latency.p999 / 1000, 2)) ms, "
                + "max \(fixed(result.latency.max / 1000, 2)) ms; errors \(result.errors), skipped sends \(result.skippedSends)"
        )
        if let first = memory.first, let last = memory.last, let peak = memory.max() {
            lines.append(
                "storm memory (RSS, every 0.5 s): first \(mebibytes(first)) MiB, peak \(mebibytes(peak)) MiB, "
                    + "last \(mebibytes(last)) MiB; samples: " + memory.map { mebibytes($0) }.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
