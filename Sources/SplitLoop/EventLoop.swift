import CLibUV
import CLinuxShims
import Glibc

/// The libuv loop a daemon runs on: created, run and closed by its owner, passed by value to
/// everything that opens a handle on it (a copy names the same loop). Loop thread only.
public struct EventLoop {
    @usableFromInline let pointer: UnsafeMutablePointer<uv_loop_t>

    public init() throws(SystemError) {
        pointer = allocateUV(uv_loop_t.self)
        let status = uv_loop_init(pointer)
        guard status == 0 else {
            free(pointer)
            throw .uv(status, "cannot create the event loop")
        }
    }

    /// The loop's clock in milliseconds, as of the start of the current turn (`uv_now`).
    @inlinable
    public var now: UInt64 { uv_now(pointer) }

    /// Runs until no active, referenced handle is left or `stop()` was called.
    public func run() {
        uv_run(pointer, UV_RUN_DEFAULT)
    }

    /// One turn that does not wait for I/O: runs the close callbacks of handles closed since
    /// the last turn, among what else is due.
    public func runOnce() {
        uv_run(pointer, UV_RUN_NOWAIT)
    }

    /// Makes `run()` return after the current turn.
    public func stop() {
        uv_stop(pointer)
    }

    /// Whether the next poll would return at once: one of the loop's descriptors is ready.
    /// libuv's epoll is level-triggered, so looking consumes no event (`uv_backend_fd`
    /// exists for polling the loop from outside).
    public var hasReadyDescriptors: Bool {
        var ready = splitd_epoll_ready()
        return splitd_epoll_wait(uv_backend_fd(pointer), &ready, 1, 0) != 0
    }

    /// Closes and frees the loop; false (and the loop left allocated) while a handle is still
    /// open, which a `runOnce()` after closing every handle avoids.
    @discardableResult
    public func close() -> Bool {
        guard uv_loop_close(pointer) == 0 else { return false }
        free(pointer)
        return true
    }
}

/// A monotonic clock in nanoseconds (`uv_hrtime`), readable from any thread: for durations.
public enum MonotonicClock {
    @inlinable
    public static func nanoseconds() -> UInt64 { uv_hrtime() }
}
