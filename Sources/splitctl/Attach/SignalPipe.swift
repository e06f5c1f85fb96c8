#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe, for the signal handler (async-signal-safe: one write).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns signals into bytes on a pipe so the poll(2) loop sees them like any other input
/// (the self-pipe trick): the handler only writes the signal number.
enum SignalPipe {
    /// Installs handlers for `signals`; answers the read end (non-blocking).
    static func install(_ signals: [Int32]) -> Int32? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = ends[1]
        // A parent may have left these blocked (test runners, some job controls): a blocked
        // SIGWINCH would freeze the size and a blocked SIGTERM would leave the terminal raw.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        _ = pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            _ = signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
        return ends[0]
    }

    /// Puts the default handlers back.
    static func uninstall(_ signals: [Int32]) {
        for number in signals { _ = signal(number, SIG_DFL) }
    }

    /// The signals delivered since the last call, in order (duplicates kept).
    static func drain(_ readEnd: Int32) -> [Int32] {
        var received: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return received }
            received += buffer[0..<count].map { Int32($0) }
        }
    }
}
