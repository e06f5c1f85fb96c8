import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// SEMANTICS 9: several clients on one scene, pushes, and size policies.
    @Suite struct Sync {
        /// WIRE: after SIGTERM, "every scene is back at its last acknowledged revision". The
        /// clients the stop closes are windows of the scene; their leaving must not resize it.
        @Test(arguments: ["largest", "smallest", "latest"])
        func aGracefulStopWithWindowsAttachedKeepsTheLastAcknowledgedRevision(policy: String) throws {
            try withDaemon { daemon in
                let owner = try daemon.client("owner")
                try owner.createScene(
                    "x", device: "mac", size: Size(width: 800, height: 600), config: ["sizePolicy": .string(policy)])
                let first = try daemon.client("first")
                _ = try first.attach("x", role: .window, size: Size(width: 1000, height: 500))
                let second = try daemon.client("second")
                let last = try second.attach("x", role: .window, size: Size(width: 700, height: 900))
                let viewer = try daemon.client("viewer")
                #expect(try viewer.attach("x", role: .viewer).revision == last.revision)

                #expect(daemon.terminate() == .exited(0))
                try daemon.start()
                let restored = try daemon.client("after").getScene("x")
                #expect(restored.revision == last.revision)
                #expect(restored.layout == last.layout)
            }
        }

        @Test func attachAnswersTheCurrentLayoutThenPushesEveryLaterRevision() throws {
            try withDaemon { daemon in
                let writer = try daemon.client("writer")
                try writer.createScene("live", device: IPadPro129.device, config: mailConfig)
                try writer.intent("live", .push(column: .primary, vc: "thread"))
                let current = try writer.getScene("live")

                let viewer = try daemon.client("viewer")
                let attached = try viewer.attach("live", role: .viewer)
                #expect(attached.scene == "live")
                #expect(attached.revision == current.revision)
                #expect(attached.layout == current.layout)

                let change = try writer.resize("live", to: IPadPro129.oneThird)
                let push = try viewer.nextLayoutPush()
                #expect(push.scene == "live")
                #expect(push.revision == current.revision + 1)
                #expect(push.revision == change.revision)
                #expect(push.layout == change.layout)
                #expect(push.events == change.events)
                #expect(push.raw["id"] == nil)
            }
        }

        /// A window already attached that attaches again with another size makes a revision it
        /// gets no push of: the answer carries that revision's events, as the push to the
        /// others does. An attach that changes nothing answers `"events": []`.
        @Test func reattachingWithANewSizeAnswersTheEventsOfTheRevisionItMade() throws {
            try withDaemon { daemon in
                let owner = try daemon.client("owner")
                try owner.createScene("ra", device: IPadPro129.device, config: mailConfig)
                let window = try daemon.client("window")
                let first = try window.attach("ra", role: .window, size: IPadPro129.landscape)
                #expect(first.raw["events"] == .array([]))
                let viewer = try daemon.client("viewer")
                try viewer.attach("ra", role: .viewer)

                let again = try window.attach("ra", role: .window, size: IPadPro129.oneThird)
                let push = try viewer.nextLayoutPush()
                #expect(again.revision == first.revision + 1)
                #expect(push.revision == again.revision)
                #expect(again.layout == push.layout)
                let events = try decodeEvents(try #require(again.raw["events"])).protocol1
                #expect(events == push.events)
                #expect(events.contains { if case .willCollapse = $0 { true } else { false } })
                #expect(throws: ClientError.self) { try window.nextLayoutPush(timeout: .milliseconds(300)) }
            }
        }

        @Test func severalClientsReceiveIdenticalRevisionsInTheSameOrder() throws {
            try withDaemon { daemon in
                let setup = try daemon.client("setup")
                let start = try setup.createScene("shared", device: IPadPro129.device, config: mailConfig).revision
                let watchers = try (0..<4).map { index in
                    let watcher = try daemon.client("watcher-\(index)")
                    try watcher.attach("shared", role: .viewer)
                    return watcher
                }
                // Two writers interleave pipelined changes; some are no-ops or refused.
                let writers = try (0..<2).map { try daemon.client("writer-\($0)") }
                var sent: [(SplitConnection, JSONValue)] = []
                for step in 0..<40 {
                    let writer = writers[step % 2]
                    let params: JSONObject =
                        step % 3 == 0
                        ? ["scene": "shared", "width": .int(Int64(step % 6 == 0 ? 375 : 1366)), "height": 1024]
                        : [
                            "scene": "shared",
                            "intent": step % 3 == 1
                                ? ["kind": "push", "column": "primary", "vc": .string("vc\(step)")]
                                : ["kind": "pop", "column": "primary"],
                        ]
                    sent.append((writer, try writer.send(op: step % 3 == 0 ? "resize" : "intent", params)))
                }
                var accepted: [Int: Layout] = [:]
                for (writer, id) in sent {
                    let response = try writer.response(to: id)
                    guard errorCode(of: response) == nil, let result = try? result(of: response) else { continue }
                    let reply = try ChangeReply(decoding: result)
                    accepted[reply.revision] = reply.layout
                }
                let final = try setup.getScene("shared").revision
                #expect(final > start)
                // Every revision start+1...final was answered to exactly one writer.
                #expect(Set(accepted.keys).isSuperset(of: Set((start + 1)...final)))

                for (index, watcher) in watchers.enumerated() {
                    var revisions: [Int] = []
                    while revisions.last != final {
                        let push = try watcher.nextLayoutPush(timeout: .seconds(10))
                        revisions.append(push.revision)
                        #expect(push.layout == accepted[push.revision], "watcher \(index) revision \(push.revision)")
                    }
                    #expect(revisions == Array((start + 1)...final), "watcher \(index)")
                    try watcher.drain(quiet: .milliseconds(100))
                    #expect(watcher.takePushes().isEmpty, "watcher \(index) got pushes past the last revision")
                }
            }
        }

        @Test func theWriterGetsItsResponseBeforeItsOwnPush() throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                try client.createScene("self", device: IPadPro129.device, config: mailConfig)
                try client.attach("self", role: .window)
                let id = try client.send(
                    op: "intent", ["scene": "self", "intent": ["kind": "push", "column": "primary", "vc": "x"]])
                let first = try client.nextMessage()
                #expect(first["id"] == id)
                let second = try client.nextMessage()
                #expect(second["event"] == "layout")
                #expect(second["revision"] == first["revision"])
            }
        }

        @Test func aDetachedClientGetsNoMorePushes() throws {
            try withDaemon { daemon in
                let writer = try daemon.client("writer")
                try writer.createScene("s", device: IPadPro129.device, config: mailConfig)
                let viewer = try daemon.client("viewer")
                try viewer.attach("s", role: .viewer)
                try viewer.detach("s")
                try writer.intent("s", .push(column: .primary, vc: "x"))
                try viewer.drain(quiet: .milliseconds(200))
                #expect(viewer.takePushes().isEmpty)
                try viewer.ping()
            }
        }

        @Test func latestPolicyFollowsTheLastSizeSentIncludingAttachSizes() throws {
            try withDaemon { daemon in
                let setup = try daemon.client("setup")
                try setup.createScene("latest", device: IPadPro129.device, config: mailConfig)
                let a = try daemon.client("a")
                let b = try daemon.client("b")
                let attachedA = try a.attach("latest", role: .window, size: IPadPro129.twoThirds)
                #expect(attachedA.layout.size == IPadPro129.twoThirds)
                let attachedB = try b.attach("latest", role: .window, size: IPadPro129.oneThird)
                #expect(attachedB.layout.size == IPadPro129.oneThird)
                #expect(attachedB.layout.collapsed)
                let resized = try a.resize("latest", to: IPadPro129.half)
                #expect(resized.layout.size == IPadPro129.half)
                #expect(try setup.getScene("latest").layout.size == IPadPro129.half)
            }
        }

        @Test func largestPolicyTakesTheComponentWiseMaximumOfAttachedWindows() throws {
            try withDaemon { daemon in
                let setup = try daemon.client("setup")
                var config = mailConfig.object!
                config["sizePolicy"] = "largest"
                try setup.createScene("big", device: IPadPro129.device, config: .object(config))
                let a = try daemon.client("a")
                let b = try daemon.client("b")
                try a.attach("big", role: .window, size: Size(width: 1000, height: 800))
                try b.attach("big", role: .window, size: Size(width: 700, height: 900))
                #expect(try setup.getScene("big").layout.size == Size(width: 1000, height: 900))
                // A window's own resize updates its size, then the policy recomputes.
                try a.resize("big", to: Size(width: 600, height: 600))
                #expect(try setup.getScene("big").layout.size == Size(width: 700, height: 900))
                // A connection that is not attached as a window cannot resize.
                #expect(serverErrorCode { try setup.resize("big", to: Size(width: 300, height: 300)) } == "bad_request")
                let viewer = try daemon.client("viewer")
                try viewer.attach("big", role: .viewer)
                #expect(
                    serverErrorCode { try viewer.resize("big", to: Size(width: 300, height: 300)) } == "bad_request")
                // A window that detaches is removed and the size recomputed.
                try b.detach("big")
                #expect(try setup.getScene("big").layout.size == Size(width: 600, height: 600))
            }
        }

        @Test func smallestPolicyTakesTheMinimumAndForgetsDisconnectedWindows() throws {
            try withDaemon { daemon in
                let setup = try daemon.client("setup")
                var config = mailConfig.object!
                config["sizePolicy"] = "smallest"
                try setup.createScene("small", device: IPadPro129.device, config: .object(config))
                let a = try daemon.client("a")
                let b = try daemon.client("b")
                try a.attach("small", role: .window, size: Size(width: 1000, height: 800))
                try b.attach("small", role: .window, size: Size(width: 700, height: 900))
                #expect(try setup.getScene("small").layout.size == Size(width: 700, height: 800))
                let watcher = try daemon.client("watcher")
                let before = try watcher.attach("small", role: .viewer).revision
                a.close()
                // The disconnect is a change: pushed, with the recomputed size.
                let push = try watcher.nextLayoutPush()
                #expect(push.revision == before + 1)
                #expect(push.layout.size == Size(width: 700, height: 900))
            }
        }

        @Test func manualPolicyIgnoresWindowSizes() throws {
            try withDaemon { daemon in
                let setup = try daemon.client("setup")
                var config = mailConfig.object!
                config["sizePolicy"] = "manual"
                let created = try setup.createScene("manual", device: IPadPro129.device, config: .object(config))
                let window = try daemon.client("window")
                let attached = try window.attach("manual", role: .window, size: IPadPro129.oneThird)
                #expect(attached.layout.size == created.layout.size)
                #expect(attached.revision == created.revision)
                let resized = try setup.resize("manual", to: IPadPro129.half)
                #expect(resized.layout.size == IPadPro129.half)
                window.close()
                try setup.drain(quiet: .milliseconds(100))
                #expect(try setup.getScene("manual").layout.size == IPadPro129.half)
            }
        }
    }
}
