import CLibUV
import Foundation

/// Hands values from any thread to the loop thread (uv_async): `post` is thread-safe, the
/// receiver runs on the loop thread.
final class LoopMailbox: @unchecked Sendable {
    // @unchecked: `queue` is guarded by `lock`; `handle` is only closed on the loop thread,
    // and uv_async_send is documented as safe from any thread.
    private let handle: UnsafeMutablePointer<uv_async_t>
    private let lock = NSLock()
    private var queue: [@Sendable () -> Void] = []
    private var isOpen = true

    init(loop: UnsafeMutablePointer<uv_loop_t>) {
        handle = allocateUV(uv_async_t.self)
        uv_async_init(loop, handle) { handle in
            owner(of: asHandle(handle!), as: LoopMailbox.self)?.drain()
        }
        attach(self, to: handle)
        // Waiting for mail alone must not keep a stopping daemon alive.
        uv_unref(asHandle(handle))
    }

    /// Runs `work` on the loop thread soon. Safe from any thread.
    func post(_ work: @escaping @Sendable () -> Void) {
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
    func keepsLoopAlive(_ keep: Bool) {
        if keep { uv_ref(asHandle(handle)) } else { uv_unref(asHandle(handle)) }
    }

    func close() {
        lock.lock()
        isOpen = false
        lock.unlock()
        closeAndFree(handle)
    }
}

/// Reloads the configuration on SIGHUP: the (async) loading runs off the loop, the result is
/// applied on it.
public final class ConfigReloader: Sendable {
    private let load: @Sendable () async throws -> ServerSettings
    private let box = MailboxBox()

    /// `load` re-reads every layer (file, environment, the original flags).
    public init(load: @escaping @Sendable () async throws -> ServerSettings) {
        self.load = load
    }

    func connect(loop: UnsafeMutablePointer<uv_loop_t>,
                 apply: @escaping (Result<ServerSettings, any Error>) -> Void) -> LoopMailbox {
        let mailbox = LoopMailbox(loop: loop)
        box.set(mailbox, apply: UncheckedApply(apply: apply))
        return mailbox
    }

    func reload() {
        let load = self.load
        let box = self.box
        Task.detached {
            let result: Result<ServerSettings, any Error>
            do { result = .success(try await load()) } catch { result = .failure(error) }
            box.deliver(result)
        }
    }
}

/// The loop-side receiver of a reload, reachable from the loading task.
private final class MailboxBox: @unchecked Sendable {
    // @unchecked: set once on the loop thread before any reload; read under `lock`.
    private let lock = NSLock()
    private var mailbox: LoopMailbox?
    private var apply: UncheckedApply?

    func set(_ mailbox: LoopMailbox, apply: UncheckedApply) {
        lock.lock()
        self.mailbox = mailbox
        self.apply = apply
        lock.unlock()
    }

    func deliver(_ result: Result<ServerSettings, any Error>) {
        lock.lock()
        let mailbox = self.mailbox
        let apply = self.apply
        lock.unlock()
        guard let mailbox, let apply else { return }
        let sendable = UncheckedResult(result: result)
        mailbox.post { apply.apply(sendable.result) }
    }
}

/// The apply closure touches loop state; it is only ever called on the loop thread.
private struct UncheckedApply: @unchecked Sendable {
    let apply: (Result<ServerSettings, any Error>) -> Void
}

private struct UncheckedResult: @unchecked Sendable {
    let result: Result<ServerSettings, any Error>
}
