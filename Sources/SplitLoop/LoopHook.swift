import CLibUV
import Glibc

/// A closure the loop calls at a fixed point of every turn while the hook is started
/// (`uv_prepare`, `uv_check`, `uv_idle`). Loop thread only.
public final class LoopHook {
    public enum Phase {
        /// Right before the loop polls for I/O (and may sleep in it).
        case prepare
        /// Right after the poll: what the turn's reads staged is complete.
        case check
        /// Before `prepare`; while an idle hook is started, the poll does not sleep.
        case idle
    }

    public let phase: Phase
    /// Called each turn; nil: the hook only keeps an idle loop from sleeping. Set before
    /// `start()`: the closure is stored once, never made per turn.
    public var action: (() -> Void)?
    private let handle: UnsafeMutablePointer<uv_handle_t>
    private var isOpen = true

    public init(loop: EventLoop, phase: Phase, action: (() -> Void)? = nil) {
        self.phase = phase
        self.action = action
        switch phase {
        case .prepare:
            let prepare = allocateUV(uv_prepare_t.self)
            uv_prepare_init(loop.pointer, prepare)
            handle = asHandle(prepare)
        case .check:
            let check = allocateUV(uv_check_t.self)
            uv_check_init(loop.pointer, check)
            handle = asHandle(check)
        case .idle:
            let idle = allocateUV(uv_idle_t.self)
            uv_idle_init(loop.pointer, idle)
            handle = asHandle(idle)
        }
        attach(self, to: handle)
    }

    /// Calls `action` from the next turn on; starting a started hook changes nothing.
    public func start() {
        guard isOpen else { return }
        let raw = UnsafeMutableRawPointer(handle)
        switch phase {
        case .prepare:
            uv_prepare_start(raw.assumingMemoryBound(to: uv_prepare_t.self)) { handle in
                owner(of: asHandle(handle!), as: LoopHook.self)?.action?()
            }
        case .check:
            uv_check_start(raw.assumingMemoryBound(to: uv_check_t.self)) { handle in
                owner(of: asHandle(handle!), as: LoopHook.self)?.action?()
            }
        case .idle where action == nil:
            uv_idle_start(raw.assumingMemoryBound(to: uv_idle_t.self)) { _ in }
        case .idle:
            uv_idle_start(raw.assumingMemoryBound(to: uv_idle_t.self)) { handle in
                owner(of: asHandle(handle!), as: LoopHook.self)?.action?()
            }
        }
    }

    public func stop() {
        guard isOpen else { return }
        let raw = UnsafeMutableRawPointer(handle)
        switch phase {
        case .prepare: uv_prepare_stop(raw.assumingMemoryBound(to: uv_prepare_t.self))
        case .check: uv_check_stop(raw.assumingMemoryBound(to: uv_check_t.self))
        case .idle: uv_idle_stop(raw.assumingMemoryBound(to: uv_idle_t.self))
        }
    }

    /// Keeps the loop from running on for this hook alone (a stopping daemon exits anyway).
    public func unref() {
        guard isOpen else { return }
        uv_unref(handle)
    }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        closeAndFree(handle)
    }
}
