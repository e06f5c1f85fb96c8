import Foundation
import Glibc
import SplitWire
@testable import SplitServer

import Testing

/// After a turn that answered something the loop polls instead of sleeping, for
/// `busyPollMicroseconds`; requests found that way are counted in `stats`.
@Suite("Busy polling", .serialized)
struct BusyPollTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]

    private func resize(_ width: Int) -> JSONObject {
        ["op": "resize", "scene": "s", "width": .int(Int64(width)), "height": 1024]
    }

    private func stats(_ client: TestClient) throws -> (polledTurns: Int, polling: Int) {
        let reply = try client.request(["op": "stats"])
        return (reply["busyPolledTurns"]?.int ?? -1, reply["busyPolling"]?.int ?? -1)
    }

    @Test("requests that follow their reply within the window are read while polling")
    func roundTripsArePolled() throws {
        // A window far longer than a round trip on any machine: every request after the
        // first is read by the poller.
        let daemon = try TestDaemon { $0.busyPollMicroseconds = 5_000_000 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        for step in 0..<5 { #expect(try client.request(resize(step % 2 == 0 ? 400 : 1366)).isOK) }
        let (polledTurns, polling) = try stats(client)
        // The five resizes and the stats request itself.
        #expect(polledTurns == 6)
        #expect(polling == 1)
    }

    @Test("with a window of 0 the loop never polls")
    func zeroWindowNeverPolls() throws {
        let daemon = try TestDaemon { $0.busyPollMicroseconds = 0 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        for step in 0..<5 { #expect(try client.request(resize(step % 2 == 0 ? 400 : 1366)).isOK) }
        let (polledTurns, polling) = try stats(client)
        #expect(polledTurns == 0)
        #expect(polling == 0)
    }

    @Test("polling ends when its window has passed")
    func pollingEnds() throws {
        let daemon = try TestDaemon { $0.busyPollMicroseconds = 20_000 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        let before = try stats(client).polledTurns
        // Ten times the window: the poller has given up and the loop sleeps, so the next
        // request is not counted as polled and finds polling off.
        usleep(200_000)
        let (after, polling) = try stats(client)
        #expect(after == before)
        #expect(polling == 0)
    }

    @Test("a graceful stop is not held up by polling")
    func stopWhilePolling() throws {
        let daemon = try TestDaemon { $0.busyPollMicroseconds = 60_000_000 }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        #expect(try stats(client).polling == 1)
        daemon.requestStop()
        // The stop closes the client; the minute-long window must not keep the loop running.
        #expect(daemon.waitUntilFinished(seconds: 10))
    }
}
