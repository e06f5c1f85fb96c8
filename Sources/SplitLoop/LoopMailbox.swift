import CLibUV
import Foundation

/// Hands values from any thread to the loop thread (uv_async): `post` is thread-safe, the
/// receiver runs on the loop thread.
public final class LoopMailbox: @unchecked Sendable {
    // @unchecked: `queue` is guarded by `lock`; `handle` is only closed on the loop thread,
    // and uv_async_send is documented as safe from any thread.
    private let handle: UnsafeMutablePointer<uv_async_t>
    private let lock = NSLock()
    private var queue: [@Sendable () -> Void] = []
    private var isOpen = true

    public init(loop: EventLoop) {
        handle = allocateUV(uv_async_t.self)
        uv_async_init(loop.pointer, handle) { handle in
            owner(of: asHandle(handle!), as: LoopMailbox.self)?.drain()
        }
        attach(self, to: handle)
        // Waiting for mail alone must not keep a stopping daemon alive.
        uv_unref(asHandle(handle))
    }

    /// Runs `work` on the loop thread soon. Safe from any thread.
    public func post(_ work: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return }
        queue.append(work)
        uv_async_send(handle)
    }

    private func drain() {
        lock.lock()
        let work = queue
        queue.removeAll()
        lock.unlock()
        work.forEach { $0() }
    }

    /// Whether mail still to come keeps the loop running (loop thread only): a graceful stop
    /// must wait for a flush in flight even when no client is being read.
    public func keepsLoopAlive(_ keep: Bool) {
        if keep { uv_ref(asHandle(handle)) } else { uv_unref(asHandle(handle)) }
    }

    public func close() {
        lock.lock()
        isOpen = false
        lock.unlock()
        closeAndFree(handle)
    }
}
