import SplitLoop

// A flush waiting for company (the group-commit delay, `FlushThread.Delay`) starts as soon
// as the loop is about to sleep with nothing to read: until the loop wakes, no request can
// join it, and waiting would only add to its replies' latency. The delay then only holds a
// flush back while the loop is still busy with requests that may join it. A client
// pipelining fewer changes than `database.flushDelayCount`, with nothing more to send until
// its answers come, would otherwise wait out the whole delay for every flush.
extension Server {
    func startIdleFlushProbe() {
        guard settings.hurriesIdleFlushes, let flushThread, flushThread.delays else { return }
        // The probe alone must not keep a stopping loop alive.
        idleFlushHook.unref()
        idleFlushHook.action = { [unowned self] in self.hurryFlushIfNothingToRead() }
        idleFlushHook.start()
    }

    /// Before the loop polls: the newest flush asked for, if it has not started, goes now
    /// when nothing waits to be read. A look that found something is made again before the
    /// next poll, until the flush starts or the loop runs out of requests.
    private func hurryFlushIfNothingToRead() {
        let newest = committer.flushesRequested
        guard newest > hurriedFlush, let flushThread, !flushThread.hasStarted(newest),
            !loop.hasReadyDescriptors
        else { return }
        hurriedFlush = newest
        flushThread.hurry(through: newest)
        stats.idleFlushStarts += 1
    }
}
