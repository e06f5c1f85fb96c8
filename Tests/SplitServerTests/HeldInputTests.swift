import Glibc
import SplitWire
import Testing
@testable import SplitServer

/// Input read but held back by the per-turn line share must be answered in full, whatever
/// where the pauses fall in the chunks read.
@Suite struct HeldInputTests {
    // 32-byte lines make each 64 KiB read exactly 2048 lines, so with 1024 lines per turn the
    // second half of every chunk is held and its last line is where reading pauses again.
    // Reading the socket then (while the client counts as paused) dropped the rest of the next
    // chunk: about half of a flood went unanswered (found by Scripts/hostile).
    @Test func aPauseOnTheLastHeldLineLosesNothing() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let count = 32 * 2048
        let firstID = 1_000_000
        let lines = (firstID..<firstID + count).map { id -> String in
            let line = #"{"id":\#(id),"op":"ping"}"#
            return line + String(repeating: " ", count: 31 - line.utf8.count) + "\n"
        }
        #expect(lines.allSatisfy { $0.utf8.count == 32 })
        #expect(Server.linesPerTurn == 1024)
        client.sendInBackground(raw: lines.joined())
        var ids: [Int] = []
        while ids.count < count, let line = try client.readLine(timeout: 5_000) {
            ids.append(try JSONParser.parse(line)["id"]?.int ?? -1)
        }
        #expect(ids.count == count)
        let inOrder = ids.enumerated().allSatisfy { $0.element == firstID + $0.offset }
        #expect(inOrder)
    }
}
