import ArgumentParser

/// `splitbench fanout`: one writer, many attached viewers.
struct FanoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Attach fan-out: one writer resizes a scene, N viewers receive every push; push latency.")

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "Viewers attached to the scene.")
    var viewers = 100

    @Option(help: "Warm-up seconds.")
    var warmup = 1.0

    @Option(help: "Measured seconds.")
    var seconds = 5.0

    func run() throws {
        daemon.pinClient()
        let result = try daemon.withDaemon(named: "fanout") { socket, pid in
            try Fanout.run(socket: socket, pid: pid, viewers: viewers, warmup: warmup, seconds: seconds)
        }
        print(Fanout.report(result))
        if result.errors > 0 { throw ExitCode(3) }
    }
}

extension Fanout {
    static func report(_ result: Result) -> String {
        var text =
            "fanout: 1 writer, \(result.viewers) viewers: \(fixed(Double(result.writes) / result.seconds, 0)) writes/s, "
            + "\(rate(result.pushesPerSecond)) pushes/s; push latency p50 \(fixed(result.pushLatency.p50, 0)) µs, "
            + "p99 \(fixed(result.pushLatency.p99, 0)) µs, p99.9 \(fixed(result.pushLatency.p999, 0)) µs; "
            + "last viewer p50 \(fixed(result.lastViewerLatency.p50, 0)) µs, p99 \(fixed(result.lastViewerLatency.p99, 0)) µs; "
            + "writer reply p50 \(fixed(result.replyLatency.p50, 0)) µs; splitd CPU \(optionalPercent(result.daemonCPUPercent))%; "
            + "errors \(result.errors)"
        if let error = result.firstError { text += "\n  first error: \(error)" }
        return text
    }
}
