#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected Unix stream socket with blocking-with-deadline reads and writes.
/// The descriptor is non-blocking underneath; `poll(2)` enforces every deadline, so no
/// call can hang past its deadline.
public final class UnixSocket {
    /// The descriptor; -1 once closed.
    public private(set) var fd: Int32
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    /// Connects to the socket at `path`, giving up at `deadline` when the listen backlog is full.
    public static func connect(path: String, deadline: Deadline) throws(ClientError) -> UnixSocket {
        var address = try makeAddress(path: path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        let connection = UnixSocket(fd: fd, path: path)
        try connection.setNonBlocking()
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return connection }
            let code = errno
            switch code {
            case EINTR: continue
            case EINPROGRESS:
                try connection.awaitConnected(deadline: deadline)
                return connection
            case EAGAIN:
                // Backlog full: the daemon is busy, try again until the deadline.
                if deadline.hasPassed { throw .timedOut(what: "a free slot in the listen backlog of \(path)") }
                usleep(5_000)
            default:
                throw connectError(code, path: path)
            }
        }
    }

    /// Closes the descriptor (idempotent).
    public func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }

    /// Writes every byte of `bytes`, or throws at `deadline`.
    public func write(_ bytes: [UInt8], deadline: Deadline) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            guard fd >= 0 else { throw .closed }
            let sent = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN:
                try awaitReady(events: Int16(POLLOUT), deadline: deadline, what: "the socket to accept more bytes")
            case EPIPE, ECONNRESET: throw .closed
            default: throw .system(call: "send", errno: code)
            }
        }
    }

    /// Reads whatever is available (at most `maximum` bytes), waiting until `deadline` for
    /// at least one byte. Answers an empty array at end of stream.
    public func read(maximum: Int = 65536, deadline: Deadline) throws(ClientError) -> [UInt8] {
        while true {
            guard fd >= 0 else { throw .closed }
            var chunk = [UInt8](repeating: 0, count: maximum)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, maximum, 0) }
            if count >= 0 {
                chunk.removeLast(maximum - count)
                return chunk
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN: try awaitReady(events: Int16(POLLIN), deadline: deadline, what: "a reply from splitd")
            case ECONNRESET: return []
            default: throw .system(call: "recv", errno: code)
            }
        }
    }

    /// Shuts down the write side: the daemon sees end of stream, replies can still be read.
    public func shutdownWrite() {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    private func setNonBlocking() throws(ClientError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system(call: "fcntl", errno: errno)
        }
    }

    private func awaitConnected(deadline: Deadline) throws(ClientError) {
        try awaitReady(events: Int16(POLLOUT), deadline: deadline, what: "the connection to \(path)")
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
            throw .system(call: "getsockopt", errno: errno)
        }
        if code != 0 { throw UnixSocket.connectError(code, path: path) }
    }

    /// Waits for `events` on the descriptor; throws `.timedOut` at the deadline.
    private func awaitReady(events: Int16, deadline: Deadline, what: String) throws(ClientError) {
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.pollMilliseconds)
            if ready > 0 { return }
            if ready == 0 { throw .timedOut(what: what) }
            let code = errno
            if code != EINTR { throw .system(call: "poll", errno: code) }
        }
    }

    private static func makeAddress(path: String) throws(ClientError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { throw .pathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return address
    }

    /// What `path` is when it exists and is not a socket (`a directory`...); nil for a socket
    /// or when it cannot be told.
    private static func fileKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFDIR: return "a directory"
        case S_IFREG: return "a regular file"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return nil
        }
    }

    private static func connectError(_ code: Int32, path: String) -> ClientError {
        switch code {
        case ENOENT, ENOTDIR: .noSocket(path: path)
        case ECONNREFUSED, ENOTSOCK:
            // A directory or a regular file refuses too: say what the path really is.
            fileKind(path).map { .notASocket(path: path, kind: $0) } ?? .connectionRefused(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        default: .system(call: "connect", errno: code)
        }
    }
}
