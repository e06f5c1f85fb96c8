/// The figures the performance goals are judged on, gathered by `suite`, and the table that
/// sets each one beside its anchor.
struct GoalFigures {
    /// The flush probes' p50 in each round, measured right before its 1-connection run (the
    /// disk's latency drifts over minutes).
    var fsyncAppendP50: [Double] = []
    var fsyncOverwriteP50: [Double] = []
    /// Whether the flush probes ran on the daemon's CPU (it was pinned) or unpinned.
    var fsyncOnServerCPU = true
    private var fsyncPlace: String { fsyncOnServerCPU ? "same CPU" : "unpinned" }
    var snapshotCore: Double?
    var echo: [Double] = []
    var relaxed: [Double] = []
    var redis: [Double] = []
    /// redis-benchmark's p99 in each round, in µs (an anchor for the durable p99: what the same
    /// disk's flushes give a server that flushes in its loop).
    var redisP99: [Double] = []
    /// Redis with `appendfsync everysec` in each round (no goal).
    var redisEverysec: [Double] = []
    var durable: [Double] = []
    var durableP99: [Double] = []
    var durableOwnClient: [Double] = []
    var durableOwnP99: [Double] = []
    var singleP50: [Double] = []
    /// The daemon's own `fdatasync` p50 in each 1-connection run (`stats`), in µs: the flush its
    /// replies waited for, not a probe's.
    var singleOwnFlushP50: [Double] = []
    var storm: LoadResult?
    var snapshotDaemon: LoadResult?
    var fanout: Fanout.Result?
    var idle: IdleScenes.Result?
    var errors = 0

