import SplitLoop
import Testing

/// The loop, its hooks and timers, on a real libuv loop driven turn by turn.
@Suite("Event loop")
struct EventLoopTests {
    /// Closes `handles`, runs their close callbacks and closes the loop.
    private func finish(_ loop: EventLoop, closing handles: [() -> Void] = []) {
        handles.forEach { $0() }
        loop.runOnce()
        #expect(loop.close(), "every handle is closed")
    }

    @Test("a hook of each phase runs once per turn while started, and not after stop or close")
    func hookRunsEachTurn() throws {
        for phase in [LoopHook.Phase.prepare, .check, .idle] {
            let loop = try EventLoop()
            var calls = 0
            let hook = LoopHook(loop: loop, phase: phase) { calls += 1 }
            loop.runOnce()
            #expect(calls == 0, "\(phase): not started yet")
            hook.start()
            hook.start()
            for _ in 0..<3 { loop.runOnce() }
            #expect(calls == 3, "\(phase): once per turn, however often started")
            hook.stop()
            loop.runOnce()
            #expect(calls == 3, "\(phase): stopped")
            hook.close()
            hook.start()
            loop.runOnce()
            #expect(calls == 3, "\(phase): closed")
            #expect(loop.close())
        }
    }

    @Test("in one turn idle hooks run first, then prepare (before the poll), then check (after it)")
    func phasesInTurnOrder() throws {
        let loop = try EventLoop()
        var order: [String] = []
        let check = LoopHook(loop: loop, phase: .check) { order.append("check") }
        let prepare = LoopHook(loop: loop, phase: .prepare) { order.append("prepare") }
        let idle = LoopHook(loop: loop, phase: .idle) { order.append("idle") }
        [check, prepare, idle].forEach { $0.start() }
        loop.runOnce()
        #expect(order == ["idle", "prepare", "check"])
        finish(loop, closing: [check.close, prepare.close, idle.close])
    }

    @Test("an unreferenced hook does not keep the loop running")
    func unreferencedHookLetsTheLoopEnd() throws {
        let loop = try EventLoop()
        var calls = 0
        let hook = LoopHook(loop: loop, phase: .check) { calls += 1 }
        hook.start()
        hook.unref()
        loop.run()
        #expect(calls == 0, "run returned at once: nothing referenced was active")
        finish(loop, closing: [hook.close])
    }

    @Test("an idle hook without an action keeps the loop turning until stopped")
    func idleHookWithoutActionKeepsTheLoopTurning() throws {
        let loop = try EventLoop()
        let idle = LoopHook(loop: loop, phase: .idle)
        var turns = 0
        let check = LoopHook(loop: loop, phase: .check)
        check.action = {
            turns += 1
            if turns == 5 { idle.stop() }
        }
        check.start()
        check.unref()
        idle.start()
        loop.run()
        #expect(turns == 5)
        finish(loop, closing: [idle.close, check.close])
    }

    @Test("a one-shot timer fires once, no earlier than its delay on the loop's clock")
    func oneShotTimerFiresOnce() throws {
        let loop = try EventLoop()
        var fired = 0
        var firedAt: UInt64 = 0
        let timer = LoopTimer(loop: loop) {
            fired += 1
            firedAt = loop.now
        }
        let start = loop.now
        timer.start(delay: 3, interval: 0)
        loop.run()
        #expect(fired == 1, "run returned once the timer had nothing more to do")
        #expect(firedAt >= start + 3)
        loop.run()
        #expect(fired == 1)
        finish(loop, closing: [timer.close])
    }

    @Test("a repeating timer fires until stopped")
    func repeatingTimerFiresUntilStopped() throws {
        let loop = try EventLoop()
        var fired = 0
        var timer: LoopTimer?
        timer = LoopTimer(loop: loop) {
            fired += 1
            if fired == 4 { timer?.stop() }
        }
        timer?.start(delay: 0, interval: 1)
        loop.run()
        #expect(fired == 4)
        finish(loop, closing: [timer!.close])
        timer = nil
    }

    @Test("stop makes run return after the current turn, with handles still active")
    func stopEndsRun() throws {
        let loop = try EventLoop()
        var turns = 0
        let idle = LoopHook(loop: loop, phase: .idle) {
            turns += 1
            if turns == 2 { loop.stop() }
        }
        idle.start()
        loop.run()
        #expect(turns == 2)
        finish(loop, closing: [idle.close])
    }

    @Test("the loop does not close while a handle is open")
    func closeWaitsForHandles() throws {
        let loop = try EventLoop()
        let timer = LoopTimer(loop: loop) {}
        #expect(!loop.close(), "the timer is still open")
        finish(loop, closing: [timer.close])
    }

    @Test("a descriptor with an event is seen as ready without consuming it")
    func readyDescriptors() throws {
        let loop = try EventLoop()
        let received = Received()
        let mailbox = LoopMailbox(loop: loop)
        mailbox.keepsLoopAlive(true)
        // The first turn registers the mailbox's descriptor with the loop's poll.
        loop.runOnce()
        #expect(!loop.hasReadyDescriptors)
        mailbox.post { received.count += 1 }
        #expect(loop.hasReadyDescriptors)
        #expect(loop.hasReadyDescriptors, "looking did not consume the event")
        #expect(received.count == 0)
        loop.runOnce()
        #expect(received.count == 1)
        #expect(!loop.hasReadyDescriptors)
        finish(loop, closing: [mailbox.close])
    }
}

/// What the mailbox delivered; touched on the test's thread only (the loop runs on it).
private final class Received: @unchecked Sendable {
    var count = 0
}
