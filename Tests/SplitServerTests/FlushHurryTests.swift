import Foundation
import Logging
import SplitLoop
@testable import SplitServer

import Testing

/// `FlushThread.hurry(through:)`: the loop, about to sleep with nothing to read, tells a flush
/// waiting for company to go; said for a generation, so a newer flush waits as usual.
@Suite("Flush hurry", .serialized)
struct FlushHurryTests {
    /// A thread whose delay no test waits out and whose count no test reaches.
    private func withWaitingThread(_ body: (FlushThread, CountingFlush) throws -> Void) throws {
        let loop = try EventLoop()
        let logger = Logger(label: "splitd.test") { _ in SwiftLogNoOpLogHandler() }
        let flush = CountingFlush()
        let thread = FlushThread(
            flush: flush, loop: loop, logger: logger,
            delay: .init(microseconds: 60_000_000, unlessWaiting: 1000)
        ) { _, _ in }
        defer {
            thread.stop()
            loop.run()
            #expect(loop.close())
        }
        // The first flush has no previous one to wait after.
        thread.request(1)
        #expect(waitFor { flush.flushes == 1 }, "the first flush goes at once")
        try body(thread, flush)
    }

    /// Polls `condition` for up to 5 s.
    private func waitFor(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    @Test("a waiting flush goes when the loop hurries its generation")
    func hurryStartsTheWaitingFlush() throws {
        try withWaitingThread { thread, flush in
            thread.request(2, operations: 3)
            usleep(200_000)
            #expect(flush.flushes == 1, "the second flush waits for company")
            #expect(!thread.hasStarted(2))
            thread.hurry(through: 2)
            #expect(waitFor { flush.flushes == 2 }, "hurried, it goes")
            #expect(thread.hasStarted(2))
        }
    }

    @Test("a hurry for an older generation does not cut a newer flush's wait")
    func staleHurryDoesNotCarryOver() throws {
        try withWaitingThread { thread, flush in
            thread.request(2)
            thread.hurry(through: 2)
            #expect(waitFor { flush.flushes == 2 })
            // The loop read more (a newer generation) after it hurried the older one.
            thread.request(3)
            thread.hurry(through: 2)
            usleep(200_000)
            #expect(flush.flushes == 2, "generation 3 still waits for company")
            #expect(!thread.hasStarted(3))
            thread.hurry(through: 3)
            #expect(waitFor { flush.flushes == 3 })
        }
    }

    @Test("a hurry said before the thread starts waiting still counts")
    func hurryBeforeTheWait() throws {
        try withWaitingThread { thread, flush in
            // The loop may look (and find nothing to read) before the thread, woken by the
            // request, has begun to wait: the word is kept for the generation.
            thread.hurry(through: 2)
            thread.request(2)
            #expect(waitFor { flush.flushes == 2 })
        }
    }
}