    func table() -> Table {
        var table = Table(["goal", "splitd", "anchor", "ratio / target", "met"])
        if let durable = median(durable), let redis = median(redis) {
            let ratio = durable / redis
            table.add([
                "durable resize/s, 100 conns x 1 (loadgen)", rate(durable),
                "redis always \(rate(redis))", "\(fixed(ratio, 2))x / >= 1.5x", verdict(ratio >= 1.5),
            ])
        }
        if let own = median(durableOwnClient), let redis = median(redis) {
            table.add([
                "  same, splitbench's own client", rate(own), "redis always \(rate(redis))",
                "\(fixed(own / redis, 2))x / >= 1.5x", verdict(own / redis >= 1.5),
            ])
        }
        if let relaxed = median(relaxed), let redis = median(redis) {
            // The durable ratio's ceiling: what splitd reaches with no flush at all.
            table.add([
                "  splitd normal (no flush) against it", rate(relaxed), "redis always \(rate(redis))",
                "\(fixed(relaxed / redis, 2))x", "-",
            ])
        }
        if let durable = median(durable), let relaxed = median(relaxed), let always = median(redis),
            let everysec = median(redisEverysec)
        {
            table.add([
                "  durable over relaxed (what a flush per reply costs)", "\(fixed(durable / relaxed, 2))x",
                "redis always / everysec \(fixed(always / everysec, 2))x", "(no goal)", "-",
            ])
        }
        if let relaxed = median(relaxed), let echo = median(echo) {
            let ratio = relaxed / echo
            table.add([
                "relaxed resize/s, 100 conns x 1 (loadgen)", rate(relaxed), "echo \(rate(echo))",
                "\(fixed(ratio, 2))x / >= 0.4x", verdict(ratio >= 0.4),
            ])
        }
        if let p99 = median(durableP99) {
            let anchor = median(redisP99).map { "redis always p99 \(fixed($0 / 1000, 2)) ms" } ?? "-"
            table.add([
                "durable p99, 100 conns (loadgen)", "\(fixed(p99 / 1000, 2)) ms", anchor, "<= 2 ms",
                verdict(p99 <= 2000),
            ])
        }
        if let p99 = median(durableOwnP99) {
            table.add([
                "  same, splitbench's own client", "\(fixed(p99 / 1000, 2)) ms", "-", "<= 2 ms", verdict(p99 <= 2000),
            ])
        }
        if let p50 = median(singleP50), let fsync = median(fsyncAppendP50) {
            let over = p50 - fsync
            table.add([
                "durable p50, 1 connection", "\(fixed(p50, 0)) µs",
                "fsync (append, \(fsyncPlace)) p50 \(fixed(fsync, 0)) µs",
                "+\(fixed(over, 0)) µs / <= +100 µs", verdict(over <= 100),
            ])
            if let overwrite = median(fsyncOverwriteP50) {
                table.add([
                    "  same, against an overwriting flush", "\(fixed(p50, 0)) µs",
                    "fsync (overwrite, \(fsyncPlace)) p50 \(fixed(overwrite, 0)) µs",
                    "+\(fixed(p50 - overwrite, 0)) µs / <= +100 µs", verdict(p50 - overwrite <= 100),
                ])
            }
        }
        if let p50 = median(singleP50), let own = median(singleOwnFlushP50) {
            table.add([
                "  same, against the daemon's own flush", "\(fixed(p50, 0)) µs",
                "its fdatasync p50 \(fixed(own, 0)) µs",
                "+\(fixed(p50 - own, 0)) µs / <= +100 µs", verdict(p50 - own <= 100),
            ])
        }
        if let core = snapshotCore {
            table.add(["appSwitcher session, core only", "\(fixed(core, 1)) µs", "-", "<= 50 µs", verdict(core <= 50)])
        }
        if let snapshot = snapshotDaemon {
            table.add([
                "appSwitcher sessions via daemon, 10 conns", "\(rate(snapshot.requestsPerSecond))/s",
                "p50 \(fixed(snapshot.latency.p50, 0)) µs", "(no goal)", snapshot.errors == 0 ? "ok" : "ERRORS",
            ])
        }
        if let idle {
            let kib = idle.bytesPerScene / 1024
            table.add([
                "RSS per idle scene at \(idle.scenes / 1000)k", "\(fixed(kib, 2)) KiB", "-", "<= 4 KiB",
                verdict(kib <= 4),
            ])
            table.add([
                "restart restoring \(idle.scenes / 1000)k scenes", "\(fixed(idle.restartSeconds, 2)) s",
                "\(idle.restoredScenes.map(String.init) ?? "?") restored", "<= 2 s",
                verdict(idle.restartSeconds <= 2 && idle.restoredScenes == idle.scenes),
            ])
        }
        if let storm {
            let answered = storm.errors == 0 && storm.skippedSends == 0
            table.add([
                "storm 1000 x 30 Hz: every request answered", answered ? "yes" : "no",
                "errors \(storm.errors), skipped \(storm.skippedSends)", "all", verdict(answered),
            ])
            table.add([
                "storm p99", "\(fixed(storm.latency.p99 / 1000, 2)) ms", "frame 16.7 ms", "<= 16 ms",
                verdict(storm.latency.p99 <= 16_000),
            ])
            let memory = Storm.measuredMemory(storm)
            if let first = memory.first, let peak = memory.max(), let last = memory.last {
                let growth = Double(peak - first) / Double(max(1, first))
                table.add([
                    "storm memory (RSS first/peak/last)",
                    "\(mebibytes(first))/\(mebibytes(peak))/\(mebibytes(last)) MiB", "-",
                    "peak <= first + 10%", verdict(growth <= 0.10),
                ])
            }
        }
        if let fanout {
            table.add([
                "fan-out push latency, 100 viewers", "p99 \(fixed(fanout.pushLatency.p99, 0)) µs",
                "p50 \(fixed(fanout.pushLatency.p50, 0)) µs", "(no goal)", fanout.errors == 0 ? "ok" : "ERRORS",
            ])
        }
        table.add(["errors in every load run", String(errors), "-", "0", verdict(errors == 0)])
        return table
    }

    private func verdict(_ met: Bool) -> String { met ? "yes" : "NO" }
}

/// The median of `values`, nil when empty.
func median(_ values: [Double]) -> Double? {
    let sorted = values.filter { $0.isFinite }.sorted()
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
