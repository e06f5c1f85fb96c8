import CLinuxShims
import Glibc

/// A small owner of an epoll instance (via CLinuxShims: Swift's Glibc module leaves
/// <sys/epoll.h> out) whose events carry an integer token.
final class Epoll {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let failed = EPOLLERR.rawValue
    static let hungUp = EPOLLHUP.rawValue

    private let fd: Int32
    private let capacity: Int
    private let events: UnsafeMutablePointer<epoll_event>

    init(capacity: Int = 1024) {
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
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
        control(EPOLL_CTL_ADD, descriptor, interest, token)
    }

    func modify(_ descriptor: Int32, interest: UInt32, token: Int) {
        control(EPOLL_CTL_MOD, descriptor, interest, token)
    }

    func remove(_ descriptor: Int32) {
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, nil)
    }

    /// Waits up to `milliseconds` for events; answers how many `event(at:)` can read.
    func wait(milliseconds: Int32) -> Int {
        let ready = epoll_wait(fd, events, Int32(capacity), milliseconds)
        return ready < 0 ? 0 : Int(ready)
    }

    /// The flags and token of the `index`th ready event.
    func event(at index: Int) -> (flags: UInt32, token: Int) {
        (events[index].events, Int(truncatingIfNeeded: events[index].data.u64))
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ interest: UInt32, _ token: Int) {
        var event = epoll_event(events: interest, data: epoll_data_t(u64: UInt64(token)))
        _ = epoll_ctl(fd, operation, descriptor, &event)
    }
}
