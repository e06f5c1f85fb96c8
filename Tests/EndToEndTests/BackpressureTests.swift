#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// A subscriber that does not read never slows the others.
    @Suite struct Backpressure {
        @Test func aStalledReaderDoesNotSlowTheOthers() throws {
            try withDaemon { daemon in
                let writer = try daemon.client("writer")
                try writer.createScene("busy", device: IPadPro129.device, config: mailConfig)
                let start = try writer.getScene("busy").revision

                // Attached, then never reads; a small receive buffer makes it fall behind fast.
                let stalled = try daemon.client("stalled")
                var small: Int32 = 4096
                setsockopt(stalled.socket.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
                try stalled.attach("busy", role: .viewer)
                let reader = try daemon.client("reader")
                try reader.attach("busy", role: .viewer)

                // Thousands of changes, in pipelined batches; the reader keeps up.
                let changes = 3000
                var sent = 0
                var lastRevision = start
                while sent < changes {
                    var ids: [JSONValue] = []
                    for _ in 0..<100 {
                        let width = 700 + (sent % 2) * 300
                        ids.append(
                            try writer.send(
                                op: "resize", ["scene": "busy", "width": .int(Int64(width)), "height": 1024]))
                        sent += 1
                    }
                    for id in ids {
                        let response = try writer.response(to: id, timeout: .seconds(10))
                        #expect(errorCode(of: response) == nil)
                        lastRevision = max(lastRevision, response["revision"]?.int ?? 0)
                    }
                    _ = reader.takePushes()
                    try reader.drain(quiet: .milliseconds(1))
                }
                #expect(lastRevision == start + changes)

                // Others are still served promptly (a generous bound, not a benchmark).
                let began = ContinuousClock.now
                let fresh = try daemon.client("fresh", timeout: .seconds(5))
                try fresh.ping()
                try writer.ping()
                #expect(began.duration(to: .now) < .seconds(5))
                // The reader sees the newest revision.
                var newest = 0
                while newest < lastRevision { newest = try reader.nextLayoutPush(timeout: .seconds(10)).revision }
                #expect(newest == lastRevision)

                // The stalled client either was disconnected past the hard cap, or gets its
                // backlog coalesced: increasing revisions that end with the newest.
                let (revisions, closed) = pushRevisions(of: stalled, until: lastRevision)
                #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count)
                #expect(closed || revisions.last == lastRevision)
                #expect(daemon.isRunning)
            }
        }
    }
}

/// Revisions of the pushes `connection` receives until `last` arrives or the daemon closes it.
func pushRevisions(of connection: SplitConnection, until last: Int) -> (revisions: [Int], closed: Bool) {
    var revisions: [Int] = []
    while revisions.last != last {
        do {
            revisions.append(try connection.nextLayoutPush(timeout: .seconds(10)).revision)
        } catch  where error == .closed {
            return (revisions, true)
        } catch {
            Issue.record("reading the stalled client: \(error)")
            return (revisions, false)
        }
    }
    return (revisions, false)
}
