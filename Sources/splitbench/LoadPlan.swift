/// What a load run does: how many connections, how requests are issued, for how long.
struct LoadPlan: Sendable {
    /// How requests are issued on each connection.
    enum Pacing: Sendable {
        /// Closed loop: keep `depth` requests in flight on every connection.
        case closed(depth: Int)
        /// Open loop: every connection sends `hertz` requests per second on a fixed schedule
        /// whatever the replies do (at most `maxInFlight` unanswered; further sends are
        /// skipped and counted). Latency counts from the scheduled time, so a stalled
        /// daemon cannot hide its queueing (no coordinated omission).
        case paced(hertz: Double, maxInFlight: Int)
    }

    var socketPath: String
    var connections: Int
    var pacing: Pacing = .closed(depth: 1)
    var warmupSeconds: Double = 1
    var measureSeconds: Double = 5
    /// Upper bound on requests sent in total, warm-up included; reaching it ends the measured
    /// period early (`LoadResult.stoppedAtRequestCap`).
    var maxRequests: Int = .max
    var templates: [RequestTemplate]
    /// The daemon to sample CPU and memory of.
    var daemonPID: Int32?
    /// Sample the daemon's resident memory this often (seconds); nil: only at the end.
    var memorySampleSeconds: Double?
    /// Longest wait for the replies still in flight when the measured period ends.
    var drainSeconds: Double = 2

    var depth: Int {
        if case .closed(let depth) = pacing { return depth }
        return 0
    }
}

/// One sample of the daemon's resident memory.
struct MemorySample: Sendable {
    var seconds: Double
    var residentBytes: Int
}

/// What a load run measured. Counts and rates are over the measured period only.
struct LoadResult: Sendable {
    var plan: LoadPlan
    var seconds: Double
    /// Replies read during the measured period.
    var answered: Int
    /// Whether `plan.maxRequests` ended the measured period before `plan.measureSeconds`
    /// (then `seconds` is the shorter time, and the rates are over it).
    var stoppedAtRequestCap = false
    var requestsPerSecond: Double
    /// Latencies of the requests sent during the measured period.
    var latency: LatencySummary
    /// Requests sent during the whole run (warm-up included).
    var sent: Int
    /// Replies with `"ok":false`.
    var errorReplies: Int
    /// Lines that answered no request (a push, or a reply too many).
    var unexpectedLines: Int
    /// Requests still unanswered after the drain.
    var unanswered: Int
    /// Connections that failed to open or were closed by the daemon.
    var connectionFailures: Int
    /// Paced sends skipped because a connection had too many requests in flight.
    var skippedSends: Int
    var firstError: String?
    var daemonCPUPercent: Double?
    var clientCPUPercent: Double?
    var daemonResidentBytes: Int?
    var daemonPeakResidentBytes: Int?
    var memory: [MemorySample]

    var errors: Int { errorReplies + unexpectedLines + unanswered + connectionFailures }

    /// The daemon's CPU time per answered request, in microseconds: what a request costs it
    /// whatever else competes for the CPU (1e6 / this = requests/s one core could serve).
    var daemonCPUMicrosecondsPerRequest: Double? {
        guard let percent = daemonCPUPercent, answered > 0 else { return nil }
        return percent / 100 * seconds * 1e6 / Double(answered)
    }
}
