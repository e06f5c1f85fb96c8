import Glibc

/// The open-file limit the daemon runs with. Every client is a descriptor; systemd's and most
/// shells' soft limit is 1024, below what `limits.maxClients` (1024) plus the daemon's own
/// descriptors need, and past it clients were dropped by the accept without a word. The soft
/// limit is raised toward the hard one at start (Redis and nginx do the same), and a limit
/// that still cannot hold `maxClients` is said in the log.
enum FileDescriptorLimit {
    /// Descriptors besides clients: the database, its WAL and shared memory (twice: the
    /// checkpoint thread has its own connection), the listeners, the loop's epoll, eventfds and
    /// signal pipe, the standard streams, with room to spare.
    static let reserved = 64

    /// Raises the soft limit to hold `clients` clients, as far as the hard limit allows.
    /// Returns the soft limit before and after, or nil if it cannot be read.
    static func raise(toHold clients: Int) -> (before: Int, after: Int)? {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let before = count(limit.rlim_cur)
        let wanted = rlim_t(clamping: clients + reserved)
        guard limit.rlim_cur != rlim_t.max, limit.rlim_cur < wanted else { return (before, before) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
        guard setrlimit(resource, &raised) == 0 else { return (before, before) }
        return (before, count(raised.rlim_cur))
    }

    /// Clients a soft limit of `limit` descriptors leaves room for.
    static func clients(under limit: Int) -> Int { max(0, limit - reserved) }

    private static func count(_ value: rlim_t) -> Int {
        value == rlim_t.max ? Int.max : Int(clamping: value)
    }
}

/// A warning logged at most once per interval; the next one counts those left out.
struct RateLimitedWarning {
    var intervalMilliseconds: UInt64 = 10_000
    private var last: UInt64?
    private var skipped = 0

    init(intervalMilliseconds: UInt64 = 10_000) {
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Whether to log now (`now` in milliseconds): nil to leave it out, else how many were left out since the last one.
    mutating func take(now: UInt64) -> Int? {
        if let last, now - last < intervalMilliseconds {
            skipped += 1
            return nil
        }
        defer { skipped = 0 }
        last = now
        return skipped
    }
}
