import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// `scene.create|get|list|delete` and their errors (WIRE.md "Ops", SEMANTICS 1-5).
    @Suite struct Scenes {
        @Test func createAnswersRevisionOneAndTheFullScreenLandscapeLayout() throws {
            try withDaemon { daemon in
                let reply = try daemon.client().createScene("mail", device: IPadPro129.device, config: mailConfig)
                #expect(reply.scene == "mail")
                #expect(reply.revision == 1)
                let layout = reply.layout
                // Default size: the device's full screen in landscape (WIRE.md scene.create).
                #expect(layout.size == IPadPro129.landscape)
                #expect(layout.orientation == .landscape)
                // Full-screen iPad: regular/regular, so expanded (SEMANTICS 2, 3).
                #expect(layout.traits == .regularRegular)
                #expect(layout.collapsed == false)
                // Automatic in landscape: oneBesideSecondary, tile for classic (SEMANTICS 5).
                #expect(layout.displayMode == .oneBesideSecondary)
                #expect(layout.splitBehavior == .tile)
                // Automatic primary width 320 clamped to [0, 320]; the secondary takes the rest.
                #expect(layout.columns.map(\.column) == [.primary, .secondary])
                let primary = try #require(layout.column(.primary))
                let secondary = try #require(layout.column(.secondary))
                #expect(primary.visible && secondary.visible)
                #expect(primary.x == 0 && primary.width == 320)
                #expect(secondary.x == 320 && secondary.width == 1366 - 320)
                #expect(!primary.overlay && !primary.dimmed && !secondary.overlay && !secondary.dimmed)
                #expect(primary.stack == ["inbox"])
                #expect(secondary.stack == ["detail"])
                #expect(layout.presentations.isEmpty)
            }
        }

        @Test func createWithASizeUsesIt() throws {
            try withDaemon { daemon in
                let reply = try daemon.client().createScene(
                    "narrow", device: IPadPro129.device, size: IPadPro129.oneThird,
                    config: mailConfig)
                #expect(reply.layout.size == IPadPro129.oneThird)
                // 375 pt < 640: compact, collapsed; display mode and behavior are null.
                #expect(reply.layout.traits.horizontalSizeClass == .compact)
                #expect(reply.layout.collapsed)
                #expect(reply.layout.displayMode == nil && reply.layout.splitBehavior == nil)
                #expect(reply.layout.columns.map(\.column) == [.compact])
            }
        }

        @Test func aRuleSetNeedsASize() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                #expect(serverErrorCode { try connection.createScene("m", device: "material") } == "bad_request")
                let reply = try connection.createScene("m", device: "material", size: Size(width: 1200, height: 800))
                #expect(reply.revision == 1)
                #expect(reply.layout.size == Size(width: 1200, height: 800))
            }
        }

        @Test func createErrors() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("dup", device: IPadPro129.device)
                #expect(
                    serverErrorCode { try connection.createScene("dup", device: IPadPro129.device) } == "scene_exists")
                #expect(
                    serverErrorCode { try connection.createScene("other", device: "ipad-pro-99") } == "unknown_device")
                for badID in ["", "has space", "slash/no", "ü", String(repeating: "a", count: 129)] {
                    #expect(
                        serverErrorCode { try connection.createScene(badID, device: IPadPro129.device) }
                            == "bad_request",
                        "id '\(badID.prefix(20))'")
                }
                let longest = String(repeating: "a", count: 128)
                #expect(try connection.createScene(longest, device: IPadPro129.device).scene == longest)
                #expect(try connection.createScene("A-z_0.9:x", device: IPadPro129.device).revision == 1)
                #expect(
                    serverErrorCode {
                        try connection.createScene(
                            "bad-size", device: IPadPro129.device, size: Size(width: 0, height: 100))
                    } == "bad_request")
                #expect(
                    serverErrorCode {
                        try connection.createScene(
                            "bad-config", device: IPadPro129.device, config: ["style": "quadrupleColumn"])
                    } == "bad_request")
                // Nothing half-created.
                #expect(Set(try connection.listScenes().map(\.scene)) == ["dup", longest, "A-z_0.9:x"])
            }
        }

        @Test func getAnswersTheSameLayoutAndTheState() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let created = try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let fetched = try connection.getScene("mail")
                #expect(fetched.scene == "mail")
                #expect(fetched.revision == created.revision)
                #expect(fetched.layout == created.layout)
                #expect(fetched.raw["state"]?.object != nil)
                #expect(serverErrorCode { _ = try connection.getScene("nope") } == "unknown_scene")
            }
        }

        @Test func listNamesEveryScene() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                #expect(try connection.listScenes().isEmpty)
                try connection.createScene("a", device: IPadPro129.device)
                try connection.createScene("b", device: "iphone-14", config: mailConfig)
                try connection.resize("b", to: Size(width: 390, height: 844))  // may or may not change
                let listed = try connection.listScenes()
                #expect(listed.count == 2)
                let b = try #require(listed.first { $0.scene == "b" })
                #expect(b.device == "iphone-14")
                #expect(b.revision == (try connection.getScene("b").revision))
                #expect(listed.first { $0.scene == "a" }?.device == IPadPro129.device)
            }
        }

        @Test func deleteRemovesTheScene() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("gone", device: IPadPro129.device)
                try connection.createScene("stays", device: IPadPro129.device)
                try connection.deleteScene("gone")
                #expect(try connection.listScenes().map(\.scene) == ["stays"])
                #expect(serverErrorCode { _ = try connection.getScene("gone") } == "unknown_scene")
                #expect(serverErrorCode { try connection.deleteScene("gone") } == "unknown_scene")
                #expect(serverErrorCode { try connection.resize("gone", to: IPadPro129.half) } == "unknown_scene")
                // The id is free again, at revision 1.
                #expect(try connection.createScene("gone", device: IPadPro129.device).revision == 1)
            }
        }

        @Test func everyOpOnAnUnknownSceneIsUnknownScene() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let requests: [(String, JSONObject)] = [
                    ("scene.get", ["scene": "ghost"]),
                    ("scene.delete", ["scene": "ghost"]),
                    ("scene.attach", ["scene": "ghost", "role": "viewer"]),
                    ("resize", ["scene": "ghost", "width": 500, "height": 500]),
                    ("intent", ["scene": "ghost", "intent": ["kind": "back"]]),
                    ("snapshot", ["scene": "ghost", "sizes": [["width": 500, "height": 500]]]),
                    ("snapshot.list", ["scene": "ghost"]),
                ]
                for (op, params) in requests {
                    #expect(errorCode(of: try rawResponse(connection, op, params)) == "unknown_scene", "\(op)")
                }
            }
        }

        @Test func devicesListsEveryProfileOfSemanticsAndTheRuleSets() throws {
            try withDaemon { daemon in
                let result = try daemon.client().devices()
                let names = Set((result["devices"]?.array ?? []).compactMap { $0["device"]?.string ?? $0.string })
                for profile in [
                    "ipad-pro-12.9", "ipad-pro-11", "ipad-mini-8.3", "iphone-se", "iphone-8-plus",
                    "iphone-17-pro-max", "mac", "material", "adwaita", "compact-below-1000", "regular-above-414",
                ] {
                    #expect(names.contains(profile), "\(profile)")
                }
            }
        }

        @Test func statsAnswersCounters() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("a", device: IPadPro129.device)
                try connection.createScene("b", device: IPadPro129.device)
                let stats = try connection.stats()
                #expect(stats.object?.isEmpty == false)
                #expect(stats["scenes"]?.int == 2)
                #expect((stats["clients"]?.int ?? 0) >= 1)
                #expect((stats["requests"]?.int ?? 0) >= 3)
            }
        }
    }
}
