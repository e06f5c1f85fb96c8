import Glibc

/// The open-file limit the daemon runs with. Every client is a descriptor; systemd's and most
/// shells' soft limit is 1024, below what `limits.maxClients` (1024) plus the daemon's own
/// descriptors need, and past it clients were dropped by the accept without a word. The soft
/// limit is raised toward the hard one at start (Redis and nginx do the same), and a limit
/// that still cannot hold `maxClients` is said in the log. Clients past the room it leaves
/// get `limit_exceeded` from the server; should `accept` itself fail with EMFILE, the
/// listener refuses them with its reserve descriptor (Listener.swift).
public enum FileDescriptorLimit {
    /// Descriptors besides clients: the database, its WAL and shared memory (twice: the
    /// checkpoint thread has its own connection), the listeners, the loop's epoll, eventfds and
    /// signal pipe, the standard streams, the listener's reserve descriptor and socket lock,
    /// with room to spare.
    public static let reserved = 64

    /// Raises the soft limit to hold `clients` clients, as far as the hard limit allows.
    /// Returns the soft limit before and after, or nil if it cannot be read.
    public static func raise(toHold clients: Int) -> (before: Int, after: Int)? {
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

    /// The soft limit in force now, or nil if it cannot be read.
    public static func current() -> Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return count(limit.rlim_cur)
    }

    /// Clients a soft limit of `limit` descriptors leaves room for.
    public static func clients(under limit: Int) -> Int { max(0, limit - reserved) }

    private static func count(_ value: rlim_t) -> Int {
        value == rlim_t.max ? Int.max : Int(clamping: value)
    }
}
