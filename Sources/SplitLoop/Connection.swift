import CLibUV
import Glibc
import SplitLines

/// What a connection reports to its owner. Called on the loop thread only.
public protocol ConnectionDelegate: AnyObject {
    /// A complete request line; answer false to stop reading the rest of this chunk.
    func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) -> Bool
    /// A line exceeded the maximum length; reading has stopped.
    func connectionDidExceedLineLength(_ connection: Connection)
    /// The peer finished sending (EOF, possibly a half-close); reading has stopped and the
    /// connection stays open for the answers to what was already read.
    func connectionDidReachEnd(_ connection: Connection)
    /// The peer hung up or the socket failed; the connection is already closed.
    func connectionDidClose(_ connection: Connection, reason: String)
    /// A queued write completed (some output drained).
    func connectionDidWrite(_ connection: Connection)
    /// Queued output fell to zero after having been pending.
    func connectionDidDrain(_ connection: Connection)
}

/// One client on a `uv_pipe_t`: reads into the loop's shared buffer, frames lines, and writes
/// each flush with at most one `uv_write` (after trying a synchronous `uv_try_write`).
public final class Connection {
    public typealias ID = Int

    public let id: ID
    public let pipe: UnsafeMutablePointer<uv_pipe_t>
    public let peer: PeerCredentials?
    public private(set) var framer: LineFramer
    public private(set) var isOpen = true
    public private(set) var isReading = false
    /// Whether lines framed from input are handed over; false once `stopReading()` ran.
    /// `pauseReading()` keeps it, so the rest of a chunk already read is still answered.
    private var acceptsLines = false
    private let readBuffer: UnsafeMutableRawBufferPointer
    private weak var delegate: ConnectionDelegate?
    /// Bytes written to the socket so far.
    public private(set) var bytesWritten = 0
    public private(set) var bytesRead = 0

    /// Accepts a pending client of `listener`; nil if the accept failed.
    public init?(
        id: ID, loop: EventLoop, listener: Listener, maxLineLength: Int,
        readBuffer: UnsafeMutableRawBufferPointer, delegate: ConnectionDelegate
    ) {
        self.id = id
        self.readBuffer = readBuffer
        self.delegate = delegate
        framer = LineFramer(maxLineLength: maxLineLength)
        pipe = allocateUV(uv_pipe_t.self)
        guard uv_pipe_init(loop.pointer, pipe, 0) == 0 else {
            free(pipe)
            return nil
        }
        guard listener.accept(into: pipe) == 0 else {
            closeAndFree(pipe)
            return nil
        }
        var fd: uv_os_fd_t = -1
        peer = uv_fileno(asHandle(pipe), &fd) == 0 ? PeerCredentials.of(socket: fd) : nil
        attach(self, to: pipe)
    }

    /// A connection to no peer: one end of a socket pair whose other end is closed at once.
    /// For a session whose replies the owner takes before they are written (requests another
    /// node forwarded); nothing is ever read from it. Nil if the socket pair fails.
    public init?(
        unconnected id: ID, loop: EventLoop, maxLineLength: Int, readBuffer: UnsafeMutableRawBufferPointer,
        delegate: ConnectionDelegate
    ) {
        self.id = id
        self.readBuffer = readBuffer
        self.delegate = delegate
        framer = LineFramer(maxLineLength: maxLineLength)
        peer = nil
        guard let (fd, other) = UnixStream.makeSocketPair() else { return nil }
        Glibc.close(other)
        pipe = allocateUV(uv_pipe_t.self)
        guard uv_pipe_init(loop.pointer, pipe, 0) == 0 else {
            free(pipe)
            Glibc.close(fd)
            return nil
        }
        guard uv_pipe_open(pipe, fd) == 0 else {
            closeAndFree(pipe)
            Glibc.close(fd)
            return nil
        }
        attach(self, to: pipe)
    }

    /// Bytes waiting in libuv's write queue (written to the kernel as the peer reads).
    public var queuedBytes: Int { isOpen ? Int(asStream(pipe).pointee.write_queue_size) : 0 }

