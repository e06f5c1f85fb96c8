import Glibc

/// The sd_notify protocol written by hand (no libsystemd): datagrams of `KEY=value` lines
/// sent to the socket named by `$NOTIFY_SOCKET`, which may be an abstract name (`@...`).
public struct SystemdNotifier: Sendable {
    /// The notification socket, or nil when not started by systemd with Type=notify.
    public let socketPath: String?

    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        socketPath = path.isEmpty ? nil : path
    }

    public var isEnabled: Bool { socketPath != nil }

    /// Sends one notification such as `READY=1` or `STATUS=serving`. Failures are returned,
    /// never fatal: the daemon works the same without a supervisor.
    @discardableResult
    public func notify(_ message: String) -> Bool {
        guard let path = socketPath else { return false }
        let fd = UnixStream.makeDatagramSocket()
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard var address = UnixSocketAddress(path: path) else { return false }
        let sent = message.utf8CString.withUnsafeBufferPointer { text in
            address.withSockaddr { sockaddr, length in
                UnixStream.sendDatagram(fd, text.baseAddress, text.count - 1, to: sockaddr, length)
            }
        }
        return sent == message.utf8.count
    }

    /// The watchdog interval systemd expects (`WATCHDOG_USEC`), if it is meant for this process.
    public static func watchdogInterval(environment: [String: String], pid: Int32 = getpid()) -> UInt64? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], Int32(owner) != pid { return nil }
        return usec
    }
}

/// A `sockaddr_un` for a filesystem path or, with a leading `@`, an abstract name.
public struct UnixSocketAddress {
    private var storage = sockaddr_un()
    private var length: socklen_t

    public init?(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        // A filesystem path needs room for its terminating NUL; an abstract name does not.
        guard !bytes.isEmpty, bytes.count <= (abstract ? capacity : capacity - 1) else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        length = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
    }

    public mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        let length = self.length
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
