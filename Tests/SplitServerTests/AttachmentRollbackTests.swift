import Foundation
import Glibc
import SplitStore
import SplitWire
import Testing
@testable import SplitServer

/// WIRE: `storage` means "the database refused a write; the change was not applied". A
/// change's attachment side (a window's recorded size, an attach, a detach, a window
/// leaving) is undone or redone with it, so that later sizes are computed from what was
/// applied (SEMANTICS 9).
@Suite("Attachments and failed commits", .serialized)
struct AttachmentRollbackTests {
    private let diskFull = StoreError(
        kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)

    private func create(_ policy: String) -> JSONObject {
        [
            "op": "scene.create", "scene": "s", "device": "mac", "size": ["width": 800, "height": 600],
            "config": ["sizePolicy": .string(policy)],
        ]
    }

    private func attach(_ role: String, _ width: Int? = nil, _ height: Int? = nil) -> JSONObject {
        var request: JSONObject = ["op": "scene.attach", "scene": "s", "role": .string(role)]
        if let width, let height { request["size"] = ["width": .int(Int64(width)), "height": .int(Int64(height))] }
        return request
    }

    private func size(of client: TestClient) throws -> JSONValue? {
        try client.request(["op": "scene.get", "scene": "s"])["layout"]?["size"]
    }

    @Test func aWindowsResizeAnsweredStorageDoesNotCountAsItsSize() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let first = try daemon.connect(), second = try daemon.connect()
        #expect(try first.request(create("largest")).isOK)
        #expect(try first.request(attach("window", 1000, 500))["revision"] == 2)
        daemon.store.failure = diskFull
        #expect(try first.request(["op": "resize", "scene": "s", "width": 1200, "height": 400]).errorCode == "storage")
        daemon.store.failure = nil
        #expect(try size(of: first) == ["width": 1000, "height": 500])
        // The largest of the windows as applied: 1000 (not the refused 1200) x 900.
        let attached = try second.request(attach("window", 700, 900))
        #expect(attached["layout"]?["size"] == ["width": 1000, "height": 900])
    }

    @Test func aReattachAnsweredStorageKeepsTheClientsAttachment() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let owner = try daemon.connect(), client = try daemon.connect()
        #expect(try owner.request(create("latest")).isOK)
        #expect(try client.request(attach("viewer")).isOK)
        daemon.store.failure = diskFull
        // As a window it resizes the scene: that change fails, and the attach with it.
        #expect(try client.request(attach("window", 900, 700)).errorCode == "storage")
        daemon.store.failure = nil
        let change = try owner.request(["op": "resize", "scene": "s", "width": 1000, "height": 700])
        #expect(change["revision"] == 2)
        // Still the viewer it was: it gets the push, and its own resize is not a window's.
        try client.drainPushes()
        #expect(client.pushes.last?["revision"] == 2)
        #expect(try size(of: owner) == ["width": 1000, "height": 700])
    }

    /// Scene "s" under `largest` with two windows, 1000x500 and 700x900 (so 1000x900, at
    /// revision 3).
    private func twoWindows(_ daemon: TestDaemon) throws -> (first: TestClient, second: TestClient) {
        let first = try daemon.connect(), second = try daemon.connect()
        #expect(try first.request(create("largest")).isOK)
        #expect(try first.request(attach("window", 1000, 500)).isOK)
        #expect(try second.request(attach("window", 700, 900))["revision"] == 3)
        return (first, second)
    }

    @Test func aDetachAnsweredStorageIsNotApplied() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let (first, second) = try twoWindows(daemon)
        daemon.store.failure = diskFull
        // Leaving shrinks the scene to 1000x500: that change fails, so the detach is undone.
        #expect(try second.request(["op": "scene.detach", "scene": "s"]).errorCode == "storage")
        daemon.store.failure = nil
        #expect(try size(of: first) == ["width": 1000, "height": 900])
        let change = try first.request([
            "op": "intent", "scene": "s", "intent": ["kind": "push", "column": "primary", "vc": "z"],
        ])
        #expect(change["revision"] == 4)
        try second.drainPushes()
        #expect(second.pushes.last?["revision"] == 4, "still attached: it gets the push")
        // And detaching again now works and shrinks the scene.
        let detached = try second.request(["op": "scene.detach", "scene": "s"])
        #expect(detached.isOK)
        #expect(try size(of: first) == ["width": 1000, "height": 500])
    }

    @Test func aWindowThatLeavesDuringAFailedCommitResizesTheSceneOnceTheStoreTakesItAgain() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let (first, second) = try twoWindows(daemon)
        daemon.store.failure = diskFull
        second.close()
        usleep(300_000)
        #expect(try size(of: first) == ["width": 1000, "height": 900], "the resize of its leaving could not be stored")
        daemon.store.failure = nil
        // Retried once a second: the scene takes the remaining window's size.
        var current = try size(of: first)
        for _ in 0..<40 where current != ["width": 1000, "height": 500] {
            usleep(100_000)
            current = try size(of: first)
        }
        #expect(current == ["width": 1000, "height": 500])
        try first.drainPushes()
        #expect(first.pushes.last?["layout"]?["size"] == ["width": 1000, "height": 500])
    }

    @Test func anAttachThatChangedNothingStandsWhenAnotherChangeFails() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let owner = try daemon.connect(), viewer = try daemon.connect()
        #expect(try owner.request(create("latest")).isOK)
        daemon.store.failure = diskFull
        // Nothing stored: the attach is answered and holds whatever the store does.
        #expect(try viewer.request(attach("viewer")).isOK)
        daemon.store.failure = nil
        #expect(try owner.request(["op": "resize", "scene": "s", "width": 900, "height": 600])["revision"] == 2)
        try viewer.drainPushes()
        #expect(viewer.pushes.last?["revision"] == 2)
    }
}

