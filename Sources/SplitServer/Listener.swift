import CLibUV
import Glibc

/// A listening Unix socket on the loop: bound by the daemon under `SocketPathGuard`'s rules
/// (holding its `SocketPathLock`), or adopted from systemd socket activation. Calls
/// `onConnection` for each pending client.
final class Listener {
    let pipe: UnsafeMutablePointer<uv_pipe_t>
    /// Where it listens, for logs (`fd N` for an activated socket).
    let name: String
    private let onConnection: (Listener) -> Void
    /// Called with libuv's status when accepting a pending client failed (EMFILE: the
    /// open-file limit; libuv then closes that client).
    var onAcceptError: ((Int32) -> Void)?
    private var isOpen = true
    /// Held while the self-bound socket listens (nil when adopted: systemd bound it).
    private var lock: SocketPathLock?

    private init(loop: UnsafeMutablePointer<uv_loop_t>, name: String, onConnection: @escaping (Listener) -> Void) throws(SystemError) {
        self.name = name
        self.onConnection = onConnection
        pipe = allocateUV(uv_pipe_t.self)
        let status = uv_pipe_init(loop, pipe, 0)
        guard status == 0 else {
            free(pipe)
            throw .uv(status, "uv_pipe_init")
        }
        attach(self, to: pipe)
    }

    /// Binds and listens on `path` (the socket file is removed again when closed), holding
    /// `SocketPathGuard`'s lock from before the path is checked until the listener closes.
    static func bind(loop: UnsafeMutablePointer<uv_loop_t>, path: String, group: UInt32?, backlog: Int32,
                     onConnection: @escaping (Listener) -> Void) throws(SystemError) -> Listener {
        let lock = try SocketPathGuard.prepare(path: path, group: group)
        let listener = try Listener(loop: loop, name: path, onConnection: onConnection)
        listener.lock = lock
        let previous = umask(SocketPathGuard.bindUmask(group: group))
        let status = uv_pipe_bind(listener.pipe, path)
        umask(previous)
        guard status == 0 else {
            listener.close()
            throw .uv(status, "cannot bind \(path)")
        }
        do {
            try SocketPathGuard.restrict(path: path, group: group)
            try listener.listen(backlog: backlog)
        } catch {
            listener.close()
            throw error
        }
        return listener
    }

    /// Listens on a socket passed by systemd.
    static func adopt(loop: UnsafeMutablePointer<uv_loop_t>, fd: Int32, name: String, backlog: Int32,
                      onConnection: @escaping (Listener) -> Void) throws(SystemError) -> Listener {
        guard SocketActivation.isListeningUnixStream(fd) else {
            throw SystemError("passed descriptor \(fd) (\(name)) is not a listening Unix stream socket")
        }
        let listener = try Listener(loop: loop, name: "fd \(fd) (\(name))", onConnection: onConnection)
        let status = uv_pipe_open(listener.pipe, fd)
        guard status == 0 else {
            listener.close()
            throw .uv(status, "cannot adopt fd \(fd)")
        }
        do { try listener.listen(backlog: backlog) } catch {
            listener.close()
            throw error
        }
        return listener
    }

    private func listen(backlog: Int32) throws(SystemError) {
        let status = uv_listen(asStream(pipe), backlog) { server, status in
            guard let listener = owner(of: asHandle(server!), as: Listener.self) else { return }
            guard status == 0 else { return listener.onAcceptError?(status) ?? () }
            listener.onConnection(listener)
        }
        guard status == 0 else { throw .uv(status, "cannot listen on \(name)") }
    }

    /// Accepts one pending client into `client` (an initialized pipe).
    func accept(into client: UnsafeMutablePointer<uv_pipe_t>) -> Int32 {
        uv_accept(asStream(pipe), asStream(client))
    }

    /// Stops listening; a self-bound socket file is unlinked by libuv (at once, in
    /// uv_close), then its lock released.
    func close() {
        guard isOpen else { return }
        isOpen = false
        closeAndFree(pipe)
        lock?.release()
        lock = nil
    }
}