    public func startReading() {
        guard isOpen, !isReading, !reachedEnd else { return }
        // The clock of an unfinished line restarts: while paused, the client was waiting for us.
        if partialLineSince != nil { partialLineSince = uv_now(pipe.pointee.loop) }
        if !heldInput.isEmpty {
            // Input read before a pause is framed first; it may pause reading again, even on
            // its very last line: then the socket must stay unread (reading it while the
            // owner thinks it paused would drop the rest of the next chunk).
            acceptsLines = true
            let pausedAgain = frameHeldInput()
            guard isOpen, acceptsLines, !pausedAgain else { return }
        }
        isReading =
            uv_read_start(
                asStream(pipe),
                { handle, _, buffer in
                    guard let connection = owner(of: handle, as: Connection.self) else { return }
                    buffer!.pointee = uv_buf_init(
                        connection.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                        UInt32(connection.readBuffer.count))
                },
                { stream, count, _ in
                    guard let connection = owner(of: asHandle(stream!), as: Connection.self) else { return }
                    connection.didRead(count)
                }) == 0
        acceptsLines = isReading
    }

    /// Stops reading for good (final error, daemon stopping): later lines are ignored.
    public func stopReading() {
        acceptsLines = false
        pauseReading()
    }

    /// Stops reading from the socket until `startReading()` (backpressure); lines of the
    /// chunk being framed are still handed over.
    public func pauseReading() {
        guard isOpen, isReading else { return }
        uv_read_stop(asStream(pipe))
        isReading = false
    }

    /// True once the peer sent EOF: nothing more will be read.
    public private(set) var reachedEnd = false

    private func didRead(_ count: Int) {
        if count == Int(UV_EOF.rawValue) {
            // libuv already stopped reading; keep the pipe for the answers still to write.
            reachedEnd = true
            isReading = false
            acceptsLines = false
            delegate?.connectionDidReachEnd(self)
            return
        }
        if count < 0 {
            close(reason: uvErrorMessage(Int32(count)))
            return
        }
        guard count > 0 else { return }
        frame(count)
    }

