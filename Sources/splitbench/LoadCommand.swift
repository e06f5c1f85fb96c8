import ArgumentParser
import Foundation

/// `splitbench load`: closed-loop load over a matrix of connections x pipeline depth.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Closed-loop resize/intent load: N connections x pipeline depth, requests/s and latency.",
        discussion: """
            Connection c works on scene bench-c (created first, at 1366x1024 on ipad-pro-12.9); \
            every request is a real change. Each cell of the matrix gets a fresh daemon and \
            database unless --socket targets an existing daemon. Any "ok":false reply, \
            unanswered request or dropped connection counts as an error; the exit status is 3 \
            when there was any.
            """)

    @OptionGroup var daemon: DaemonOptions

    @Option(parsing: .upToNextOption, help: "Connection counts.")
    var connections: [Int] = [1, 10, 100, 1000]

    @Option(parsing: .upToNextOption, help: "Requests in flight per connection.")
    var depths: [Int] = [1, 16]

    @Option(help: "Request mix.")
    var workload: Workload = .resize

    @Option(help: ArgumentHelp("Request templates instead of --workload (loadgen's -f syntax).", valueName: "file"))
    var templateFile: String?

    @Option(help: "Warm-up seconds (not measured).")
    var warmup: Double = 1

    @Option(help: "Measured seconds per cell.")
    var seconds: Double = 5

    @Option(
        help:
            "Upper bound on requests sent per cell, warm-up included (default: none); reaching it ends the cell's measured period early, and the rates are over the shorter time."
    )
    var maxRequests: Int?

    func run() throws {
        daemon.pinClient()
        let templates =
            try templateFile.map { RequestTemplate.lines(of: try String(contentsOfFile: $0, encoding: .utf8)) }
            ?? workload.templates
        var table = LoadReport.table()
        var failed = false
        for depth in depths {
            for count in connections {
                let result = try daemon.withDaemon(named: "load") { socket, pid in
                    try SceneSetup.createScenes(socketPath: socket, count: count)
                    let plan = LoadPlan(
                        socketPath: socket, connections: count, pacing: .closed(depth: depth),
                        warmupSeconds: warmup, measureSeconds: seconds, maxRequests: maxRequests ?? .max,
                        templates: templates, daemonPID: pid)
                    return LoadEngine(plan: plan).run()
                }
                print(LoadReport.line(result, label: workload.rawValue))
                table.add(LoadReport.row(result, label: templateFile == nil ? workload.rawValue : "template"))
                failed = failed || result.errors > 0
            }
        }
        print("")
        print(table.render())
        if failed { throw ExitCode(3) }
    }
}

/// How load results are printed: one machine-readable line per run, and table rows.
enum LoadReport {
    static func table() -> Table {
        Table([
            "mix", "conns", "depth", "req/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors",
            "splitd CPU%", "CPU µs/req", "client CPU%", "splitd RSS MiB",
        ])
    }

    static func row(_ result: LoadResult, label: String) -> [String] {
        [
            label, String(result.plan.connections), String(result.plan.depth), rate(result.requestsPerSecond),
            fixed(result.latency.p50, 0), fixed(result.latency.p99, 0), fixed(result.latency.p999, 0),
            fixed(result.latency.max, 0), String(result.errors), optionalPercent(result.daemonCPUPercent),
            result.daemonCPUMicrosecondsPerRequest.map { fixed($0, 1) } ?? "-",
            optionalPercent(result.clientCPUPercent), mebibytes(result.daemonResidentBytes),
        ]
    }

    /// `RESULT key=value ...`, like the anchor load generator's output.
    static func line(_ result: LoadResult, label: String) -> String {
        var fields = [
            "mix=\(label)", "conns=\(result.plan.connections)", "depth=\(result.plan.depth)",
            "secs=\(fixed(result.seconds, 1))", "requests=\(result.answered)",
            "rps=\(fixed(result.requestsPerSecond, 0))", "p50_us=\(fixed(result.latency.p50, 0))",
            "p99_us=\(fixed(result.latency.p99, 0))", "p999_us=\(fixed(result.latency.p999, 0))",
            "max_us=\(fixed(result.latency.max, 0))", "mean_us=\(fixed(result.latency.mean, 0))",
            "client_cpu_pct=\(optionalPercent(result.clientCPUPercent))",
            "server_cpu_pct=\(optionalPercent(result.daemonCPUPercent))",
            "server_cpu_us_per_req=\(result.daemonCPUMicrosecondsPerRequest.map { fixed($0, 1) } ?? "-")",
            "server_rss_kib=\(result.daemonResidentBytes.map { String($0 / 1024) } ?? "-")",
            "errors=\(result.errors)", "error_replies=\(result.errorReplies)",
            "unanswered=\(result.unanswered)", "unexpected=\(result.unexpectedLines)",
        ]
        if result.skippedSends > 0 { fields.append("skipped=\(result.skippedSends)") }
        if result.stoppedAtRequestCap { fields.append("stopped_at_max_requests=\(result.plan.maxRequests)") }
        var text = "RESULT " + fields.joined(separator: " ")
        if let error = result.firstError { text += "\n  first error: \(error)" }
        return text
    }
}
