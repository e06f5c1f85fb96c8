import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// SEMANTICS 8 over the wire: isolation, path independence, round trip, record.
    @Suite struct Snapshots {
        /// A scene with navigation in both columns, so collapse/expand has something to move.
        func makeNavigatedScene(_ connection: SplitConnection, _ scene: String) throws {
            try connection.createScene(scene, device: IPadPro129.device, config: mailConfig)
            try connection.intent(scene, .push(column: .primary, vc: "thread"))
            try connection.intent(scene, .showDetail(vc: "message"))
        }

        func snapshots(of result: JSONValue) throws -> [(size: Size, layout: Layout)] {
            try (result["snapshots"]?.array ?? []).map { entry in
                (try Size(json: try #require(entry["size"])), try decodeLayout(try #require(entry["layout"])))
            }
        }

        @Test func explicitSizesLeaveTheLiveSceneUntouched() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try makeNavigatedScene(connection, "live")
                let before = try connection.getScene("live")
                let watcher = try daemon.client("watcher")
                try watcher.attach("live", role: .viewer)

                let sizes = [IPadPro129.oneThird, IPadPro129.portrait, IPadPro129.half]
                let result = try connection.snapshot("live", sizes: sizes)
                #expect(result["baseRevision"]?.int == before.revision)
                let taken = try snapshots(of: result)
                #expect(taken.map(\.size) == sizes)
                for (size, layout) in taken { #expect(layout.size == size) }
                #expect(taken[0].layout.collapsed)
                #expect(taken[1].layout.orientation == .portrait)
                #expect(result["roundTrip"]?["lossless"]?.bool == true)

                // Isolation: same revision, same layout and state, no push, no live event.
                #expect(try connection.getScene("live") == before)
                try watcher.drain(quiet: .milliseconds(200))
                #expect(watcher.takePushes().isEmpty)
            }
        }

        @Test func eachSnapshotEqualsASingleResizeFromTheBase() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let sizes = [
                    IPadPro129.oneThird, IPadPro129.portrait, IPadPro129.twoThirds, Size(width: 320, height: 700),
                ]
                try makeNavigatedScene(connection, "snap")
                let forward = try snapshots(of: connection.snapshot("snap", sizes: sizes))
                let backward = try snapshots(of: connection.snapshot("snap", sizes: sizes.reversed()))
                // Path independence: the order of the sizes does not matter.
                for (size, layout) in forward {
                    #expect(backward.first { $0.size == size }?.layout == layout, "\(size)")
                }
                // Each equals what the live scene shows after one resize from the base revision.
                for (index, (size, layout)) in forward.enumerated() {
                    let scene = "twin-\(index)"
                    try makeNavigatedScene(connection, scene)
                    #expect(try connection.resize(scene, to: size).layout == layout, "\(size)")
                }
            }
        }

        @Test func theAppSwitcherPresetCoversTheOtherOrientationAndTheCurrentSize() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try makeNavigatedScene(connection, "ipad")
                let before = try connection.getScene("ipad")
                let result = try connection.snapshot("ipad", preset: "appSwitcher")
                let sizes = try snapshots(of: result).map(\.size)
                #expect(sizes.contains(IPadPro129.landscape))
                #expect(sizes.contains(IPadPro129.portrait))
                // Its multitasking sizes (SEMANTICS 2): landscape 981, 678, 375 wide.
                for width in [981.0, 678, 375] {
                    #expect(sizes.contains { $0.width == width && $0.height == 1024 }, "\(width)")
                }
                #expect(result["roundTrip"]?["lossless"]?.bool == true)
                #expect(try connection.getScene("ipad") == before)
                let unknown = try rawResponse(connection, "snapshot", ["scene": "ipad", "preset": "noSuchPreset"])
                #expect(errorCode(of: unknown) == "bad_request")
                let empty = try rawResponse(connection, "snapshot", ["scene": "ipad", "sizes": []])
                #expect(errorCode(of: empty) == "bad_request")
                let bad = try rawResponse(
                    connection, "snapshot", ["scene": "ipad", "sizes": [["width": 0, "height": 10]]])
                #expect(errorCode(of: bad) == "bad_request")
            }
        }

        @Test func sessionsAreRecordedListedAndReadBack() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try makeNavigatedScene(connection, "rec")
                try connection.createScene("other", device: IPadPro129.device)
                #expect(try connection.snapshotSessions("rec").isEmpty)

                let first = try connection.snapshot("rec", sizes: [IPadPro129.oneThird])
                try connection.resize("rec", to: IPadPro129.half)
                let second = try connection.snapshot("rec", preset: "appSwitcher")
                _ = try connection.snapshot("other", sizes: [IPadPro129.portrait])

                let sessions = try connection.snapshotSessions("rec")
                #expect(sessions.count == 2)
                for entry in sessions {
                    #expect(entry["session"] != nil && entry["hash"]?.string?.isEmpty == false)
                }
                #expect(
                    sessions.map { $0["baseRevision"]?.int } == [
                        first["baseRevision"]?.int, second["baseRevision"]?.int,
                    ])
                #expect(sessions.first?["sizes"] == .array([IPadPro129.oneThird.wireObject]))

                for (entry, taken) in zip(sessions, [first, second]) {
                    let session = try #require(entry["session"])
                    let fetched = try connection.snapshotSession(session)
                    #expect(fetched["baseRevision"] == taken["baseRevision"])
                    #expect(fetched["snapshots"] == taken["snapshots"])
                    #expect(fetched["roundTrip"] == taken["roundTrip"])
                }
                // Different contents, different hashes.
                #expect(sessions[0]["hash"] != sessions[1]["hash"])
                #expect(try connection.snapshotSessions("other").count == 1)
                let missing = try rawResponse(connection, "snapshot.get", ["session": "no-such-session"])
                #expect(missing["ok"]?.bool == false)
            }
        }
    }
}
