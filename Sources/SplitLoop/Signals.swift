import CLibUV
import Glibc

/// Delivers POSIX signals on the loop thread (uv_signal), so a handler may touch loop state:
/// SIGTERM/SIGINT start a graceful stop, SIGHUP reloads the configuration.
public final class SignalWatcher {
    private var handles: [UnsafeMutablePointer<uv_signal_t>] = []
    private let onSignal: (Int32) -> Void

    public init(
        loop: EventLoop, signals: [Int32], onSignal: @escaping (Int32) -> Void
    ) throws(SystemError) {
        self.onSignal = onSignal
        // A peer that hangs up mid-write must cost an error code, not the process.
        signal(SIGPIPE, SIG_IGN)
        for number in signals {
            let handle = allocateUV(uv_signal_t.self)
            uv_signal_init(loop.pointer, handle)
            attach(self, to: handle)
            let status = uv_signal_start(
                handle,
                { handle, number in
                    guard let watcher = owner(of: asHandle(handle!), as: SignalWatcher.self) else { return }
                    watcher.onSignal(number)
                }, number)
            guard status == 0 else {
                closeAndFree(handle)
                close()
                throw .uv(status, "cannot watch signal \(number)")
            }
            handles.append(handle)
        }
    }

    public func close() {
        handles.forEach { closeAndFree($0) }
        handles = []
    }

    public static func name(of number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}

/// A repeating (or one-shot) uv timer calling a closure on the loop thread.
public final class LoopTimer {
    private let handle: UnsafeMutablePointer<uv_timer_t>
    private let action: () -> Void
    private var isOpen = true

    public init(loop: EventLoop, action: @escaping () -> Void) {
        self.action = action
        handle = allocateUV(uv_timer_t.self)
        uv_timer_init(loop.pointer, handle)
        attach(self, to: handle)
    }

    /// Fires after `delay` ms, then every `interval` ms (0: once).
    public func start(delay: UInt64, interval: UInt64) {
        guard isOpen else { return }
        uv_timer_start(
            handle,
            { handle in
                guard let timer = owner(of: asHandle(handle!), as: LoopTimer.self) else { return }
                timer.action()
            }, delay, interval)
    }

    public func stop() {
        guard isOpen else { return }
        uv_timer_stop(handle)
    }

    /// Keeps the loop from waiting on this timer alone (a stopping daemon exits anyway).
    public func unref() { uv_unref(asHandle(handle)) }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        closeAndFree(handle)
    }
}
