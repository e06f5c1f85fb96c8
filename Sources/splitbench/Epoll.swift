import CLinuxShims
import Glibc

/// A small owner of an epoll instance (via CLinuxShims: Swift's Glibc module leaves
/// <sys/epoll.h> out) whose events carry an integer token.
final class Epoll {
    static let readable = UInt32(SPLITD_EPOLLIN.rawValue)
    static let writable = UInt32(SPLITD_EPOLLOUT.rawValue)
    static let failed = UInt32(SPLITD_EPOLLERR.rawValue)
    static let hungUp = UInt32(SPLITD_EPOLLHUP.rawValue)

    private let fd: Int32
    private let capacity: Int
    private let events: UnsafeMutablePointer<splitd_epoll_ready>

    init(capacity: Int = 1024) {
        fd = splitd_epoll_create()
        precondition(fd >= 0, "epoll_create1: \(errnoText())")
        self.capacity = capacity
        events = .allocate(capacity: capacity)
    }

    deinit {
        close(fd)
        events.deallocate()
    }

    /// Watches `descriptor` for `interest`; its events report `token`.
    func add(_ descriptor: Int32, interest: UInt32, token: Int) {
        control(Int32(SPLITD_EPOLL_CTL_ADD.rawValue), descriptor, interest, token)
    }

    func modify(_ descriptor: Int32, interest: UInt32, token: Int) {
        control(Int32(SPLITD_EPOLL_CTL_MOD.rawValue), descriptor, interest, token)
    }

    func remove(_ descriptor: Int32) {
        _ = splitd_epoll_ctl(fd, Int32(SPLITD_EPOLL_CTL_DEL.rawValue), descriptor, 0, 0)
    }

    /// Waits up to `milliseconds` for events; answers how many `event(at:)` can read.
    func wait(milliseconds: Int32) -> Int {
        let ready = splitd_epoll_wait(fd, events, Int32(min(capacity, 1024)), milliseconds)
        return ready < 0 ? 0 : Int(ready)
    }

    /// The flags and token of the `index`th ready event.
    func event(at index: Int) -> (flags: UInt32, token: Int) {
        (events[index].events, Int(truncatingIfNeeded: events[index].data))
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ interest: UInt32, _ token: Int) {
        _ = splitd_epoll_ctl(fd, operation, descriptor, interest, UInt64(token))
    }
}