    /// Frames the first `count` bytes of the read buffer and hands complete lines over.
    private func frame(_ count: Int) {
        bytesRead += count
        frame(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(readBuffer)[0..<count]))
        notePartialLine()
    }

    /// Loop time (ms) when the framer began holding the incomplete line it holds now; nil
    /// while it holds none. For `limits.partialLineTimeoutSeconds`.
    public private(set) var partialLineSince: UInt64?

    private func notePartialLine() {
        if framer.bufferedByteCount == 0 {
            partialLineSince = nil
        } else if partialLineSince == nil {
            partialLineSince = uv_now(pipe.pointee.loop)
        }
    }

    /// True when the connection is reading and has held an incomplete line since before
    /// `deadline` (loop time, ms). A connection the daemon paused (backpressure) is not
    /// waiting for its client.
    public func holdsPartialLine(since deadline: UInt64) -> Bool {
        guard isOpen, isReading, let since = partialLineSince else { return false }
        return since <= deadline
    }

    /// Hands `chunk`'s complete lines over; if the delegate paused reading (backpressure),
    /// the unframed rest is held until `startReading()`.
    private func frame(_ chunk: UnsafeRawBufferPointer) {
        if frameLines(of: chunk) {
            heldInput = Array(UnsafeRawBufferPointer(rebasing: chunk[framer.stoppedAt...]))
            heldStart = 0
        }
    }

    /// Frames what is left of `heldInput`; true if reading was paused again, the rest then
    /// staying held in place (a client paused after every line must not cost a copy of its
    /// chunk each time).
    @discardableResult
    private func frameHeldInput() -> Bool {
        let held = heldInput, start = heldStart
        heldInput = []
        heldStart = 0
        let pausedAgain = held.withUnsafeBytes { frameLines(of: UnsafeRawBufferPointer(rebasing: $0[start...])) }
        if pausedAgain, start + framer.stoppedAt < held.count {
            heldInput = held
            heldStart = start + framer.stoppedAt
        }
        notePartialLine()
        return pausedAgain
    }

    /// Hands `chunk`'s complete lines over; true if reading was paused before the end of the
    /// chunk, whose rest (from `framer.stoppedAt`) must then be held.
    private func frameLines(of chunk: UnsafeRawBufferPointer) -> Bool {
        let outcome = framer.feed(chunk) { [unowned self] line in
            guard let delegate = self.delegate, self.acceptsLines || self.isDraining else { return false }
            return delegate.connection(self, didReceiveLine: line)
        }
        switch outcome {
        case .tooLarge:
            stopReading()
            delegate?.connectionDidExceedLineLength(self)
            return false
        case .stopped where isOpen && acceptsLines && !isReading:
            return true
        case .stopped, .consumed:
            return false
        }
    }

    /// Input read but not framed because reading was paused (at most one read chunk); framing
    /// resumes at `heldStart`.
    private var heldInput: [UInt8] = []
    private var heldStart = 0

    /// True while `drainPendingInput()` frames input the daemon read during a stop.
    public private(set) var isDraining = false

    /// Reads, without blocking and after `stopReading()`, what the peer had already sent when
    /// the daemon began to stop, so a request written before SIGTERM is still answered.
    /// Reads at most what the kernel holds now (FIONREAD): a peer cannot prolong the stop.
    public func drainPendingInput() {
        guard isOpen, !isReading, !framer.isBroken else { return }
        if !heldInput.isEmpty {
            isDraining = true
            frameHeldInput()
            isDraining = false
        }
        var fd: uv_os_fd_t = -1
        guard uv_fileno(asHandle(pipe), &fd) == 0 else { return }
        var pending: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &pending) == 0, pending > 0 else { return }
        isDraining = true
        defer { isDraining = false }
        var budget = Int(pending)
        while budget > 0, isOpen, !framer.isBroken {
            let count = UnixStream.receiveWithoutWaiting(
                fd, into: UnsafeMutableRawBufferPointer(rebasing: readBuffer[..<min(budget, readBuffer.count)]))
            guard count > 0 else { break }
            budget -= count
            frame(count)
        }
    }

    /// Writes `bytes` now: synchronously as far as the socket takes them, the rest with one
    /// `uv_write` whose buffer is freed when it completes.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard isOpen, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var offset = 0
        if queuedBytes == 0 {
            var buffer = uv_buf_init(
                UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self),
                UInt32(bytes.count))
            let written = uv_try_write(asStream(pipe), &buffer, 1)
            if written > 0 { offset = Int(written) }
        }
        bytesWritten += offset
        guard offset < bytes.count else { return }
        let remaining = bytes.count - offset
        let storage = malloc(remaining)!
        storage.copyMemory(from: base + offset, byteCount: remaining)
        let request = allocateUV(uv_write_t.self)
        request.pointee.data = storage
        var buffer = uv_buf_init(storage.assumingMemoryBound(to: CChar.self), UInt32(remaining))
        let status = uv_write(request, asStream(pipe), &buffer, 1) { request, status in
            free(request!.pointee.data)
            let handle = request!.pointee.handle
            free(request)
            guard let handle, let connection = owner(of: asHandle(handle), as: Connection.self) else { return }
            connection.didWrite(status: status)
        }
        if status != 0 {
            free(storage)
            free(request)
            close(reason: "write failed: \(uvErrorMessage(status))")
        } else {
            bytesWritten += remaining
        }
    }

    private func didWrite(status: Int32) {
        guard status == 0 else {
            if status != UV_ECANCELED.rawValue { close(reason: "write failed: \(uvErrorMessage(status))") }
            return
        }
        delegate?.connectionDidWrite(self)
        if isOpen, queuedBytes == 0 { delegate?.connectionDidDrain(self) }
    }

    /// Stops reading and closes once every queued byte is written (used after a final error).
    public func closeAfterWrites(reason: String) {
        guard isOpen else { return }
        stopReading()
        let request = allocateUV(uv_shutdown_t.self)
        let status = uv_shutdown(request, asStream(pipe)) { request, _ in
            let handle = request!.pointee.handle
            free(request)
            guard let handle, let connection = owner(of: asHandle(handle), as: Connection.self) else { return }
            connection.close(reason: connection.pendingCloseReason ?? "closed")
        }
        if status != 0 {
            free(request)
            close(reason: reason)
        } else {
            pendingCloseReason = reason
        }
    }

    private var pendingCloseReason: String?

    /// Output still queued when the connection closed (dropped with it).
    public private(set) var droppedOutputBytes = 0

    /// Closes now, dropping queued output; reports `connectionDidClose` once.
    public func close(reason: String) {
        guard isOpen else { return }
        droppedOutputBytes = queuedBytes
        isOpen = false
        isReading = false
        acceptsLines = false
        heldInput = []
        heldStart = 0
        closeAndFree(pipe)
        delegate?.connectionDidClose(self, reason: reason)
    }
}
