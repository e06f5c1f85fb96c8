import Glibc

/// Listening sockets passed by systemd (`LISTEN_FDS`, `LISTEN_PID`, `LISTEN_FDNAMES`), read by
/// hand after sd_listen_fds(3): descriptors start at 3 and are only ours if the pid matches.
public struct SocketActivation: Sendable {
    /// A passed descriptor and its `FileDescriptorName=` (or "unknown").
    public struct PassedSocket: Hashable, Sendable {
        public var fd: Int32
        public var name: String
    }

    public static let firstDescriptor: Int32 = 3

    /// The sockets meant for this process; empty when not socket-activated.
    public static func passedSockets(environment: [String: String], pid: Int32 = getpid()) -> [PassedSocket] {
        guard let pidText = environment["LISTEN_PID"], Int32(pidText) == pid,
            let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0
        else { return [] }
        let names =
            environment["LISTEN_FDNAMES"].map {
                $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            } ?? []
        return (0..<count).map { index in
            let name = Int(index) < names.count ? names[Int(index)] : "unknown"
            return PassedSocket(fd: firstDescriptor + index, name: name)
        }
    }

    /// The passed sockets the daemon should listen on: those named `name` if any has that
    /// name, else all of them (a unit without FileDescriptorName= passes "unknown").
    public static func select(_ sockets: [PassedSocket], named name: String) -> [PassedSocket] {
        let named = sockets.filter { $0.name == name }
        return named.isEmpty ? sockets : named
    }

    /// Unsets the variables so children do not inherit them, and marks the fds close-on-exec.
    public static func consume(_ sockets: [PassedSocket]) {
        for socket in sockets {
            let flags = fcntl(socket.fd, F_GETFD)
            if flags >= 0 { _ = fcntl(socket.fd, F_SETFD, flags | FD_CLOEXEC) }
        }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
    }

    /// True if `fd` is a listening Unix stream socket (a misconfigured unit is refused clearly).
    public static func isListeningUnixStream(_ fd: Int32) -> Bool {
        var type: Int32 = 0
        var accepting: Int32 = 0
        var family = sockaddr_storage()
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0,
            type == UnixStream.streamType
        else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0, accepting == 1 else { return false }
        var addressLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &family) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &addressLength) }
        }
        return ok == 0 && Int32(family.ss_family) == AF_UNIX
    }
}
