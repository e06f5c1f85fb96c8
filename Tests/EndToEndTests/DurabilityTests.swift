import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// WIRE.md: a change is acknowledged only once durable; restarts restore every scene.
    @Suite struct Durability {
        @Test(arguments: ["full", "normal"])
        func aRestartOnTheSameDatabaseRestoresEveryScene(durability: String) throws {
            try withDaemon(durability: durability) { daemon in
                let connection = try daemon.client()
                try connection.createScene("plain", device: IPadPro129.device)
                try connection.createScene("navigated", device: IPadPro129.device, config: mailConfig)
                try connection.intent("navigated", .push(column: .primary, vc: "thread"))
                try connection.intent("navigated", .present(vc: "compose", style: .formSheet))
                try connection.createScene("collapsed", device: IPadPro129.device, config: mailConfig)
                try connection.intent("collapsed", .showDetail(vc: "message"))
                try connection.resize("collapsed", to: IPadPro129.oneThird)
                try connection.createScene(
                    "phone", device: "iphone-14", size: Size(width: 390, height: 844), config: mailConfig)
                try connection.createScene("deleted", device: IPadPro129.device)
                try connection.deleteScene("deleted")
                let names = ["plain", "navigated", "collapsed", "phone"]
                var before: [String: SceneReply] = [:]
                for name in names { before[name] = try connection.getScene(name) }
                let listBefore = try connection.listScenes()
                connection.close()

                try daemon.stopAndRestart()

                let after = try daemon.client()
                #expect(Set(try after.listScenes().map(\.scene)) == Set(names))
                #expect(
                    try after.listScenes().sorted { $0.scene < $1.scene } == listBefore.sorted { $0.scene < $1.scene })
                for name in names {
                    let restored = try after.getScene(name)
                    #expect(restored.revision == before[name]?.revision, "\(name)")
                    #expect(restored.layout == before[name]?.layout, "\(name)")
                }
                // Navigation state survived too: expanding restores the stacks of before the collapse.
                let expanded = try after.resize("collapsed", to: IPadPro129.landscape)
                #expect(expanded.revision == before["collapsed"]!.revision + 1)
                #expect(expanded.layout.column(.primary)?.stack == ["inbox"])
                #expect(expanded.layout.column(.secondary)?.stack == ["message"])
                // Revisions continue from the restored one.
                #expect(try after.intent("plain", .displayModeButton).revision == before["plain"]!.revision + 1)
            }
        }

        @Test func sigtermAnswersWhatWasReadAndExitsZero() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("busy", device: IPadPro129.device, config: mailConfig)
                var ids: [JSONValue] = []
                for index in 0..<200 {
                    ids.append(
                        try connection.send(
                            op: "resize", ["scene": "busy", "width": .int(Int64(700 + index)), "height": 1024]))
                }
                // Once the first answer is out, the daemon is reading: stop it now.
                let first = try connection.response(to: ids[0])
                #expect(errorCode(of: first) == nil)
                let ended = daemon.terminate()
                #expect(ended == .exited(0), "\(daemon.logTail())")

                // The answers form a prefix of the requests, all accepted, then the connection closes.
                var acknowledged = first["revision"]?.int ?? 0
                var answered = 1
                for id in ids.dropFirst() {
                    guard let response = try? connection.response(to: id, timeout: .seconds(5)) else { break }
                    #expect(errorCode(of: response) == nil, "\(response)")
                    acknowledged = max(acknowledged, response["revision"]?.int ?? 0)
                    answered += 1
                }
                #expect(try connection.awaitClose(timeout: .seconds(5)))

                try daemon.start()
                let restored = try daemon.client().getScene("busy")
                // Graceful: everything committed was answered, everything answered was committed.
                #expect(restored.revision == acknowledged, "answered \(answered) of \(ids.count)")
                #expect(restored.layout.size.width == Double(700 + answered - 1))
            }
        }

        @Test func killNineDuringAStreamOfChangesLosesNoAcknowledgedRevision() throws {
            try withDaemon { daemon in
                let rounds = 5
                let clients = 3
                let budget = ContinuousClock.now.advanced(by: .seconds(90))
                var acknowledged: [String: (revision: Int, size: Size)] = [:]
                var sentSizes: [String: Set<Size>] = [:]
                let setup = try daemon.client("setup")
                for index in 0..<clients {
                    try setup.createScene("own-\(index)", device: IPadPro129.device, config: mailConfig)
                }
                try setup.createScene("shared", device: IPadPro129.device, config: mailConfig)
                setup.close()
                var width = 700

                for round in 0..<rounds where ContinuousClock.now < budget {
                    let writers = try (0..<clients).map { try daemon.client("writer-\($0)") }
                    var pending: [(SplitConnection, JSONValue, String, Size)] = []
                    for _ in 0..<150 {
                        for (index, writer) in writers.enumerated() {
                            width += 1
                            let scene = width % 2 == 0 ? "shared" : "own-\(index)"
                            let size = Size(width: Double(width % 600 + 700), height: Double(700 + width % 300))
                            sentSizes[scene, default: []].insert(size)
                            let id = try writer.send(
                                op: "resize",
                                ["scene": .string(scene), "width": .double(size.width), "height": .double(size.height)])
                            pending.append((writer, id, scene, size))
                        }
                    }
                    // Let a varying number of answers arrive, then pull the plug mid-stream.
                    let firstWriterRequests = pending.filter { $0.0 === writers[0] }
                    _ = try writers[0].response(
                        to: firstWriterRequests[min(10 + round * 30, firstWriterRequests.count - 1)].1)
                    daemon.kill9()

                    // Everything that reached us was acknowledged: it must survive.
                    for (writer, id, scene, size) in pending {
                        guard let response = try? writer.response(to: id, timeout: .milliseconds(200)),
                            errorCode(of: response) == nil, let revision = response["revision"]?.int
                        else { continue }
                        if revision > (acknowledged[scene]?.revision ?? 0) { acknowledged[scene] = (revision, size) }
                    }
                    try daemon.start()
                    let checker = try daemon.client("checker")
                    for (scene, ack) in acknowledged {
                        let restored = try checker.getScene(scene)
                        #expect(
                            restored.revision >= ack.revision, "round \(round): \(scene) lost revision \(ack.revision)")
                        if restored.revision == ack.revision {
                            #expect(restored.layout.size == ack.size, "round \(round): \(scene)")
                        } else {
                            // Committed but not yet answered when killed: still one of the sizes sent.
                            #expect(
                                sentSizes[scene]?.contains(restored.layout.size) == true, "round \(round): \(scene)")
                        }
                        acknowledged[scene] = (restored.revision, restored.layout.size)
                    }
                    checker.close()
                }
                #expect(!acknowledged.isEmpty)
            }
        }

        @Test func snapshotSessionsSurviveARestart() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("snap", device: IPadPro129.device, config: mailConfig)
                _ = try connection.snapshot("snap", sizes: [IPadPro129.oneThird, IPadPro129.portrait])
                let sessions = try connection.snapshotSessions("snap")
                #expect(sessions.count == 1)
                let session = try #require(sessions.first?["session"])
                let recorded = try connection.snapshotSession(session)
                try daemon.stopAndRestart()
                let after = try daemon.client()
                #expect(try after.snapshotSessions("snap") == sessions)
                #expect(try after.snapshotSession(session) == recorded)
            }
        }
    }
}
