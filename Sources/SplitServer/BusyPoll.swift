import SplitLoop

// Busy polling: after a turn that did work, the loop keeps polling its sockets (epoll with a
// zero timeout) for `settings.busyPollMicroseconds` instead of going to sleep. A client that
// sends its next request within that window (a request-reply exchange, a script, a drag
// whose client answers each layout) is read without waking a sleeping thread: a wake-up
// costs latency and as much CPU (on a VM, the halted vCPU's exit and re-entry).
// It costs at most the window's CPU per turn and nothing once the daemon is idle. Never
// while a flush is in flight: the flush thread shares the core (the daemon is often pinned
// to one) and would wait for the poller.
extension Server {
    /// Called when a turn's replies went out: poll for the next request for a while.
    func busyPollAfterWork() {
        let window = settings.busyPollMicroseconds
        guard window > 0, !committer.holdsTurns, phase == .running else {
            stopBusyPoll()
            return
        }
        busyPollDeadline = MonotonicClock.nanoseconds() + window * 1000
        guard !busyPolling else { return }
        busyPolling = true
        busyPollHook.start()
    }

    /// Each loop turn while polling: stops once the window is over or a flush is in flight.
    func continueBusyPoll() {
        if MonotonicClock.nanoseconds() >= busyPollDeadline || committer.holdsTurns { stopBusyPoll() }
    }

    /// A line was read: the first of a turn found by polling (not by a wake-up) is counted.
    func noteLineRead() {
        guard busyPolling, !busyPolledTurnCounted else { return }
        busyPolledTurnCounted = true
        stats.busyPolledTurns += 1
    }

    func stopBusyPoll() {
        guard busyPolling else { return }
        busyPolling = false
        busyPollHook.stop()
    }
}
