import Glibc

/// epoll, reached through `dlsym`: Swift's Glibc module does not import <sys/epoll.h> and
/// this target has no C shim (see docs/PERFORMANCE.md). `struct epoll_event` is handled as
/// raw bytes: packed (12 bytes, data at offset 4) on x86_64, 16 bytes elsewhere.
final class Epoll {
    static let readable: UInt32 = 0x001
    static let writable: UInt32 = 0x004
    static let failed: UInt32 = 0x008
    static let hungUp: UInt32 = 0x010

    #if arch(x86_64)
    private static let eventSize = 12
    private static let dataOffset = 4
    #else
    private static let eventSize = 16
    private static let dataOffset = 8
    #endif

    private typealias Create = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private nonisolated(unsafe) static let create: Create = symbol("epoll_create1")
    private nonisolated(unsafe) static let control: Control = symbol("epoll_ctl")
    private nonisolated(unsafe) static let wait: Wait = symbol("epoll_wait")

    private let fd: Int32
    private let capacity: Int
    private let events: UnsafeMutableRawPointer

    init(capacity: Int = 1024) {
        fd = Epoll.create(Int32(O_CLOEXEC))
        precondition(fd >= 0, "epoll_create1: \(errnoText())")
        self.capacity = capacity
        events = .allocate(byteCount: capacity * Epoll.eventSize, alignment: 8)
    }

    deinit {
        close(fd)
        events.deallocate()
    }

    /// Watches `descriptor` for `interest`; events report `token`.
    func add(_ descriptor: Int32, interest: UInt32, token: Int) {
        control(1, descriptor, interest, token)
    }

    func modify(_ descriptor: Int32, interest: UInt32, token: Int) {
        control(3, descriptor, interest, token)
    }

    func remove(_ descriptor: Int32) {
        _ = Epoll.control(fd, 2, descriptor, nil)
    }

    /// Waits up to `milliseconds` for events; answers how many `event(at:)` can read.
    func wait(milliseconds: Int32) -> Int {
        let ready = Epoll.wait(fd, events, Int32(capacity), milliseconds)
        return ready < 0 ? 0 : Int(ready)
    }

    /// The flags and token of the `index`th ready event.
    func event(at index: Int) -> (flags: UInt32, token: Int) {
        let base = events + index * Epoll.eventSize
        return (base.loadUnaligned(as: UInt32.self),
                Int(truncatingIfNeeded: (base + Epoll.dataOffset).loadUnaligned(as: UInt64.self)))
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ interest: UInt32, _ token: Int) {
        var event = [UInt8](repeating: 0, count: Epoll.eventSize)
        event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: interest, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt64(token), toByteOffset: Epoll.dataOffset, as: UInt64.self)
            _ = Epoll.control(fd, operation, descriptor, raw.baseAddress)
        }
    }
}

/// A libc function by name (the process's default symbol scope).
func symbol<Function>(_ name: String) -> Function {
    guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
        fatalError("\(name) not found in libc")
    }
    return unsafeBitCast(address, to: Function.self)
}
