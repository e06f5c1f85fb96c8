import CLibUV
import CLinuxShims
import Glibc

/// A listening Unix socket on the loop: bound by the daemon (which holds the socket path's
/// lock until `onClose`), or adopted from systemd socket activation. Calls
/// `onConnection` for each pending client, which takes it with `accept(into:)`.
///
/// It accepts by itself (a `uv_poll_t` on the listening descriptor and `accept`) rather than
/// through `uv_listen`: when libuv's own accept fails with EMFILE, libuv accepts and closes
/// every pending client without a callback (its "emfile trick"), so past the open-file limit
/// clients were dropped without a word, uncounted. Here a failed accept is never a silent
/// drop: at EMFILE/ENFILE the listener closes its reserve descriptor, accepts one client,
/// writes it the owner's `refusal` line without blocking, closes it at once (no shutdown to
/// wait for, so refusals never pile up descriptors), reopens the reserve, and reports the
/// refusal through `onAcceptError` (the daemon counts it in `stats` as `acceptFailures` and
/// logs it rate-limited). Should even that fail (another thread took the freed descriptor), it stops
/// accepting for a moment: the clients wait in the backlog instead of being dropped.
public final class Listener {
    /// Where it listens, for logs (`fd N` for an activated socket).
    public let name: String
    private let fd: Int32
    private let poll: UnsafeMutablePointer<uv_poll_t>
    private let resumeTimer: UnsafeMutablePointer<uv_timer_t>
    /// The socket file bound by the daemon (unlinked at close); nil when adopted.
    private let boundPath: String?
    /// Called once when the listener closes, after a self-bound socket file is removed
    /// (releases the socket path's lock).
    private var onClose: (() -> Void)?
    /// The line written to a client refused at EMFILE/ENFILE, given the accept's errno.
    private let refusal: (Int32) -> [UInt8]
    private let onConnection: (Listener) -> Void
    /// Called with a (negative errno) status when a pending client could not be served: it
    /// was refused with the `refusal` line at EMFILE/ENFILE, or accepting stopped for a moment.
    public var onAcceptError: ((Int32) -> Void)?
    private var isOpen = true
    private var isPaused = false
    /// The client accepted and not yet taken by `accept(into:)` (-1: none).
    private var pendingClient: Int32 = -1
    /// An open /dev/null, closed to make room for refusing one client at EMFILE (-1: none).
    private var reserve: Int32 = -1

    /// Clients accepted per wake-up: the loop answers the clients it has between bursts.
    public static let acceptsPerWakeUp = 64
    /// How long accepting stops when even the reserve cannot make room.
    public static let pauseMilliseconds: UInt64 = 100

    private init(
        loop: EventLoop, fd: Int32, name: String, boundPath: String?,
        refusal: @escaping (Int32) -> [UInt8], onClose: (() -> Void)?,
        onConnection: @escaping (Listener) -> Void
    ) throws(SystemError) {
        self.name = name
        self.fd = fd
        self.boundPath = boundPath
        self.refusal = refusal
        self.onClose = onClose
        self.onConnection = onConnection
        poll = allocateUV(uv_poll_t.self)
        // Also makes the descriptor non-blocking.
        let status = uv_poll_init(loop.pointer, poll, fd)
        guard status == 0 else {
            free(poll)
            throw .uv(status, "cannot watch \(name)")
        }
        resumeTimer = allocateUV(uv_timer_t.self)
        uv_timer_init(loop.pointer, resumeTimer)
        attach(self, to: poll)
        attach(self, to: resumeTimer)
        reserve = Self.openReserve()
    }

    /// Binds and listens on `path`, which the caller readied under the path's lock (the
    /// socket file is removed again when closed); `onClose` runs once the listener closed.
    public static func bind(
        loop: EventLoop, path: String, group: UInt32?, backlog: Int32,
        refusal: @escaping (Int32) -> [UInt8], onClose: @escaping () -> Void,
        onConnection: @escaping (Listener) -> Void
    ) throws(SystemError) -> Listener {
        // A leading "@" would make an abstract name; the daemon binds files only.
        guard var address = UnixSocketAddress(path: path.hasPrefix("@") ? "./" + path : path) else {
            throw SystemError("cannot bind \(path): the path is too long for a Unix socket")
        }
        let fd = UnixStream.makeSocket()
        guard fd >= 0 else { throw .errno("cannot create a socket for \(path)") }
        let previous = umask(SocketFileMode.bindUmask(group: group))
        let bound = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        umask(previous)
        guard bound == 0 else {
            let error = SystemError.errno("cannot bind \(path)")
            Glibc.close(fd)
            throw error
        }
        do throws(SystemError) {
            try SocketFileMode.restrict(path: path, group: group)
            guard Glibc.listen(fd, backlog) == 0 else { throw .errno("cannot listen on \(path)") }
            let listener = try Listener(
                loop: loop, fd: fd, name: path, boundPath: path, refusal: refusal,
                onClose: onClose, onConnection: onConnection)
            listener.startPolling()
            return listener
        } catch {
            unlink(path)
            Glibc.close(fd)
            throw error
        }
    }

