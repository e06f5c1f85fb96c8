import Foundation
import Glibc
import SplitStore
import SplitWire
@testable import SplitServer

import Testing

/// A flush that blocks while closed and counts the flushes that completed.
final class GatedFlush: DurableFlush, @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = true
    private var completed = 0
    private var waiting = 0

    var flushes: Int { condition.lock(); defer { condition.unlock() }; return completed }

    func close() { condition.lock(); isOpen = false; condition.unlock() }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func flush() throws(StoreError) {
        condition.lock()
        waiting += 1
        condition.broadcast()
        while !isOpen { condition.wait() }
        waiting -= 1
        completed += 1
        condition.unlock()
    }

    /// Waits until a flush waits at the closed gate: the turn that started it has committed
    /// and is held. The event a test waits for instead of sleeping; false after `seconds`.
    func awaitHeldFlush(within seconds: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while waiting == 0 {
            guard condition.wait(until: deadline) else { return waiting > 0 }
        }
        return true
    }
}

/// With a store that defers its flush (full durability), nothing a turn did is answered
/// before a flush that started after its commit: not its changes, not reads that could see
/// them, not pushes.
@Suite("Deferred flush", .serialized)
struct DeferredFlushTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]

    private func resizeLine(id: Int, width: Int) -> String {
        #"{"id":\#(id),"op":"resize","scene":"s","width":\#(width),"height":1024}"#
    }

    private func startDaemon(_ gate: GatedFlush) throws -> TestDaemon {
        let store = MemorySceneStore()
        store.deferredFlush = gate
        return try TestDaemon(store: store)
    }

    @Test("a single change is answered only after its flush")
    func singleChangeWaitsForFlush() throws {
        let gate = GatedFlush()
        let daemon = try startDaemon(gate)
        defer { gate.open(); daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        let before = gate.flushes
        #expect(before >= 1, "the creation was flushed before it was answered")
        gate.close()
        try client.send(raw: resizeLine(id: 50, width: 400) + "\n")
        #expect(gate.awaitHeldFlush(), "the change reached its flush")
        #expect(try client.readLine(timeout: 300) == nil, "no answer while the flush cannot complete")
        gate.open()
        let reply = try client.readMessage()
        #expect(reply["id"] == 50 && reply["revision"] == 2)
        #expect(gate.flushes > before)
    }

    @Test("a pipelined batch and a read behind it wait for the flush, then arrive in order")
    func heldTurnsArriveInOrder() throws {
        let gate = GatedFlush()
        let daemon = try startDaemon(gate)
        defer { gate.open(); daemon.stop() }
        let writer = try daemon.connect(), reader = try daemon.connect()
        #expect(try writer.request(create).isOK)
        gate.close()
        // Ten changes in one turn go to the flush thread; the turn is held.
        let lines = (1...10).map { resizeLine(id: 100 + $0, width: $0 % 2 == 0 ? 1366 : 400) }
        try writer.send(raw: lines.joined(separator: "\n") + "\n")
        #expect(gate.awaitHeldFlush(), "the turn is held behind its flush")
        // A read in a later turn would show the held changes: it waits behind them.
        try reader.send(raw: #"{"id":7,"op":"scene.get","scene":"s"}"# + "\n")
        #expect(try writer.readLine(timeout: 300) == nil, "no change answered before its flush")
        #expect(try reader.readLine(timeout: 100) == nil, "no read of unflushed state answered")
        gate.open()
        var revisions: [Int] = []
        for _ in 1...10 {
            let reply = try writer.readMessage()
            revisions.append(reply["revision"]?.int ?? -1)
        }
        #expect(revisions == Array(2...11))
        #expect(try reader.readMessage()["revision"] == 11)
    }

    @Test("memory a backlog freed goes back to the system once it is answered")
    func backlogMemoryIsReleased() throws {
        let (gate, daemon, client, watcher) = try startWithScene()
        defer { gate.open(); daemon.stop() }
        for round in 0..<5 {
            #expect(
                try client.request(["op": "resize", "scene": "s", "width": round % 2 == 0 ? 400 : 1366, "height": 1024])
                    .isOK)
        }
        #expect(try watcher.request(["op": "stats"])["freeMemoryReleases"] == 0, "no backlog, nothing released")
        // The disk stalls: a turn waits for its flush, and ten more turns pile up behind it.
        gate.close()
        let lines = (1...10).map { resizeLine(id: 300 + $0, width: $0 % 2 == 0 ? 1366 : 400) }
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        for turn in 1...10 {
            usleep(20_000)
            try client.send(raw: resizeLine(id: 400 + turn, width: turn % 2 == 0 ? 1366 : 400) + "\n")
        }
        usleep(50_000)
        gate.open()
        let ids = try (0..<20).map { _ in try client.readMessage()["id"]?.int ?? -1 }
        #expect(ids == Array(301...310) + Array(401...410))
        #expect(
            try watcher.request(["op": "stats"])["freeMemoryReleases"] == 1, "released once the backlog was answered")
    }

    /// A daemon over a gated flush (open), scene "s" created by the first client, and a
    /// second client.
    private func startWithScene() throws -> (GatedFlush, TestDaemon, TestClient, TestClient) {
        let gate = GatedFlush()
        let daemon = try startDaemon(gate)
        do {
            let client = try daemon.connect(), second = try daemon.connect()
            #expect(try client.request(create).isOK)
            return (gate, daemon, client, second)
        } catch {
            daemon.stop()
            throw error
        }
    }

    /// Resizes of scene "s" with these ids, one line each, alternating the width.
    private func changeLines(_ ids: ClosedRange<Int>) -> String {
        ids.map { resizeLine(id: $0, width: $0 % 2 == 0 ? 1366 : 400) }.joined(separator: "\n") + "\n"
    }

    /// 1000 changes in one write: one turn of ~0.9 MiB of replies (or two), not a backlog
    /// of turns behind a slow flush, so only the turn storage's own rules can free it.
    private func sendBurst(_ client: TestClient) throws {
        let lines = (1...1000).map { resizeLine(id: 1000 + $0, width: $0 % 2 == 0 ? 1366 : 400) }
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        let ids = try (0..<1000).map { _ in try client.readMessage()["id"]?.int ?? -1 }
        #expect(ids == Array(1001...2000))
    }

    @Test("storage a burst's large turn left is handed back when a smaller turn's replaces it")
    func burstTurnStorageIsReleased() throws {
        let (gate, daemon, client, watcher) = try startWithScene()
        defer { gate.open(); daemon.stop() }
        try sendBurst(client)
        var releases = 0
        for _ in 0..<40 where releases == 0 {
            usleep(100_000)
            #expect(try client.request(["op": "resize", "scene": "s", "width": 400, "height": 1024]).isOK)
            releases = try watcher.request(["op": "stats"])["freeMemoryReleases"]?.int ?? -1
        }
        #expect(releases == 1, "the burst's storage was freed and released within 4 s")
    }

    @Test("storage a burst's large turn left, kept for turns that stay small, is freed at the second tick")
    func keptBurstTurnStorageIsTrimmed() throws {
        let (gate, daemon, client, watcher) = try startWithScene()
        defer { gate.open(); daemon.stop() }
        try sendBurst(client)
        // Five changes held behind a stalled flush (too many to flush inline on the loop, which
        // goes on): the next turn collects in the burst's storage, which no other turn replaces
        // while the flush stalls. The housekeeping tick in the burst's second keeps it (twice
        // what that second's turns used); the next one frees it.
        gate.close()
        try client.send(raw: changeLines(3001...3005))
        usleep(2_300_000)
        gate.open()
        #expect(try (0..<5).map { _ in try client.readMessage()["id"]?.int ?? -1 } == Array(3001...3005))
        #expect(
            try watcher.request(["op": "stats"])["freeMemoryReleases"] == 1,
            "freed at a tick, released once nothing was held")
    }

    @Test("storage the turns of every second use is kept, not freed and released")
    func busyTurnStorageIsKept() throws {
        let (gate, daemon, client, watcher) = try startWithScene()
        defer { gate.open(); daemon.stop() }
        // Bursts for 2.5 s: every housekeeping tick sees turns as large as the storage.
        let started = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - started < 2_500_000_000 { try sendBurst(client) }
        #expect(try watcher.request(["op": "stats"])["freeMemoryReleases"] == 0)
    }

    @Test("a read answers held turns whose flush is done, in order, and never before it is")
    func readsAnswerFlushedTurns() throws {
        let (gate, daemon, writer, other) = try startWithScene()
        defer { gate.open(); daemon.stop() }
        #expect(try other.request(["op": "scene.create", "scene": "o", "device": "ipad-pro-12.9"]).isOK)
        // Five changes held behind a flush that cannot finish.
        gate.close()
        try writer.send(raw: changeLines(501...505))
        #expect(gate.awaitHeldFlush(), "the turn is held behind its flush")
        #expect(try writer.readLine(timeout: 300) == nil, "no answer while the flush cannot finish")
        // A thousand lines that take the loop a while, already in its socket when the flush
        // finishes: the loop reads them before the flush thread's post (their socket was ready
        // first), and the first of them answers the writer's turn.
        let lines = (1...1000).map {
            #"{"id":\#($0),"op":"resize","scene":"o","width":\#($0 % 2 == 0 ? 1366 : 400),"height":1024}"#
        }
        try other.send(raw: lines.joined(separator: "\n") + "\n")
        gate.open()
        #expect(try (0..<5).map { _ in try writer.readMessage()["id"]?.int ?? -1 } == Array(501...505))
        #expect(try (0..<1000).map { _ in try other.readMessage()["id"]?.int ?? -1 } == Array(1...1000))
        let stats = try writer.request(["op": "stats"])
        #expect((stats["heldTurnsAnsweredAtRead"]?.int ?? 0) >= 1, "\(stats)")
    }

    @Test("a graceful stop answers held turns before it closes the clients")
    func stopWaitsForHeldTurns() throws {
        let gate = GatedFlush()
        let daemon = try startDaemon(gate)
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        gate.close()
        let lines = (1...8).map { resizeLine(id: 200 + $0, width: $0 % 2 == 0 ? 1366 : 400) }
        try client.send(raw: lines.joined(separator: "\n") + "\n")
        #expect(gate.awaitHeldFlush(), "the turn is held behind its flush")
        daemon.requestStop()
        #expect(try client.readLine(timeout: 200) == nil)
        gate.open()
        var ids: [Int] = []
        while let line = try client.readLine(timeout: 5000) {
            ids.append(try JSONParser.parse(line)["id"]?.int ?? -1)
        }
        daemon.waitUntilFinished()
        #expect(ids == Array(201...208))
    }
}