/// The sweep's checkpoints change nothing a read shows: when their commit fails (a full
/// disk), reads of the same turn still stand: a read that shares its turn with a failing
/// sweep is not answered `storage` ("a change in the same turn could not be stored"), since
/// no client changed anything.
@Suite("Reads beside a failing checkpoint sweep")
struct SweepFailureReadTests {
    @Test func readsStandWhenOnlyTheSweepsCommitFails() throws {
        let daemon = try TestDaemon { $0.checkpointSweepMilliseconds = 5 }
        defer { daemon.stop() }
        let client = try daemon.connect()
        for index in 0..<4 {
            let name = "s\(index)"
            #expect(try client.request(["op": "scene.create", "scene": .string(name), "device": "ipad-pro-12.9"]).isOK)
            #expect(try client.request(["op": "resize", "scene": .string(name), "width": 375, "height": 1024]).isOK)
        }
        daemon.store.failure = StoreError(
            kind: .full, code: 13, extendedCode: 13, operation: "commit",
            message: "disk full", rolledBack: true)
        defer { daemon.store.failure = nil }
        var failures: [String] = []
        let deadline = Date().addingTimeInterval(0.6)
        var batches = 0
        while Date() < deadline {
            // A pipelined burst keeps reads in every loop turn, the sweep's included.
            var lines = ""
            for index in 0..<20 {
                lines += #"{"id":\#(index),"op":"scene.get","scene":"s\#(index % 4)"}"# + "\n"
                lines += #"{"id":\#(100 + index),"op":"scene.list"}"# + "\n"
            }
            try client.send(raw: lines)
            for _ in 0..<40 {
                let reply = try client.readMessage()
                if !reply.isOK { failures.append("\(reply)") }
            }
            batches += 1
        }
        #expect(daemon.store.statistics.failedCommits > 0, "the sweep ran and failed")
        #expect(failures.count == 0, "\(failures.count) of \(batches * 40) reads failed: \(failures.first ?? "")")
    }
}
