import Foundation
import Histogram
import Logging
import SplitLoop
import SplitStore
import Synchronization

/// Flushes the WAL (`DurableFlush.flush()`: `WALFlush`, an `fdatasync`) on a thread of its own, so the loop
/// computes and commits the next turns while the disk writes the previous ones (Redis's
/// `appendfsync always` flushes in the loop: one turn's CPU plus its flush, in series).
///
/// The loop asks for generation N after the commit of a turn returned; the thread flushes
/// once for every generation asked before that flush started and reports the highest one on
/// the loop (`onFlushed`), which then answers the turns it covers, in order.
final class FlushThread: @unchecked Sendable {
    // @unchecked: `requested`, `stopping` are guarded by `condition`; `flush` is used by
    // this thread only (the loop flushes inline only while this thread has nothing to do).
    private let flush: any DurableFlush
    private let mailbox: LoopMailbox
    private let condition = NSCondition()
    private var requested = 0
    /// Store operations committed since the current flush started (guarded by `condition`).
    private var operationsWaiting = 0
    /// As the loop last told it (`request`, `setOthersMayJoin`): whether a client sending now
    /// may still join the next flush (`FlushPeers`); if not, the flush does not wait (guarded
    /// by `condition`).
    private var othersMayJoin = true
    /// The highest generation the loop asked to flush without waiting for company (`hurry`;
    /// guarded by `condition`).
    private var hurriedThrough = 0
    /// The highest generation a flush under way or done covers: the loop reads it without
    /// taking the lock.
    private let startedThrough = Atomic<Int>(0)
    /// The highest generation a successful flush covers, stored before the flush is posted
    /// to the loop: the loop may answer its turns before the post arrives (`completed`).
    private let completedThrough = Atomic<Int>(0)
    private var stopping = false
    private let delay: Delay
    /// False once the daemon stops: what is left is flushed without delay.
    private var delaying = true
    private var thread: Thread?
    private let logger: Logger
    /// What the flushes took (guarded by `condition`).
    private var timings = Timings()
    /// At most one slow-flush warning per `slowWarningIntervalNanoseconds` (guarded by `condition`).
    private var slowWarning = RateLimitedWarning(intervalMilliseconds: slowWarningIntervalNanoseconds / 1_000_000)
    private let stopped = NSCondition()
    private var isRunning = false

    /// The nice value the thread asks for. When its fdatasync returns, the thread has a few
    /// microseconds of work, posting the flush to the loop, and every reply the flush covers
    /// waits for it. At the loop's own priority the scheduler lets a busy loop run on first;
    /// at -10 the thread takes the core at once. Raising a priority needs CAP_SYS_NICE or an
    /// RLIMIT_NICE that allows it (systemd/splitd.service: LimitNICE=-10); without either the
    /// thread keeps the default and says so once.
    static let raisedNice: Int32 = -10

    /// Group commit: how long a flush waits after the previous one started, and how many
    /// waiting operations end the wait (`database.flushDelay*`); it never waits when no
    /// client sending now is left to join it (`FlushPeers`). A flush covering a small
    /// turn costs the core as much as one covering a large one (in the thread and the block
    /// layer): in a storm of many windows, a flush per small turn would take the core from
    /// the loop, where any stall leaves a long backlog. docs/PERFORMANCE.md has the figures.
    struct Delay: Sendable {
        var microseconds: Int
        var unlessWaiting: Int

        static let none = Delay(microseconds: 0, unlessWaiting: 1)
    }

    /// How long flushes took: every reply of a turn waits for its flush, so a slow disk shows
    /// here first (`stats`: `walFlushes`, `slowWALFlushes`, `longestWALFlushMicroseconds`,
    /// `walFlushMicroseconds`, `walFlushP50Microseconds`, `walFlushP99Microseconds`).
    struct Timings: Sendable, Equatable {
        var flushes = 0
        /// Flushes that took `slowFlushNanoseconds` or longer.
        var slowFlushes = 0
        var longestNanoseconds: UInt64 = 0
        var totalNanoseconds: UInt64 = 0
        /// Every flush's time in microseconds, to two significant digits (a flush longer than
        /// the top counts as the top, a minute): a fixed ~30 KiB however long the daemon runs.
        var durationsMicroseconds = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: Timings.topMicroseconds,
            numberOfSignificantValueDigits: .two)
        static let topMicroseconds: UInt64 = 60_000_000

