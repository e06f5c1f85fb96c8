import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One connection to splitd's Unix socket: lines out with `send`, lines in as an async
/// stream fed by a dedicated reading thread (a blocking read per connection keeps this
/// free of an event loop of its own; a browser tab has one link). The stream finishes when
/// the daemon closes the connection or dies, which is how a tab learns to reconnect.
final class DaemonLink: Sendable {
    let fd: Int32
    let lines: AsyncStream<String>
    private let writeLock = NSLock()

    private init(fd: Int32, lines: AsyncStream<String>) {
        self.fd = fd
        self.lines = lines
    }

    enum Failure: Error { case path, socket(Int32), connect(Int32) }

    static func connect(to path: String) throws -> DaemonLink {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw Failure.path
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure.connect(code)
        }
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let link = DaemonLink(fd: fd, lines: stream)
        let thread = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }
        thread.start()
        return link
    }

    /// Writes one JSON line; false when the connection is gone.
    @discardableResult
    func send(_ object: [String: Any]) -> Bool {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return false
        }
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Ends the connection; the reading thread sees end of file and finishes `lines`.
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(fd) }
}
