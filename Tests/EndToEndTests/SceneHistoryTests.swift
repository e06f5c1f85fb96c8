import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// `scene.at` and `splitctl render --revision` over the socket of a real daemon: a past
    /// revision is rebuilt from the stored history with the very layout its change answered,
    /// across restarts, and refusals change nothing.
    @Suite struct SceneHistory {
        /// Checkpoints every 4 changes, 20 revisions of history per scene, a log that keeps
        /// only 10 entries of its own: past revisions come from the history the store keeps.
        static let environment = [
            "SPLITD_DATABASE_CHECKPOINT_EVERY": "4", "SPLITD_DATABASE_HISTORY_REVISIONS": "20",
            "SPLITD_DATABASE_JOURNAL_RETENTION": "10",
        ]

        /// The layout of a result as the daemon wrote it (members in wire order).
        static func layoutJSON(_ result: JSONValue) -> String {
            result["layout"].map { JSONWriter.string($0) } ?? "missing layout in \(result)"
        }

        /// Creates `scene` and makes `changes` changes (resizes among the Split View widths
        /// and pushes): each revision's layout JSON, as its reply returned it, by revision.
        static func makeHistory(
            _ connection: SplitConnection, scene: String, changes: Int, pushes: Bool = true
        ) throws -> [Int: String] {
            var layouts: [Int: String] = [:]
            let created = try connection.call(
                "scene.create", ["scene": .string(scene), "device": .string(IPadPro129.device), "config": mailConfig])
            layouts[1] = layoutJSON(created)
            let sizes = [
                IPadPro129.oneThird, IPadPro129.half, IPadPro129.twoThirds, IPadPro129.landscape, IPadPro129.portrait,
            ]
            for step in 0..<changes {
                let reply =
                    pushes && step % 3 == 2
                    ? try connection.intent(scene, .push(column: .secondary, vc: "message-\(step)"))
                    : try connection.resize(scene, to: sizes[step % sizes.count])
                #expect(reply.revision == step + 2)
                layouts[reply.revision] = layoutJSON(reply.raw)
            }
            return layouts
        }

        static func sceneAt(_ connection: SplitConnection, _ scene: String, _ revision: Int) throws -> JSONValue {
            try rawResponse(connection, "scene.at", ["scene": .string(scene), "revision": .int(Int64(revision))])
        }

        @Test func pastRevisionsAreTheLayoutsTheirChangesAnsweredAcrossRestarts() throws {
            try withDaemon(environment: Self.environment) { daemon in
                let connection = try daemon.client("owner")
                let layouts = try Self.makeHistory(connection, scene: "mail", changes: 30)
                let current = 31
                // Another scene's changes push mail's entries out of the log (pruned 512 at a
                // time past the retention): from then on they are only in the kept history.
                _ = try Self.makeHistory(connection, scene: "noise", changes: 700, pushes: false)

                func checkEveryKeptRevision(_ when: String) throws {
                    let checker = try daemon.client("checker-\(when)")
                    defer { checker.close() }
                    for revision in (current - 20)...current {
                        let response = try Self.sceneAt(checker, "mail", revision)
                        #expect(response["ok"]?.bool == true, "\(when) revision \(revision): \(response)")
                        #expect(response["scene"]?.string == "mail")
                        #expect(response["revision"]?.int == revision)
                        #expect(Self.layoutJSON(response) == layouts[revision], "\(when) revision \(revision)")
                        #expect(response["state"]?["revision"]?.int == revision)
                    }
                }
                // The prune's watermark is refreshed at most every few hundred ms: on a busy
                // machine the 700 changes can all come before it moves; later ones prune.
                var pruned = try connection.call("stats")["prunedJournalEntries"]?.int ?? 0
                let waitedFrom = ContinuousClock.now
                var width = 600
                while pruned < 31, ContinuousClock.now - waitedFrom < .seconds(30) {
                    Thread.sleep(forTimeInterval: 0.1)
                    width = width == 600 ? 601 : 600
                    _ = try connection.resize("noise", to: Size(width: Double(width), height: 800))
                    pruned = try connection.call("stats")["prunedJournalEntries"]?.int ?? 0
                }
                #expect(pruned >= 31, "mail's entries left the log: \(pruned) pruned")
                try checkEveryKeptRevision("running")
                connection.close()
                try daemon.stopAndRestart()
                try checkEveryKeptRevision("after a restart")
                daemon.kill9()
                try daemon.start()
                try checkEveryKeptRevision("after kill -9")
                let after = try daemon.client("after")
                #expect(try after.getScene("mail").revision == current, "reads made no revision")
                let stats = try after.call("stats")
                #expect(stats["changes"]?.int ?? 0 == 0, "and no change since the start: \(stats)")
            }
        }

        @Test func tooOldFutureAndUnknownAreRefusedAndChangeNothing() throws {
            try withDaemon(environment: Self.environment) { daemon in
                let maker = try daemon.client("maker")
                let layouts = try Self.makeHistory(maker, scene: "mail", changes: 60)
                maker.close()
                // A graceful stop checkpoints the scene: with no change after it, nothing
                // trims its history while the refusals below are checked.
                try daemon.stopAndRestart()
                let connection = try daemon.client("owner")
                let watcher = try daemon.client("watcher")
                _ = try watcher.attach("mail", role: .viewer)
                let before = try connection.getScene("mail")
                #expect(before.revision == 61)

                let old = try Self.sceneAt(connection, "mail", 2)
                #expect(errorCode(of: old) == "bad_request")
                let message = old["error"]?["message"]?.string ?? ""
                #expect(message.contains("no longer kept"), "\(message)")
                // The oldest kept one is named, and it is rebuilt.
                let oldest = try #require(
                    message.range(of: #"the oldest kept is \d+"#, options: .regularExpression).map {
                        Int(message[$0].split(separator: " ").last!)!
                    })
                #expect(oldest <= 61 - 20 && oldest > 2)
                let rebuilt = try Self.sceneAt(connection, "mail", oldest)
                #expect(Self.layoutJSON(rebuilt) == layouts[oldest])
                #expect(errorCode(of: try Self.sceneAt(connection, "mail", oldest - 1)) == "bad_request")

                let future = try Self.sceneAt(connection, "mail", 62)
                #expect(errorCode(of: future) == "bad_request")
                #expect(future["error"]?["message"]?.string?.contains("62 has not happened") == true)
                #expect(errorCode(of: try Self.sceneAt(connection, "nope", 1)) == "unknown_scene")
                #expect(errorCode(of: try Self.sceneAt(connection, "mail", 0)) == "bad_request")
                #expect(errorCode(of: try rawResponse(connection, "scene.at", ["scene": "mail"])) == "bad_request")
                let current = try Self.sceneAt(connection, "mail", 61)
                #expect(Self.layoutJSON(current) == layouts[61])

                let after = try connection.getScene("mail")
                #expect(after.revision == before.revision && after.layout == before.layout)
                #expect(try connection.listScenes().map(\.scene) == ["mail"])
                // No push reached the viewer: a change made now is the next thing it sees.
                // (The last resize was to landscape: this one changes the scene.)
                try connection.resize("mail", to: IPadPro129.oneThird)
                let push = try watcher.nextPush()
                #expect(push["revision"]?.int == 62)
            }
        }

        @Test func helloListsSceneAt() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                let hello = try connection.call("hello", ["protocol": 1])
                #expect(hello["features"]?.array?.contains("scene.at") == true)
            }
        }

        @Test func splitctlRenderDrawsAPastRevisionAsItWasDrawnThen() throws {
            try withDaemon(environment: Self.environment) { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                var drawn: [Int: String] = [:]
                let sizes = [IPadPro129.oneThird, IPadPro129.twoThirds, IPadPro129.portrait, IPadPro129.half]
                for (index, size) in sizes.enumerated() {
                    let reply = try connection.resize("mail", to: size)
                    #expect(reply.revision == index + 2)
                    let now = try splitctl(daemon, "render", "mail")
                    #expect(now.exitCode == 0, "\(now)")
                    drawn[reply.revision] = now.stdout
                }
                for revision in 2...5 {
                    let past = try splitctl(daemon, "render", "mail", "--revision", String(revision))
                    #expect(past.exitCode == 0, "\(past)")
                    #expect(past.stdout == drawn[revision], "revision \(revision)")
                    #expect(past.stdout.contains("scene mail · revision \(revision)"))
                }
                let file = NSTemporaryDirectory() + "render-\(UUID().uuidString).svg"
                defer { try? FileManager.default.removeItem(atPath: file) }
                #expect(try splitctl(daemon, "render", "mail", "--revision", "3", "--out", file).exitCode == 0)
                #expect(
                    try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
                        == drawn[3]?.trimmingCharacters(in: .newlines))
                let future = try splitctl(daemon, "render", "mail", "--revision", "9")
                #expect(future.exitCode == 65 && future.stderr.contains("9 has not happened"), "\(future)")
                let help = try splitctl(nil, "render", "--help")
                #expect(help.stdout.contains("--revision"))
            }
        }
    }
}