/// A flush that counts the flushes that completed.
final class CountingFlush: DurableFlush, @unchecked Sendable {
    private let lock = NSLock()
    private var completed = 0
    var flushes: Int { lock.withLock { completed } }
    func flush() throws(StoreError) { lock.withLock { completed += 1 } }
}

/// Group commit (`database.flushDelay*`): a flush waits after the previous one unless enough
/// operations wait, and a graceful stop ends the waiting.
@Suite("Flush delay", .serialized)
struct FlushDelayTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]

    /// Ten pipelined resizes: one turn of ten operations, flushed by the thread.
    private func tenResizes(from id: Int) -> String {
        (0..<10).map {
            #"{"id":\#(id + $0),"op":"resize","scene":"s","width":\#($0 % 2 == 0 ? 400 : 1366),"height":1024}"#
        }
        .joined(separator: "\n") + "\n"
    }

    private func startDaemon(_ flush: CountingFlush, count: Int, hurriesIdleFlushes: Bool = false) throws -> TestDaemon
    {
        let store = MemorySceneStore()
        store.deferredFlush = flush
        // A delay no test waits out: an answer within the read timeout came from the count.
        // The test's loop has nothing to read while a flush waits, which would start it at
        // once (`IdleFlush.swift`, its own tests below): off, to reach the other rules.
        return try TestDaemon(store: store) {
            $0.flushDelayMicroseconds = 60_000_000
            $0.flushDelayCount = count
            $0.checkpointSweepMilliseconds = 0
            $0.hurriesIdleFlushes = hurriesIdleFlushes
        }
    }

    private func readIDs(_ client: TestClient, count: Int) throws -> [Int] {
        try (0..<count).map { _ in try client.readMessage()["id"]?.int ?? -1 }
    }

    @Test("a flush right after another waits until enough operations wait, then goes at once")
    func countEndsTheDelay() throws {
        let flush = CountingFlush()
        let daemon = try startDaemon(flush, count: 20)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        try client.send(raw: tenResizes(from: 100))
        #expect(try readIDs(client, count: 10) == Array(100..<110), "the first flush has nothing to wait after")
        let before = flush.flushes
        try client.send(raw: tenResizes(from: 200))
        #expect(try client.readLine(timeout: 300) == nil, "ten operations wait for the delay")
        #expect(flush.flushes == before)
        try client.send(raw: tenResizes(from: 300))
        #expect(try readIDs(client, count: 20) == Array(200..<210) + Array(300..<310), "twenty end it")
        #expect(flush.flushes == before + 1, "one flush covered both turns")
    }

    /// A daemon whose delay is never waited out, two clients, and scene `s` created by the
    /// first, whose ten pipelined resizes were flushed by the thread: the next thread flush
    /// falls within the delay.
    private func twoClientsAfterAThreadFlush(_ flush: CountingFlush) throws -> (TestDaemon, TestClient, TestClient) {
        let daemon = try startDaemon(flush, count: 1000)
        let first = try daemon.connect()
        let second = try daemon.connect()
        #expect(try first.request(create).isOK)
        try first.send(raw: tenResizes(from: 100))
        #expect(try readIDs(first, count: 10) == Array(100..<110))
        return (daemon, first, second)
    }

    @Test("a flush waits for nobody once every client sending now is waiting for it")
    func noDelayWhenNobodyCanJoin() throws {
        let flush = CountingFlush()
        let (daemon, pipeliner, asker) = try twoClientsAfterAThreadFlush(flush)
        defer { daemon.stop() }
        // A client that pipelines may send more at any time: its turn waits for the delay.
        try pipeliner.send(raw: tenResizes(from: 200))
        #expect(try pipeliner.readLine(timeout: 300) == nil, "a pipelining client may still join")
        let before = flush.flushes
        // The pipeliner stopped sending; a client asking and waiting for its answer is the
        // only one sending now, so nobody is left to join: the flush goes at once.
        let reply = try asker.request(["op": "resize", "scene": "s", "width": 700, "height": 1024])
        #expect(reply.isOK)
        #expect(try readIDs(pipeliner, count: 10) == Array(200..<210), "the held turn went with the same flush")
        #expect(flush.flushes == before + 1)
    }

    @Test("a client that only reads never makes a writer's flush wait")
    func readersDoNotHoldFlushes() throws {
        let flush = CountingFlush()
        let (daemon, writer, reader) = try twoClientsAfterAThreadFlush(flush)
        defer { daemon.stop() }
        for round in 0..<20 {
            // A read right before the writer's change: the reader sent within the same
            // millisecond or the one before, but a read never joins a flush.
            try reader.send(raw: #"{"id":\#(round),"op":"scene.get","scene":"s"}"# + "\n")
            let reply = try writer.request([
                "op": "resize", "scene": "s", "width": round % 2 == 0 ? 700 : 1366, "height": 1024,
            ])
            #expect(reply.isOK)
            #expect(try reader.readMessage()["id"]?.int == round)
        }
    }

    @Test("a flush waiting for company goes once the daemon has nothing left to read")
    func nothingToReadEndsTheDelay() throws {
        let flush = CountingFlush()
        let daemon = try startDaemon(flush, count: 1000, hurriesIdleFlushes: true)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        try client.send(raw: tenResizes(from: 100))
        #expect(try readIDs(client, count: 10) == Array(100..<110))
        // A client pipelining fewer changes than the count, then waiting: nothing else will
        // come before its answers, so its flush does not wait out the delay (60 s here, so
        // that waiting it out could not pass unnoticed).
        for round in 0..<5 {
            let before = flush.flushes
            try client.send(raw: tenResizes(from: 200 + 10 * round))
            #expect(try readIDs(client, count: 10) == Array(200 + 10 * round..<210 + 10 * round))
            #expect(flush.flushes == before + 1, "one flush for the turn")
        }
        let stats = try client.request(["op": "stats"])
        #expect((stats["idleFlushStarts"]?.int ?? 0) >= 5, "\(stats)")
    }

    @Test("a graceful stop flushes what waits for the delay and answers it")
    func stopEndsTheDelay() throws {
        let flush = CountingFlush()
        let daemon = try startDaemon(flush, count: 1000)
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        try client.send(raw: tenResizes(from: 100))
        #expect(try readIDs(client, count: 10) == Array(100..<110))
        try client.send(raw: tenResizes(from: 200))
        #expect(try client.readLine(timeout: 300) == nil)
        daemon.requestStop()
        #expect(try readIDs(client, count: 10) == Array(200..<210))
        #expect(daemon.waitUntilFinished(seconds: 10))
    }
}
