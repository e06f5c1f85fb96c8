import Foundation
import SplitLoop

/// Lets an embedding program (tests, benchmarks) wait for a daemon running on another thread
/// to be ready and stop it gracefully, as SIGTERM would.
public final class DaemonControl: @unchecked Sendable {
    // @unchecked: every field is guarded by `condition`.
    private let condition = NSCondition()
    private var mailbox: LoopMailbox?
    private var stopRequest: (@Sendable () -> Void)?
    private var isReady = false
    private var isFinished = false

    public init() {}

    /// Blocks until the daemon listens (true) or `timeout` seconds passed or it ended (false).
    public func waitUntilReady(timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !isReady && !isFinished {
            if !condition.wait(until: deadline) { break }
        }
        return isReady
    }

    /// Starts a graceful stop (what SIGTERM does). Safe from any thread.
    public func stop() {
        condition.lock()
        let mailbox = self.mailbox
        let request = stopRequest
        condition.unlock()
        guard let mailbox, let request else { return }
        mailbox.post(request)
    }

    func attach(mailbox: LoopMailbox, stop: @escaping @Sendable () -> Void) {
        condition.lock()
        self.mailbox = mailbox
        stopRequest = stop
        isReady = true
        condition.broadcast()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        isFinished = true
        mailbox = nil
        condition.broadcast()
        condition.unlock()
    }
}
