import CLinuxShims
import Glibc

/// A small owner of an epoll instance (through CLinuxShims' plain-typed wrappers: Swift's
/// Glibc module leaves <sys/epoll.h> out) whose events carry an integer token.
final class Epoll {
    // The kernel's flag values, as the shim's SPLITD_EPOLL* constants spell them.
    static let readable: UInt32 = 0x001
    static let writable: UInt32 = 0x004
    static let failed: UInt32 = 0x008
    static let hungUp: UInt32 = 0x010
    private static let add: Int32 = 1
    private static let delete: Int32 = 2
    private static let modify: Int32 = 3

    private let fd: Int32
    private let capacity: Int
    private let events: UnsafeMutablePointer<splitd_epoll_ready>

    init(capacity: Int = 1024) {
        fd = splitd_epoll_create()
        precondition(fd >= 0, "epoll_create1: \(errnoText())")
        self.capacity = min(capacity, 1024)
        events = .allocate(capacity: self.capacity)
    }

    deinit {
        close(fd)
        events.deallocate()
    }

    /// Watches `descriptor` for `interest`; its events report `token`.
    func add(_ descriptor: Int32, interest: UInt32, token: Int) {
        _ = splitd_epoll_ctl(fd, Epoll.add, descriptor, interest, UInt64(token))
    }

    func modify(_ descriptor: Int32, interest: UInt32, token: Int) {
        _ = splitd_epoll_ctl(fd, Epoll.modify, descriptor, interest, UInt64(token))
    }

    func remove(_ descriptor: Int32) {
        _ = splitd_epoll_ctl(fd, Epoll.delete, descriptor, 0, 0)
    }

    /// Waits up to `milliseconds` for events; answers how many `event(at:)` can read.
    func wait(milliseconds: Int32) -> Int {
        let ready = splitd_epoll_wait(fd, events, Int32(capacity), milliseconds)
        return ready < 0 ? 0 : Int(ready)
    }

    /// The flags and token of the `index`th ready event.
    func event(at index: Int) -> (flags: UInt32, token: Int) {
        (events[index].events, Int(truncatingIfNeeded: events[index].data))
    }
}
