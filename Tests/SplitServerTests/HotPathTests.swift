import Foundation
import PropertyBased
import SplitCore
import SplitStore
import SplitWire
import Testing
@testable import SplitServer

/// The server's hot path: the layout digest's hex written in place, the
/// turn keeping every replaced scene value in a list (undone last to first), and the record
/// of a change swapping the new value in without copying the scene.
@Suite("Hot path", .serialized)
struct HotPathTests {
    @Test func digestHexIsTheZeroPaddedLowercaseRadix16Text() async {
        let values = Gen.int(in: Int.min...Int.max)
        await propertyCheck(count: 500, input: values, Gen.int(in: 0...63)) { value, shift in
            // Shifted too, so short texts (leading zeros) are covered.
            let number = UInt64(bitPattern: Int64(value)) >> UInt64(shift)
            let text = String(number, radix: 16)
            #expect(LayoutDigest.hex(number) == String(repeating: "0", count: 16 - text.count) + text)
        }
        #expect(LayoutDigest.hex(0) == "0000000000000000")
        #expect(LayoutDigest.hex(.max) == "ffffffffffffffff")
    }

    @Test func aRolledBackTurnPutsEachSceneBackToItsValueBeforeTheTurn() async {
        // Values a turn replaced, several per scene, in change order.
        let histories = Gen.int(in: 0...3).array(of: 1...12)
        await propertyCheck(count: 200, input: histories) { scenes in
            var turn = Turn()
            var latest: [String: Int] = [:]
            var beforeTurn: [String: Int?] = [:]
            for scene in scenes {
                let id = "s\(scene)"
                let previous = latest[id]
                if beforeTurn[id] == nil { beforeTurn[id] = .some(previous) }
                turn.remember(scene: id, before: previous.map(Self.live))
                latest[id] = (previous ?? 0) + 1
            }
            #expect(turn.changedSceneIDs == Set(beforeTurn.keys))
            var restored: [String: Int?] = latest.mapValues { $0 }
            for (id, value) in turn.replacedScenes.reversed() { restored[id] = .some(value?.state.revision) }
            #expect(restored == beforeTurn)
            turn.reset()
            #expect(!turn.changedScenes && turn.isEmpty)
        }
    }

    static func live(_ revision: Int) -> LiveScene {
        var state = try! SplitEngineFixture.engine.createScene(id: "x", device: "ipad-pro-12.9", size: nil, config: nil)
        state.revision = revision
        return LiveScene(state: state, layout: SplitEngineFixture.engine.layout(of: state))
    }

    private func resize(_ width: Int, id: Int) -> String {
        #"{"id":\#(id),"op":"resize","scene":"s","width":\#(width),"height":1024}"#
    }

    @Test func aFailedTurnWithSeveralChangesOfASceneRestoresItsFirstValue() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]).isOK)
        #expect(try client.request(["op": "resize", "scene": "s", "width": 981, "height": 1024])["revision"] == 2)
        daemon.store.failure = StoreError(
            kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)
        // One write: the three changes land in one turn, whose commit fails.
        try client.send(
            raw: [resize(678, id: 10), resize(375, id: 11), resize(1366, id: 12)].joined(separator: "\n") + "\n")
        for _ in 0..<3 { #expect(try client.readMessage().errorCode == "storage") }
        daemon.store.failure = nil
        let after = try client.request(["op": "scene.get", "scene": "s"])
        #expect(after["revision"] == 2)
        #expect(after["layout"]?["size"]?["width"] == 981)
        // The next change continues from the restored revision, and is stored.
        #expect(try client.request(["op": "resize", "scene": "s", "width": 678, "height": 1024])["revision"] == 3)
    }

    /// Waits for a commit no request makes (the sweep's).
    private func waitForSweep(_ client: TestClient) throws {
        let commits = try client.request(["op": "stats"])["storeCommits"]?.int ?? 0
        var waited = 0
        while try client.request(["op": "stats"])["storeCommits"]?.int ?? 0 == commits, waited < 500 {
            usleep(10_000)
            waited += 1
        }
    }

    private func resize(_ client: TestClient, _ width: Int, scene: String) throws -> Int? {
        try client.request(["op": "resize", "scene": .string(scene), "width": .int(Int64(width)), "height": 1024])[
            "revision"]?.int
    }

    /// A scene is listed for the sweep at its first change above its checkpoint only: after a
    /// sweep, after a checkpoint made by `checkpointEvery`, with several scenes, the sweep
    /// must still reach every scene left with changes.
    @Test func theSweepReachesEveryScenesChangesAfterCheckpointsOfBothKinds() throws {
        let daemon = try TestDaemon {
            $0.checkpointEvery = 3; $0.checkpointSweepMilliseconds = 20
        }
        let client = try daemon.connect()
        for scene in ["a", "b"] {
            #expect(
                try client.request(["op": "scene.create", "scene": .string(scene), "device": "ipad-pro-12.9"]).isOK)
        }
        #expect(try resize(client, 981, scene: "a") == 2)
        #expect(try resize(client, 678, scene: "a") == 3)
        try waitForSweep(client)
        // a: 4, 5, then 6 is checkpointed by the change itself, 7 is left for the sweep.
        for (width, revision) in [(375, 4), (1366, 5), (981, 6), (678, 7)] {
            #expect(try resize(client, width, scene: "a") == revision)
        }
        #expect(try resize(client, 981, scene: "b") == 2)
        try waitForSweep(client)
        client.close()
        daemon.store.failure = StoreError(
            kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)
        daemon.stop()
        daemon.store.failure = nil
        let rows = try daemon.store.loadScenes().sorted { $0.id < $1.id }
        #expect(rows.map(\.revision) == [7, 2])
    }
}

extension HotPathTests {
    /// The sweep is for scenes at rest: one that keeps changing (a window being dragged) is
    /// left to its own `checkpointEvery` checkpoints, not rewritten by every sweep.
    @Test func theSweepLeavesScenesStillChanging() throws {
        let daemon = try TestDaemon {
            $0.checkpointEvery = 100_000; $0.checkpointSweepMilliseconds = 300
        }
        let client = try daemon.connect()
        for scene in ["a", "b"] {
            #expect(
                try client.request(["op": "scene.create", "scene": .string(scene), "device": "ipad-pro-12.9"]).isOK)
        }
        #expect(try client.request(["op": "resize", "scene": "b", "width": 981, "height": 1024])["revision"] == 2)
        // `a` changes every few ms across five sweeps; `b` rests from its one change on.
        let end = Date().addingTimeInterval(1.5)
        var changes = 0
        while Date() < end {
            let width = changes % 2 == 0 ? 678 : 1366
            #expect(
                try client.request(["op": "resize", "scene": "a", "width": .int(Int64(width)), "height": 1024]).isOK)
            changes += 1
            usleep(2000)
        }
        client.close()
        daemon.store.failure = StoreError(
            kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)
        daemon.stop()
        daemon.store.failure = nil
        let rows = try daemon.store.loadScenes().sorted { $0.id < $1.id }
        #expect(rows.map(\.id) == ["a", "b"])
        #expect(
            rows.map(\.revision) == [1, 2], "b swept once at rest; a, changed \(changes) times, only at its creation")
    }
}

/// One engine for the fixtures above.
enum SplitEngineFixture {
    static let engine = SplitEngine()
}