        /// The `percentile`th flush time in microseconds, 0 before the first flush.
        func microseconds(atPercentile percentile: Double) -> Int {
            flushes == 0 ? 0 : Int(durationsMicroseconds.valueAtPercentile(percentile))
        }
    }

    /// A flush this long holds every reply of a storm past several frames (Redis warns of a
    /// slow AOF fsync at 2 s; a window drag notices 50 ms).
    static let slowFlushNanoseconds: UInt64 = 50_000_000
    /// At most one slow-flush warning in this time; the next one counts those in between.
    static let slowWarningIntervalNanoseconds: UInt64 = 10_000_000_000

    /// What the flushes took so far, on the thread and inline.
    var statistics: Timings {
        condition.lock()
        defer { condition.unlock() }
        return timings
    }

    /// `onFlushed(generation, error)` runs on the loop thread.
    init(
        flush: any DurableFlush, loop: EventLoop, logger: Logger, delay: Delay = .none,
        onFlushed: @escaping @Sendable (Int, StoreError?) -> Void
    ) {
        self.flush = flush
        self.delay = delay
        self.logger = logger
        mailbox = LoopMailbox(loop: loop)
        // Weak: the thread object is kept by `self`; a strong capture would keep both alive.
        let thread = Thread { [weak self] in
            FlushThread.raisePriority(logger: logger)
            self?.run(onFlushed)
        }
        thread.name = "splitd-flush"
        self.thread = thread
        isRunning = true
        thread.start()
    }

    /// Asks for `raisedNice` for the calling thread (on Linux, `setpriority` with who = 0
    /// sets the calling thread's nice value, not the whole process's).
    private static func raisePriority(logger: Logger) {
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, raisedNice) == 0 {
            logger.debug("flush thread at nice \(raisedNice)")
        } else {
            let reason = String(cString: strerror(errno))
            logger.info(
                "flush thread at the default priority (nice \(raisedNice) refused: \(reason)); allow it with CAP_SYS_NICE or RLIMIT_NICE (systemd: LimitNICE=\(raisedNice)) for steadier durable latency"
            )
        }
    }

    /// Whether the loop must stay up for a flush in flight (loop thread only).
    func keepsLoopAlive(_ keep: Bool) {
        mailbox.keepsLoopAlive(keep)
    }

    /// Asks for a flush covering every commit made so far, as `generation`; the commit wrote
    /// `operations` store operations. `othersMayJoin`: whether waiting for more may pay.
    func request(_ generation: Int, operations: Int = 1, othersMayJoin: Bool = true) {
        condition.lock()
        requested = max(requested, generation)
        operationsWaiting += operations
        self.othersMayJoin = othersMayJoin
        condition.unlock()
        // Signalled after unlocking: the woken thread (nice -10, on the loop's core) takes the
        // core at once, and inside the lock it went straight back to sleep on the mutex, then
        // was woken again by the unlock: two more context switches per flush (a quarter of
        // the daemon's switches at 100 connections x depth 1). It re-checks `requested` under
        // the lock, so nothing is lost.
        condition.signal()
    }

    /// Whether a client sending now may still join the next flush, when it changed without a
    /// new request; a flush waiting for company goes at once when nobody may.
    func setOthersMayJoin(_ othersMayJoin: Bool) {
        condition.lock()
        self.othersMayJoin = othersMayJoin
        condition.unlock()
        if !othersMayJoin { condition.signal() }
    }

    /// Whether a flush covering `generation` has started (loop thread).
    func hasStarted(_ generation: Int) -> Bool { startedThrough.load(ordering: .acquiring) >= generation }

    /// The highest generation flushed without an error so far (any thread).
    var completed: Int { completedThrough.load(ordering: .acquiring) }

    /// Whether a flush may wait for company at all (`Delay`).
    var delays: Bool { delay.microseconds > 0 }

    /// The loop is about to sleep with nothing to read: no commit can join the flush of
    /// `generation` before it wakes, so that flush does not wait for company. Said for a
    /// generation, not as a state: a flush requested after it (the loop was busy again) may
    /// wait as usual.
    func hurry(through generation: Int) {
        condition.lock()
        hurriedThrough = max(hurriedThrough, generation)
        condition.unlock()
        condition.signal()
    }

    /// No more group-commit delays (a graceful stop answers what is held at once).
    func endDelays() {
        condition.lock()
        delaying = false
        condition.signal()
        condition.unlock()
    }

    /// Flushes on the caller's thread (the loop's), for a turn with nothing to overlap.
    /// Only while no generation is outstanding.
    func flushInline() throws(StoreError) {
        let began = MonotonicClock.nanoseconds()
        defer {
            let took = MonotonicClock.nanoseconds() - began
            condition.lock()
            let warning = record(took)
            condition.unlock()
            if let warning { logger.warning("\(warning)") }
        }
        try flush.flush()
    }

    /// Counts a flush that took `nanoseconds`; a slow one is logged, at most once per
    /// `slowWarningIntervalNanoseconds`: the warning to log (after unlocking), if any.
    /// Called with `condition` locked.
    private func record(_ nanoseconds: UInt64) -> String? {
        timings.flushes += 1
        timings.longestNanoseconds = max(timings.longestNanoseconds, nanoseconds)
        timings.totalNanoseconds &+= nanoseconds
        _ = timings.durationsMicroseconds.record(min(max(1, nanoseconds / 1000), Timings.topMicroseconds))
        guard nanoseconds >= Self.slowFlushNanoseconds else { return nil }
        timings.slowFlushes += 1
        guard let others = slowWarning.take(now: MonotonicClock.nanoseconds() / 1_000_000) else { return nil }
        return
            ("flushing the WAL (fdatasync) took \(nanoseconds / 1_000_000) ms\(others > 0 ? " (and \(others) more flushes over \(Self.slowFlushNanoseconds / 1_000_000) ms since the last warning)" : ""); every reply waits for its flush: the disk under the database is slow")
    }

    /// Ends the thread after its current flush and closes the mailbox (on the loop thread).
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        stopped.lock()
        while isRunning { stopped.wait() }
        stopped.unlock()
        thread = nil
        mailbox.close()
    }

    private func run(_ onFlushed: @escaping @Sendable (Int, StoreError?) -> Void) {
        var flushed = 0
        var lastStart = Date.distantPast
        condition.lock()
        while true {
            while requested == flushed && !stopping { condition.wait() }
            if stopping { break }
            if delay.microseconds > 0 {
                let due = lastStart.addingTimeInterval(Double(delay.microseconds) / 1_000_000)
                while delaying && othersMayJoin && hurriedThrough < requested && operationsWaiting < delay.unlessWaiting
                    && !stopping && condition.wait(until: due)
                {}
            }
            let target = requested
            operationsWaiting = 0
            startedThrough.store(target, ordering: .releasing)
            lastStart = Date()
            condition.unlock()
            let began = MonotonicClock.nanoseconds()
            let failure: StoreError?
            do {
                try flush.flush()
                failure = nil
            } catch {
                failure = error
            }
            let took = MonotonicClock.nanoseconds() - began
            flushed = target
            if failure == nil { completedThrough.store(target, ordering: .releasing) }
            mailbox.post { onFlushed(target, failure) }
            condition.lock()
            if let warning = record(took) {
                condition.unlock()
                logger.warning("\(warning)")
                condition.lock()
            }
        }
        condition.unlock()
        stopped.lock()
        isRunning = false
        stopped.signal()
        stopped.unlock()
    }
}
