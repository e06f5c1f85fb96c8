import Foundation
import Logging
import SplitLoop
import SplitStore
import SplitWire
@testable import SplitServer

import Testing

/// A flush that takes `milliseconds` (a slow disk) and counts the flushes that completed.
final class SleepingFlush: DurableFlush, @unchecked Sendable {
    private let lock = NSLock()
    private var completed = 0
    let milliseconds: UInt32

    init(milliseconds: UInt32) { self.milliseconds = milliseconds }

    var flushes: Int { lock.withLock { completed } }

    func flush() throws(StoreError) {
        usleep(milliseconds * 1000)
        lock.withLock { completed += 1 }
    }
}

/// A flush that takes the next of `milliseconds` each time (0 once they are used up).
final class ScriptedFlush: DurableFlush, @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: [UInt32]

    init(milliseconds: [UInt32]) { remaining = milliseconds }

    func flush() throws(StoreError) {
        let next = lock.withLock { remaining.isEmpty ? 0 : remaining.removeFirst() }
        if next > 0 { usleep(next * 1000) }
    }
}

/// Keeps every message logged through it.
final class CapturingLogStore: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [(Logger.Level, String)] = []

    var messages: [(level: Logger.Level, text: String)] { lock.withLock { captured.map { ($0.0, $0.1) } } }

    func append(_ level: Logger.Level, _ text: String) { lock.withLock { captured.append((level, text)) } }
}

struct CapturingLogHandler: LogHandler {
    let store: CapturingLogStore
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(event.level, event.message.description)
    }
}

/// What the WAL flushes took, as `stats` reports it (`walFlushes`, `slowWALFlushes`,
/// `longestWALFlushMicroseconds`), and the warning a slow one logs: every reply of a turn
/// waits for its flush, so a slow disk must show.
@Suite("Flush timings", .serialized)
struct FlushTimingTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]

    private struct FlushStats {
        var flushes: Int, slow: Int, longestMicroseconds: Int
        var totalMicroseconds: Int, p50Microseconds: Int, p99Microseconds: Int
    }

    private func flushStats(_ client: TestClient) throws -> FlushStats {
        let reply = try client.request(["op": "stats"])
        return FlushStats(
            flushes: reply["walFlushes"]?.int ?? -1, slow: reply["slowWALFlushes"]?.int ?? -1,
            longestMicroseconds: reply["longestWALFlushMicroseconds"]?.int ?? -1,
            totalMicroseconds: reply["walFlushMicroseconds"]?.int ?? -1,
            p50Microseconds: reply["walFlushP50Microseconds"]?.int ?? -1,
            p99Microseconds: reply["walFlushP99Microseconds"]?.int ?? -1)
    }

    /// A daemon whose store defers its flush to `flush` (full durability).
    private func startDaemon(flushingWith flush: any DurableFlush) throws -> TestDaemon {
        let store = MemorySceneStore()
        store.deferredFlush = flush
        return try TestDaemon(store: store) { $0.checkpointSweepMilliseconds = 0 }
    }

    @Test("stats count every flush, inline and on the thread, and none is slow on a fast disk")
    func everyFlushIsCounted() throws {
        let flush = CountingFlush()
        let daemon = try startDaemon(flushingWith: flush)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        // Ten pipelined resizes: a turn of ten operations, flushed by the thread.
        let lines = (0..<10).map {
            #"{"id":\#(100 + $0),"op":"resize","scene":"s","width":\#($0 % 2 == 0 ? 400 : 1366),"height":1024}"#
        }
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        for _ in 0..<10 { #expect(try client.readMessage()["ok"]?.bool == true) }
        let stats = try flushStats(client)
        #expect(stats.flushes == flush.flushes)
        #expect(stats.flushes >= 2, "the creation's flush (inline) and the resizes' (on the thread)")
        #expect(stats.slow == 0)
        #expect(stats.longestMicroseconds >= 0)
    }

    @Test("a flush over 50 ms counts as slow, and its time is the longest")
    func slowFlushIsReported() throws {
        let flush = SleepingFlush(milliseconds: 60)
        let daemon = try startDaemon(flushingWith: flush)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        let stats = try flushStats(client)
        #expect(stats.flushes == flush.flushes)
        #expect(stats.slow == stats.flushes)
        #expect(stats.longestMicroseconds >= 60_000)
        // Every flush slept 60 ms: the percentiles are 60 ms to two digits, the total all of them.
        #expect((59_000...150_000).contains(stats.p50Microseconds), "p50 \(stats.p50Microseconds) µs")
        #expect(stats.p99Microseconds >= stats.p50Microseconds)
        #expect(stats.p99Microseconds <= stats.longestMicroseconds + stats.longestMicroseconds / 50)
        #expect(stats.totalMicroseconds >= 60_000 * stats.flushes)
    }

    @Test("the percentiles of the flush times: a fast majority, a slow tail")
    func flushPercentiles() throws {
        let loop = try EventLoop()
        let logger = Logger(label: "splitd.test") { _ in SwiftLogNoOpLogHandler() }
        // 20 flushes that return at once, then 3 that take 20 ms.
        let flush = ScriptedFlush(milliseconds: Array(repeating: 0, count: 20) + [20, 20, 20])
        let thread = FlushThread(flush: flush, loop: loop, logger: logger) { _, _ in }
        #expect(thread.statistics.microseconds(atPercentile: 50) == 0, "no flush yet")
        for _ in 0..<23 { try thread.flushInline() }
        let timings = thread.statistics
        thread.stop()
        loop.run()
        #expect(loop.close())
        #expect(timings.flushes == 23)
        #expect(timings.microseconds(atPercentile: 50) < 1_000, "the median flush is a fast one")
        #expect(timings.microseconds(atPercentile: 99) >= 19_000, "the tail is a slow one")
        #expect(timings.totalNanoseconds >= 60_000_000)
        #expect(timings.totalNanoseconds >= timings.longestNanoseconds)
    }

    @Test("slow flushes warn once per interval, not once per flush")
    func slowFlushWarnsOnce() throws {
        let loop = try EventLoop()
        let log = CapturingLogStore()
        let logger = Logger(label: "splitd.test") { _ in CapturingLogHandler(store: log) }
        let thread = FlushThread(flush: SleepingFlush(milliseconds: 55), loop: loop, logger: logger) { _, _ in }
        try thread.flushInline()
        try thread.flushInline()
        try thread.flushInline()
        let timings = thread.statistics
        thread.stop()
        loop.run()
        #expect(loop.close())
        #expect(timings.flushes == 3)
        #expect(timings.slowFlushes == 3)
        #expect(timings.longestNanoseconds >= 55_000_000)
        let warnings = log.messages.filter { $0.level == .warning && $0.text.contains("flushing the WAL") }
        #expect(warnings.count == 1, "three slow flushes within 10 s: one warning")
        #expect(warnings.first?.text.contains("the disk under the database is slow") == true)
    }
}
