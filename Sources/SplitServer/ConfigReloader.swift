import Foundation
import SplitLoop
import SplitSettings

/// Reloads the configuration on SIGHUP: the (async) loading runs off the loop, the result is
/// applied on it.
public final class ConfigReloader: Sendable {
    private let load: @Sendable () async throws -> ServerSettings
    private let box = MailboxBox()

    /// `load` re-reads every layer (file, environment, the original flags).
    public init(load: @escaping @Sendable () async throws -> ServerSettings) {
        self.load = load
    }

    public func connect(
        loop: EventLoop,
        apply: @escaping (Result<ServerSettings, any Error>) -> Void
    ) -> LoopMailbox {
        let mailbox = LoopMailbox(loop: loop)
        box.set(mailbox, apply: UncheckedApply(apply: apply))
        return mailbox
    }

    public func reload() {
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
