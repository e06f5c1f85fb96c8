#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a client operation failed. Each case says what a caller can do about it:
/// connection failures (retry later, check the path), a closed or timed-out connection,
/// an error response from the daemon (its wire `code` and `message`), or a daemon that
/// broke the protocol.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing exists at the socket path.
    case noSocket(path: String)
    /// The path exists but nothing accepts connections on it.
    case connectionRefused(path: String)
    /// The path exists but is not a socket: `kind` says what it is (`a directory`, `a
    /// regular file`...). A wrong --socket, not a stopped daemon.
    case notASocket(path: String, kind: String)
    /// The socket or its directory is not accessible to this user.
    case permissionDenied(path: String)
    /// `sockaddr_un` holds at most 107 bytes of path.
    case pathTooLong(path: String)
    /// The deadline passed while waiting for `what`.
    case timedOut(what: String)
    /// The daemon closed the connection.
    case closed
    /// The daemon answered `ok: false` with this wire error.
    case server(code: String, message: String)
    /// The daemon sent something that is not protocol 1 (bad JSON, a response without `ok`...).
    case protocolViolation(String)
    /// A system call failed unexpectedly.
    case system(call: String, errno: Int32)

    /// True for failures to reach the daemon at all (splitctl's exit code 69).
    public var isConnectionFailure: Bool {
        switch self {
        case .noSocket, .connectionRefused, .notASocket, .permissionDenied, .pathTooLong, .closed: true
        case .timedOut, .server, .protocolViolation, .system: false
        }
    }

    /// The wire error code of a `.server` error, else nil.
    public var serverCode: String? {
        if case let .server(code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case let .noSocket(path): "no socket at \(path) (is splitd running?)"
        case let .connectionRefused(path): "connection refused at \(path) (is splitd running?)"
        case let .notASocket(path, kind): "\(path) is \(kind), not a socket"
        case let .permissionDenied(path): "permission denied for \(path)"
        case let .pathTooLong(path): "socket path too long (max 107 bytes): \(path)"
        case let .timedOut(what): "timed out waiting for \(what)"
        case .closed: "connection closed by splitd"
        case let .server(code, message): "\(code): \(message)"
        case let .protocolViolation(detail): "protocol violation: \(detail)"
        case let .system(call, errno): "\(call) failed: \(describeErrno(errno))"
        }
    }
}

func describeErrno(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}