    /// Listens on a socket passed by systemd (no lock: systemd bound it and keeps it).
    public static func adopt(
        loop: EventLoop, fd: Int32, name: String, backlog: Int32,
        refusal: @escaping (Int32) -> [UInt8],
        onConnection: @escaping (Listener) -> Void
    ) throws(SystemError) -> Listener {
        guard SocketActivation.isListeningUnixStream(fd) else {
            throw SystemError("passed descriptor \(fd) (\(name)) is not a listening Unix stream socket")
        }
        // listen(2) again sets the configured backlog, as uv_listen did.
        guard Glibc.listen(fd, backlog) == 0 else { throw .errno("cannot listen on fd \(fd) (\(name))") }
        let listener = try Listener(
            loop: loop, fd: fd, name: "fd \(fd) (\(name))", boundPath: nil,
            refusal: refusal, onClose: nil, onConnection: onConnection)
        listener.startPolling()
        return listener
    }

    private func startPolling() {
        guard isOpen else { return }
        let status = uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { handle, status, _ in
            guard let listener = owner(of: asHandle(handle!), as: Listener.self) else { return }
            guard status == 0 else {
                listener.pause()
                listener.onAcceptError?(status)
                return
            }
            listener.acceptPending()
        }
        if status != 0 {
            pause()
            onAcceptError?(status)
        }
    }

    /// Accepts what is pending, up to `acceptsPerWakeUp` clients (the poll is level-triggered:
    /// the rest wake it up again on the next loop iteration).
    private func acceptPending() {
        var handled = 0
        while isOpen, !isPaused, handled < Self.acceptsPerWakeUp {
            if reserve < 0 { reserve = Self.openReserve() }
            let client = acceptClient()
            if client >= 0 {
                handled += 1
                hand(client)
                continue
            }
            let failure = errno
            switch failure {
            case EAGAIN, EWOULDBLOCK:
                return
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE:
                handled += 1
                guard refuseWithReserve(failure) else {
                    pause()
                    onAcceptError?(-failure)
                    return
                }
            default:
                pause()
                onAcceptError?(-failure)
                return
            }
        }
    }

    /// Offers `client` to the owner; closes it if the owner did not take it.
    private func hand(_ client: Int32) {
        pendingClient = client
        onConnection(self)
        if pendingClient >= 0 {
            Glibc.close(pendingClient)
            pendingClient = -1
        }
    }

    /// Accept failed for want of a descriptor: frees the reserve, accepts one client, refuses
    /// it with `limit_exceeded` and closes it, then takes the reserve back. False if no room
    /// could be made (the client stays pending).
    private func refuseWithReserve(_ failure: Int32) -> Bool {
        guard reserve >= 0 else { return false }
        Glibc.close(reserve)
        reserve = -1
        defer { reserve = Self.openReserve() }
        while true {
            let client = acceptClient()
            if client >= 0 {
                Self.refuse(client, line: refusal(failure))
                onAcceptError?(-failure)
                return true
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO: return true  // gone meanwhile: nothing to refuse
            default: return false
            }
        }
    }

    /// Stops accepting for `pauseMilliseconds`: pending clients wait in the backlog.
    private func pause() {
        guard isOpen, !isPaused else { return }
        isPaused = true
        uv_poll_stop(poll)
        uv_timer_start(
            resumeTimer,
            { handle in
                guard let listener = owner(of: asHandle(handle!), as: Listener.self) else { return }
                listener.isPaused = false
                listener.startPolling()
            }, Self.pauseMilliseconds, 0)
    }

    /// Takes the pending client into `client` (an initialized pipe): 0, or a libuv error.
    public func accept(into client: UnsafeMutablePointer<uv_pipe_t>) -> Int32 {
        guard pendingClient >= 0 else { return Int32(UV_EAGAIN.rawValue) }
        let descriptor = pendingClient
        pendingClient = -1
        let status = uv_pipe_open(client, descriptor)
        if status != 0 { Glibc.close(descriptor) }
        return status
    }

    /// Stops listening: a self-bound socket file is removed, then its lock released.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        closeAndFree(poll)
        closeAndFree(resumeTimer)
        if let boundPath { unlink(boundPath) }
        Glibc.close(fd)
        if pendingClient >= 0 { Glibc.close(pendingClient) }
        pendingClient = -1
        if reserve >= 0 { Glibc.close(reserve) }
        reserve = -1
        let onClose = self.onClose
        self.onClose = nil
        onClose?()
    }

    /// accept4(2) on the listening socket, the client close-on-exec and non-blocking in the
    /// same call (three `fcntl`s less per client); -1 with errno set on failure.
    private func acceptClient() -> Int32 {
        splitd_accept_client(fd)
    }

    private static func openReserve() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Writes `line` to a just-accepted client without blocking, and closes it.
    private static func refuse(_ client: Int32, line: [UInt8]) {
        // What the client already sent is read and dropped first: closing a Unix socket with
        // unread input makes its peer's next read fail (ECONNRESET) rather than see the end.
        withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { scratch in
            _ = UnixStream.receiveWithoutWaiting(client, into: scratch)
        }
        _ = line.withUnsafeBytes { UnixStream.sendWithoutWaiting(client, $0) }
        Glibc.close(client)
    }
}

/// The modes of a self-bound socket file: `0600` (directory `0700`), or `0660` with the group
/// that shares it.
public enum SocketFileMode {
    /// The umask around `bind`, so the socket file never exists with a wider mode.
    public static func bindUmask(group: UInt32?) -> mode_t { group == nil ? 0o177 : 0o117 }

    /// Gives the socket file to `group` (if any) and sets its mode.
    public static func restrict(path: String, group: UInt32?) throws(SystemError) {
        if let group {
            guard chown(path, uid_t.max, group) == 0 else { throw .errno("cannot give \(path) to group \(group)") }
        }
        guard chmod(path, group == nil ? 0o600 : 0o660) == 0 else { throw .errno("cannot set the mode of \(path)") }
    }
}
