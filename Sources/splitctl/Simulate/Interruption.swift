import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM during `simulate`: the run stops at once and cleans up (the scene of
/// the current run on a running daemon, the embedded daemon and its temporary directory)
/// before exiting 128 + the signal number, instead of dying with both left behind.
///
/// The signals become bytes on a self-pipe (`SignalPipe`) that a thread waits on. It records
/// the signal and shuts down the connection's socket, so a request the main thread is
/// waiting on fails at once (rather than at --timeout); the main thread sees `signal` set,
/// stops, and cleans up on its own thread. A second signal exits immediately.
final class Interruption: @unchecked Sendable {
    // @unchecked: `received` and `socket` are guarded by `lock`.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    private let lock = NSLock()
    private var received: Int32?
    private var socket: Int32 = -1

    /// Installs the handlers; nil when the pipe cannot be made (then signals act as before).
    static func install() -> Interruption? {
        guard let readEnd = SignalPipe.install(signals) else { return nil }
        let interruption = Interruption()
        let thread = Thread {
            while true {
                var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, -1) >= 0 || errno == EINTR else { return }
                for number in SignalPipe.drain(readEnd) { interruption.deliver(number) }
            }
        }
        thread.name = "simulate signals"
        thread.start()
        return interruption
    }

    /// The first SIGINT or SIGTERM received; nil while none was.
    var signal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// The socket whose blocked reads and writes a signal ends (-1: none). Unwatch before
    /// closing it, so the descriptor number is never shut down after reuse.
    func watch(socket fd: Int32) {
        lock.lock()
        defer { lock.unlock() }
        socket = fd
        if received != nil, fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func deliver(_ number: Int32) {
        lock.lock()
        defer { lock.unlock() }
        guard received == nil else {
            // Asked twice: the cleanup is taking too long for the user.
            _exit(128 + number)
        }
        received = number
        if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// `SIGINT`, `SIGTERM`.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
