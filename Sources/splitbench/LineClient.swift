import Glibc
import SplitLines

/// A blocking newline-delimited client for setup and control (creating scenes, `stats`,
/// readiness), with a deadline on every wait. Not used on measured paths.
final class LineClient {
    let fd: Int32
    private var lines = LineQueue(maxLineLength: 64 << 20)

    init(path: String, timeout: Double = 10) throws(BenchError) {
        guard let fd = connectUnix(path: path, timeout: timeout) else {
            throw BenchError("cannot connect to \(path): \(errnoText())")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes every byte of `bytes`.
    func send(_ bytes: [UInt8]) throws(BenchError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw BenchError("write: \(errnoText())") }
            offset += written
        }
    }

    func send(line: String) throws(BenchError) {
        try send(Array((line + "\n").utf8))
    }

    /// The next line (without its newline), waiting at most `timeout` seconds.
    func readLine(timeout: Double = 10) throws(BenchError) -> [UInt8] {
        let deadline = monotonicNanoseconds() + nanoseconds(seconds: timeout)
        while true {
            if let line = lines.nextLine() { return line }
            guard !lines.isBroken else { throw BenchError("a reply longer than \(lines.maxLineLength) bytes") }
            let now = monotonicNanoseconds()
            guard now < deadline else { throw BenchError("no reply within \(timeout) s") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let waited = poll(&poller, 1, Int32(min(1000, (deadline - now) / 1_000_000 + 1)))
            if waited < 0 && errno != EINTR { throw BenchError("poll: \(errnoText())") }
            guard waited > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 256 * 1024)
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw BenchError(got == 0 ? "the daemon closed the connection" : "read: \(errnoText())")
            }
            chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
    }

    /// Sends one request and answers its reply line as text; throws on `"ok":false`.
    @discardableResult
    func call(_ line: String, timeout: Double = 10) throws(BenchError) -> String {
        try send(line: line)
        let reply = try readLine(timeout: timeout)
        let text = String(decoding: reply, as: UTF8.self)
        if reply.withUnsafeBytes({ isErrorReply($0) }) { throw BenchError("request \(line) failed: \(text)") }
        return text
    }
}

/// A failure of a benchmark's setup (not a measured error).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
