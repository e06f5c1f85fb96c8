import Glibc
import SplitWire
import Testing
@testable import SplitServer

/// A resize storm: under overload the requests wait in the kernel's socket
/// buffers, not in the daemon's turn, so its memory does not grow with the backlog.
@Suite struct TurnBudgetTests {
    // Many clients pipeline far more changes than one turn may take: no turn commits more
    // than the turn-wide budget allows (plus one line per client), and every client still
    // gets every answer, in order (none starves while others fill the turns).
    @Test func aBacklogOfManyClientsIsTakenInBoundedTurns() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let clientCount = 40
        let linesPerClient = 1000
        let clients = try (0..<clientCount).map { _ in try daemon.connect() }
        for (index, client) in clients.enumerated() {
            #expect(
                try client.request(["op": "scene.create", "scene": .string("b\(index)"), "device": "ipad-pro-12.9"])
                    .isOK)
        }
        // Slow commits: what the clients send meanwhile piles up for the next turn.
        daemon.store.commitDelayMicroseconds = 2_000
        for (index, client) in clients.enumerated() {
            let payload = (1...linesPerClient).map { step in
                #"{"id":\#(step),"op":"resize","scene":"b\#(index)","width":\#(step % 2 == 0 ? 1366 : 700),"height":1024}"#
                    + "\n"
            }.joined()
            client.sendInBackground(raw: payload)
        }
        for client in clients {
            var ids: [Int] = []
            var allOK = true
            while ids.count < linesPerClient, let line = try client.readLine(timeout: 20_000) {
                let message = try JSONParser.parse(line)
                ids.append(message["id"]?.int ?? -1)
                if !message.isOK { allOK = false }
            }
            #expect(ids == Array(1...linesPerClient))
            #expect(allOK)
        }
        daemon.store.commitDelayMicroseconds = 0
        let stats = try clients[0].request(["op": "stats"])
        let changes = try #require(stats["changes"]?.int)
        let operations = try #require(stats["commitOperations"]?.int)
        let largestBatch = try #require(stats["largestBatch"]?.int)
        #expect(changes == clientCount * (linesPerClient + 1))
        // Rows per change as this store writes them (a journal entry, at times a checkpoint),
        // with room for checkpoints bunching up in one turn.
        let rowsPerChange = Double(operations) / Double(changes) * 1.25
        #expect(Double(largestBatch) <= rowsPerChange * Double(Server.linesPerTurnInTotal + clientCount))
        // The backlog was real: all of it in one turn would have been far past the bound.
        #expect(clientCount * linesPerClient > 2 * (Server.linesPerTurnInTotal + clientCount))
    }
}
