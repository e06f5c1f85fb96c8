import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// `explain` and `sweep` over the socket of a real daemon (WIRE.md "Explain and sweep"):
    /// both read only, and bad requests change nothing.
    @Suite struct ExplainSweep {
        @Test func explainReturnsTheLayoutAndItsDecisionsWithoutANewRevision() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                try connection.resize("mail", to: IPadPro129.oneThird)
                let before = try connection.getScene("mail")
                let result = try connection.explain("mail")
                #expect(result["scene"]?.string == "mail")
                #expect(result["revision"]?.int == before.revision)
                #expect(result["layout"]?["collapsed"]?.bool == true)
                #expect(result["layout"]?["size"]?["width"]?.double == 375)
                let decisions = try #require(result["decisions"]?.array)
                let fields = decisions.compactMap { $0["field"]?.string }
                #expect(
                    Array(fields.prefix(5)) == [
                        "horizontalSizeClass", "verticalSizeClass", "collapsed", "splitBehavior", "displayMode",
                    ])
                let horizontal = try #require(decisions.first)
                #expect(horizontal["rule"]?.string == "device.windowedCompact")
                #expect(horizontal["value"]?.string == "compact")
                #expect(horizontal["inputs"]?["windowedRegularMinWidth"]?.double == 640)
                #expect(horizontal["why"]?.string?.isEmpty == false)
                let collapse = try #require(decisions.first { $0["field"]?.string == "collapse" })
                #expect(collapse["rule"]?.string == "policy.uikit")
                #expect(collapse["value"]?.array?.compactMap(\.string) == ["detail"])

                // Reads only: same revision, and no push to a watcher.
                let after = try connection.getScene("mail")
                #expect(after.revision == before.revision && after.layout == before.layout)

                // Errors: an unknown scene, a missing scene field; the scene is untouched.
                let unknown = try rawResponse(connection, "explain", ["scene": "nope"])
                #expect(errorCode(of: unknown) == "unknown_scene")
                let missing = try rawResponse(connection, "explain")
                #expect(errorCode(of: missing) == "bad_request")
                #expect(try connection.getScene("mail").revision == before.revision)
                #expect(try connection.listScenes().map(\.scene) == ["mail"])
            }
        }

        @Test func splitctlExplainPrintsOneLinePerDecision() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let output = try splitctl(daemon, "explain", "mail")
                #expect(output.exitCode == 0, "\(output)")
                #expect(output.lines.first == "scene mail at revision 1")
                #expect(output.stdout.contains("horizontalSizeClass"))
                #expect(output.stdout.contains("device.padFullScreen"))
                #expect(output.stdout.contains("displayMode.automatic"))
                let json = try jsonOutput(try splitctl(daemon, "--json", "explain", "mail"))
                #expect(json["decisions"]?.array?.isEmpty == false)
                let missing = try splitctl(daemon, "explain", "nope")
                #expect(missing.exitCode == 65 && missing.stderr.contains("nope"))
                #expect(try connection.getScene("mail").revision == 1)
            }
        }

        /// A large sweep runs beside the loop: other clients are answered meanwhile, its own
        /// connection's later requests are answered after it, in order, and its intervals are
        /// those a small sweep (run inline) gives over the same points.
        @Test func aLargeSweepRunsBesideTheLoopAndKeepsRequestOrder() throws {
            try withDaemon { daemon in
                let sweeper = try daemon.client("sweeper")
                try sweeper.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let other = try daemon.client("other")
                try other.createScene("notes", device: IPadPro129.device, config: mailConfig)
                let sweepID = try sweeper.send(op: "sweep", ["scene": "mail", "from": 1, "to": 100_000])
                let pingID = try sweeper.send(op: "ping")
                // Another client is served while the sweep runs; had the sweep run on the loop,
                // its reply would have been written before these were even read.
                try other.resize("notes", to: IPadPro129.half)
                #expect(try other.getScene("notes").revision == 2)
                #expect(throws: (any Error).self) { try sweeper.nextMessage(timeout: .milliseconds(1)) }
                let swept = try sweeper.response(to: sweepID, timeout: .seconds(120))
                #expect(swept["ok"]?.bool == true)
                #expect(try sweeper.response(to: pingID)["ok"]?.bool == true)
                let intervals = try #require(swept["intervals"]?.array)
                #expect(intervals.first?["from"]?.double == 1)
                #expect(intervals.last?["to"]?.double == 100_000)
                // The same points swept inline: the same intervals, the last one cut at 2000.
                let small = try #require(
                    try rawResponse(sweeper, "sweep", ["scene": "mail", "from": 1, "to": 2000])["intervals"]?.array)
                var clipped = Array(intervals.prefix { ($0["from"]?.double ?? 0) <= 2000 })
                if var last = clipped.last?.object, (last["to"]?.double ?? 0) > 2000 {
                    last["to"] = 2000
                    clipped[clipped.count - 1] = .object(last)
                }
                #expect(small == clipped)
                #expect(try sweeper.getScene("mail").revision == 1, "a sweep makes no revision")
            }
        }

        @Test func sweepOfASceneAgreesWithResizingIt() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let intervals = try connection.sweep(scene: "mail", from: 300, to: 1400)
                #expect(intervals.first?.from == 300 && intervals.last?.to == 1400)
                for (a, b) in zip(intervals, intervals.dropFirst()) {
                    #expect(b.from == a.to + 1 && a.summary != b.summary)
                }
                // The compact/regular boundary of the 12.9" iPad's windows: 639 | 640.
                let regularAt = try #require(intervals.first { !$0.summary.collapsed })
                #expect(regularAt.from == 640)
                // Every interval's ends resolve, by resizing a scene of the same config over
                // the socket, to the interval's summary.
                try connection.createScene("probe", device: IPadPro129.device, config: mailConfig)
                for interval in intervals {
                    for end in Set([interval.from, interval.to]) {
                        let change = try connection.resize("probe", to: Size(width: end, height: 1024))
                        #expect(SweepSummary(change.layout) == interval.summary, "at \(end)")
                    }
                }
                #expect(try connection.getScene("mail").revision == 1, "a sweep makes no revision")

                // Inline: a device and config, and the seed's rule set breaks at 1000 exactly.
                let inline = try connection.sweep(device: "compact-below-1000", from: 990, to: 1010, fixed: 800)
                #expect(inline.map(\.from) == [990, 1000] && inline.map(\.to) == [999, 1010])
                let heights = try connection.sweep(
                    device: "material", axis: .height, from: 400, to: 500, fixed: 900)
                #expect(heights.map(\.to) == [479, 500])

                // Errors: unknown scene, unknown device, too many points, scene and device both.
                #expect(serverErrorCode { _ = try connection.sweep(scene: "nope", from: 1, to: 10) } == "unknown_scene")
                #expect(
                    serverErrorCode { _ = try connection.sweep(device: "nope", from: 1, to: 10) } == "unknown_device")
                #expect(
                    serverErrorCode { _ = try connection.sweep(scene: "mail", from: 1, to: 200_000) } == "bad_request")
                let both = try rawResponse(
                    connection, "sweep", ["scene": "mail", "device": "mac", "from": 1, "to": 10])
                #expect(errorCode(of: both) == "bad_request")
                #expect(try connection.getScene("mail").revision == 1)
            }
        }

        @Test func splitctlSweepOfASceneUsesTheDaemon() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                // A user choice is part of the scene's state: the op sweeps that state, so
                // the intervals are the daemon's for this scene.
                let expected = try connection.sweep(scene: "mail", from: 600, to: 700)
                let output = try splitctl(daemon, "--json", "sweep", "mail", "--from", "600", "--to", "700")
                #expect(output.exitCode == 0, "\(output)")
                let intervals = try #require(try jsonOutput(output)["intervals"]?.array)
                #expect(intervals.compactMap(SweepInterval.init(wire:)) == expected)
                #expect(try splitctl(daemon, "sweep", "nope", "--to", "700").exitCode == 65)
            }
        }
    }
}
