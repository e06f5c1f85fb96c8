import SplitClient
import SplitCore
import SplitWire
import Testing

/// A two-column app with an inspector (SEMANTICS 6, revision 2).
let inspectorConfig: JSONValue = [
    "style": "doubleColumn", "roots": ["primary": "inbox", "secondary": "detail", "inspector": "info"],
]

extension EndToEnd {
    /// WIRE.md "Revision 2 additions" over the socket: the layout's new fields, the new
    /// events, the new intents and request fields, and each refusal leaving the scene as it
    /// was.
    @Suite struct Revision2 {
        /// The scene's revision and layout, to compare before and after a refusal.
        static func current(_ connection: SplitConnection, _ scene: String) throws -> (Int, JSONValue?) {
            let reply = try connection.getScene(scene)
            return (reply.revision, reply.raw["layout"] ?? nil)
        }

        /// `body` is refused with `code` and leaves `scene` at the same revision and layout.
        static func expectRefused(
            _ code: String, _ connection: SplitConnection, _ scene: String,
            sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
        ) throws {
            let before = try current(connection, scene)
            #expect(serverErrorCode(sourceLocation: sourceLocation, body) == code, sourceLocation: sourceLocation)
            let after = try current(connection, scene)
            #expect(after.0 == before.0, sourceLocation: sourceLocation)
            #expect(after.1 == before.1, sourceLocation: sourceLocation)
        }

        @Test func everyLayoutCarriesRevision2sFields() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let created = try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let layout = try #require(created.raw["layout"])
                #expect(layout["interfaceOrientation"] == "landscape")
                #expect(layout["activation"] == "foregroundActive")
                #expect(layout["displayModeButton"] == ["visible": true, "target": "secondaryOnly"])
                #expect(created.layout.revision2?.displayModeButton.target == .secondaryOnly)
                // Pushed layouts carry them too.
                let viewer = try daemon.client("viewer")
                try viewer.attach("mail", role: .viewer)
                try connection.resize("mail", to: IPadPro129.oneThird)
                let push = try viewer.nextLayoutPush()
                #expect(push.raw["layout"]?["interfaceOrientation"] == "landscape")
                #expect(push.raw["layout"]?["orientation"] == "portrait")
                #expect(push.raw["layout"]?["displayModeButton"] == ["visible": false, "target": nil])
                #expect(try connection.getScene("mail").raw["layout"]?["activation"] == "foregroundActive")
            }
        }

        @Test func resizeMayStateTheInterfaceOrientation() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: mailConfig)
                // A Slide Over height keeps the last value; a stated one wins.
                let slideOver = Size(width: 320, height: 980)
                let kept = try connection.resize("s", to: slideOver)
                #expect(kept.layout.revision2?.interfaceOrientation == .landscape)
                let stated = try connection.resize("s", to: slideOver, interfaceOrientation: .portrait)
                #expect(stated.revision == kept.revision + 1)
                #expect(stated.raw["layout"]?["interfaceOrientation"] == "portrait")
                #expect(stated.events.isEmpty)
                // Stating what it is already changes nothing.
                let same = try connection.resize("s", to: slideOver, interfaceOrientation: .portrait)
                #expect(same.revision == stated.revision)
                try Self.expectRefused("bad_request", connection, "s") {
                    _ = try connection.call(
                        "resize", ["scene": "s", "width": 320, "height": 980, "interfaceOrientation": "upsideDown"])
                }
                // Survives a restart.
                try daemon.crashAndRestart()
                let after = try daemon.client()
                #expect(try after.getScene("s").layout.revision2?.interfaceOrientation == .portrait)
            }
        }

        @Test func activationChangesAreDurableAndBackgroundRecordsASession() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: mailConfig)
                let viewer = try daemon.client("viewer")
                try viewer.attach("s", role: .viewer)
                let inactive = try connection.intent("s", ["kind": "activation", "state": "foregroundInactive"])
                #expect(inactive.revision == 2)
                #expect(inactive.timeline == [.activationChanged(from: .foregroundActive, to: .foregroundInactive)])
                #expect(inactive.raw["layout"]?["activation"] == "foregroundInactive")
                let background = try connection.intent("s", ["kind": "activation", "state": "background"])
                #expect(background.revision == 3)
                guard case .snapshotTaken(let session)? = background.timeline.last else {
                    Issue.record("no snapshotTaken in \(background.timeline)")
                    return
                }
                #expect(
                    background.timeline.first == .activationChanged(from: .foregroundInactive, to: .background))
                // The session is recorded like any other, on the revision that entered background.
                let recorded = try connection.snapshotSession(.string(session))
                #expect(recorded["baseRevision"] == 3)
                #expect(recorded["roundTrip"]?["lossless"] == true)
                #expect(try connection.snapshotSessions("s").count == 1)
                // Viewers get the change once, the session's layouts not at all.
                #expect(try viewer.nextLayoutPush().revision == 2)
                let pushed = try viewer.nextLayoutPush()
                #expect(pushed.revision == 3 && pushed.timeline == background.timeline)
                // Setting the state it has changes nothing; an unknown state is refused.
                let same = try connection.intent("s", ["kind": "activation", "state": "background"])
                #expect(same.revision == 3 && same.timeline.isEmpty)
                try Self.expectRefused("bad_request", connection, "s") {
                    try connection.intent("s", ["kind": "activation", "state": "suspended"])
                }
                try daemon.crashAndRestart()
                let after = try daemon.client()
                let restored = try after.getScene("s")
                #expect(restored.revision == 3)
                #expect(restored.layout.revision2?.activation == .background)
                #expect(try after.snapshotSessions("s").count == 1)
                let back = try after.intent("s", ["kind": "activation", "state": "foregroundActive"])
                #expect(back.revision == 4)
                #expect(back.timeline == [.activationChanged(from: .background, to: .foregroundActive)])
            }
        }

        @Test func snapshotOnBackgroundFalseRecordsNoSession() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "s", device: IPadPro129.device,
                    config: ["roots": ["primary": "inbox"], "snapshotOnBackground": false])
                let background = try connection.intent("s", ["kind": "activation", "state": "background"])
                #expect(background.timeline == [.activationChanged(from: .foregroundActive, to: .background)])
                #expect(try connection.snapshotSessions("s").isEmpty)
            }
        }

        @Test func popoverAnchorsAndAutomaticStyle() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: mailConfig)
                // Seed 003: a popover shown as a popover needs its anchor.
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent("s", ["kind": "present", "vc": "share", "style": "popover"])
                }
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent(
                        "s", ["kind": "present", "vc": "share", "style": "popover", "anchor": "nowhere"])
                }
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent(
                        "s", ["kind": "present", "vc": "share", "style": "formSheet", "anchor": "detail"])
                }
                let anchored = try connection.intent(
                    "s", ["kind": "present", "vc": "share", "style": "popover", "anchor": "detail"])
                #expect(
                    anchored.raw["layout"]?["presentations"]
                        == [["vc": "share", "style": "popover", "effectiveStyle": "popover", "anchor": "detail"]])
                #expect(anchored.events == [.presented(vc: "share", style: .popover)])
                try connection.intent("s", .dismiss)
                let automatic = try connection.intent("s", ["kind": "present", "vc": "compose", "style": "automatic"])
                #expect(
                    automatic.raw["layout"]?["presentations"]
                        == [["vc": "compose", "style": "automatic", "effectiveStyle": "pageSheet"]])
                try daemon.stopAndRestart()
                let after = try daemon.client()
                #expect(
                    try after.getScene("s").raw["layout"]?["presentations"]
                        == [["vc": "compose", "style": "automatic", "effectiveStyle": "pageSheet"]])
            }
        }

        @Test func compactHeightAdaptsAndEdgeAttachmentIsKept() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "phone", device: "iphone-8-plus", size: Size(width: 736, height: 414), config: mailConfig)
                let plain = try connection.intent("phone", ["kind": "present", "vc": "a", "style": "formSheet"])
                #expect(plain.raw["layout"]?["presentations"]?[0]?["effectiveStyle"] == "fullScreen")
                let edge = try connection.intent(
                    "phone",
                    ["kind": "present", "vc": "b", "style": "pageSheet", "prefersEdgeAttachedInCompactHeight": true])
                let entry = try #require(edge.raw["layout"]?["presentations"]?[1])
                #expect(entry["effectiveStyle"] == "pageSheet")
                #expect(entry["prefersEdgeAttachedInCompactHeight"] == true)
                try Self.expectRefused("bad_request", connection, "phone") {
                    try connection.intent(
                        "phone",
                        ["kind": "present", "vc": "c", "style": "pageSheet", "prefersEdgeAttachedInCompactHeight": 1])
                }
            }
        }

        @Test func theInspectorColumn() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let created = try connection.createScene("s", device: IPadPro129.device, config: inspectorConfig)
                let columns = try #require(created.raw["layout"]?["columns"]?.array)
                #expect(columns.map { $0["column"] } == ["primary", "secondary", "inspector"])
                #expect(columns.last?["visible"] == false)
                let shown = try connection.intent("s", ["kind": "showColumn", "column": "inspector"])
                #expect(shown.revision == 2)
                #expect(shown.timeline.contains(.inspectorAppear(vc: "info")))
                #expect(
                    shown.raw["events"]?.array?.contains(["type": "appear", "vc": "info", "column": "inspector"])
                        == true)
                let inspector = try #require(shown.layout.revision2?.inspector)
                #expect(inspector.visible && inspector.width == 320 && inspector.x == 1366 - 320)
                // Tiled: the secondary gave up the inspector's width.
                let secondary = try #require(shown.layout.column(.secondary))
                #expect(secondary.x + secondary.width == inspector.x)
                let pushed = try connection.intent("s", ["kind": "push", "column": "inspector", "vc": "history"])
                #expect(pushed.layout.revision2?.inspector?.stack == ["info", "history"])
                // Collapsed: a sheet with source inspector.
                let narrow = try connection.resize("s", to: IPadPro129.oneThird)
                let sheet = try #require(narrow.raw["layout"]?["presentations"]?[0])
                #expect(sheet["source"] == "inspector" && sheet["vc"] == "history")
                #expect(narrow.raw["layout"]?["columns"]?.array?.count == 1)
                let wide = try connection.resize("s", to: IPadPro129.landscape)
                #expect(wide.layout.revision2?.inspector?.visible == true)
                let root = try connection.intent("s", ["kind": "popToRoot", "column": "inspector"])
                #expect(root.layout.revision2?.inspector?.stack == ["info"])
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent("s", ["kind": "pop", "column": "inspector"])
                }
                try daemon.crashAndRestart()
                let after = try daemon.client()
                let restored = try after.getScene("s")
                #expect(restored.layout.revision2?.inspector?.stack == ["info"])
                #expect(restored.layout.revision2?.inspector?.visible == true)
                let hidden = try after.intent("s", ["kind": "hideColumn", "column": "inspector"])
                #expect(hidden.timeline.contains(.inspectorDisappear(vc: "info")))
                #expect(hidden.layout.revision2?.inspector?.visible == false)
            }
        }

        @Test func theInspectorNeedsARootAndAColumnStyle() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: mailConfig)
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent("s", ["kind": "showColumn", "column": "inspector"])
                }
                #expect(
                    serverErrorCode {
                        try connection.createScene(
                            "classic", device: IPadPro129.device, config: ["roots": ["inspector": "info"]])
                    } == "bad_request")
                #expect(try connection.listScenes().map(\.scene) == ["s"])
            }
        }

        @Test func showFromTheInspectorSaysWhatToUseInstead() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: inspectorConfig)
                try connection.intent("s", ["kind": "showColumn", "column": "inspector"])
                var message = ""
                try Self.expectRefused("invalid_intent", connection, "s") {
                    do {
                        try connection.intent("s", ["kind": "show", "column": "inspector", "vc": "history"])
                    } catch let error as ClientError {
                        if case .server(_, let text) = error { message = text }
                        throw error
                    }
                }
                #expect(!message.contains("unknown column"), "\(message)")
                #expect(message.contains("showColumn") && message.contains("push"), "\(message)")
                #expect(message.contains("roots.inspector"), "\(message)")
                // splitctl passes the column on and prints the daemon's message.
                let before = try Self.current(connection, "s")
                let output = try splitctl(daemon, "show", "s", "inspector", "history")
                #expect(output.exitCode == 65, "\(output)")
                #expect(output.stderr.hasPrefix("splitctl: invalid_intent: "), "\(output)")
                #expect(output.stderr.contains("showColumn"), "\(output)")
                let after = try Self.current(connection, "s")
                #expect(after.0 == before.0 && after.1 == before.1)
            }
        }

        @Test func splitctlCreatesASceneWithTraitOverrides() throws {
            try withDaemon { daemon in
                // Seed 004: regular above 414 pt on an iPhone 8 in landscape; the vertical
                // class stays the device's (compact).
                let output = try splitctl(
                    daemon, "scene", "create", "phone", "--device", "iphone-8", "--size", "667x375",
                    "--trait-overrides", "regular-above-414")
                #expect(output.exitCode == 0, "\(output)")
                let traits = try daemon.client().getScene("phone").layout.traits
                #expect(traits == Traits(horizontalSizeClass: .regular, verticalSizeClass: .compact))
                let plain = try splitctl(
                    daemon, "scene", "create", "plain", "--device", "iphone-8", "--size", "667x375")
                #expect(plain.exitCode == 0, "\(plain)")
                #expect(try daemon.client().getScene("plain").layout.traits.horizontalSizeClass == .compact)
                let unknown = try splitctl(
                    daemon, "scene", "create", "x", "--device", "iphone-8", "--trait-overrides", "nope")
                #expect(unknown.exitCode == 65, "\(unknown)")
                #expect(try daemon.client().listScenes().map(\.scene).sorted() == ["phone", "plain"])
            }
        }

        @Test func theButtonIntentIsRefusedWhileHidden() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "s", device: IPadPro129.device,
                    config: ["style": "doubleColumn", "displayModeButtonVisibility": "never"])
                #expect(
                    try connection.getScene("s").raw["layout"]?["displayModeButton"]
                        == ["visible": false, "target": nil])
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent("s", .displayModeButton)
                }
            }
        }

        @Test func hideColumnSecondaryIsRefusedWhileExpanded() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: ["style": "doubleColumn"])
                try Self.expectRefused("invalid_intent", connection, "s") {
                    try connection.intent("s", .hideColumn(.secondary))
                }
            }
        }

        @Test func columnVisibilityEventsFollowTheButton() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: ["style": "doubleColumn"])
                let hidden = try connection.intent("s", .displayModeButton)
                #expect(hidden.timeline.contains(.willHideColumn(.primary)))
                #expect(hidden.raw["events"]?.array?.contains(["type": "willHideColumn", "column": "primary"]) == true)
                let shown = try connection.intent("s", .displayModeButton)
                #expect(shown.timeline.contains(.willShowColumn(.primary)))
            }
        }

        @Test func unknownFieldsAreRefusedByName() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("s", device: IPadPro129.device, config: mailConfig)
                for (op, params, field) in [
                    ("resize", ["scene": "s", "width": 700, "height": 1024, "widht": 3] as JSONObject, "widht"),
                    ("intent", ["scene": "s", "intent": ["kind": "back", "animated": true]], "intent.animated"),
                    ("intent", ["scene": "s", "intent": ["kind": "displayModeButton"], "force": true], "force"),
                    ("scene.get", ["scene": "s", "verbose": true], "verbose"),
                ] {
                    let before = try Self.current(connection, "s")
                    let response = try rawResponse(connection, op, params)
                    #expect(errorCode(of: response) == "bad_request", "\(op)")
                    let message = response["error"]?["message"]?.string ?? ""
                    #expect(message.contains("'\(field)'"), "\(message)")
                    let after = try Self.current(connection, "s")
                    #expect(after.0 == before.0 && after.1 == before.1)
                }
                let create = try rawResponse(
                    connection, "scene.create",
                    ["scene": "t", "device": .string(IPadPro129.device), "activation": "background"])
                #expect(errorCode(of: create) == "bad_request")
                #expect(create["error"]?["message"]?.string?.contains("'activation'") == true)
                #expect(try connection.listScenes().map(\.scene) == ["s"])
            }
        }

        @Test func sceneCreateTakesTraitOverridesBesideTheDevice() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                // Seed 004: an iPhone 8 in landscape, split by its container above 414 pt; the
                // vertical class stays the device's.
                let created = try connection.call(
                    "scene.create",
                    [
                        "scene": "s", "device": "iphone-8", "size": ["width": 667, "height": 375],
                        "traitOverrides": "regular-above-414",
                    ])
                #expect(
                    created["layout"]?["traits"] == ["horizontalSizeClass": "regular", "verticalSizeClass": "compact"])
                #expect(created["layout"]?["collapsed"] == false)
                #expect(
                    serverErrorCode {
                        _ = try connection.call(
                            "scene.create", ["scene": "t", "device": "iphone-8", "traitOverrides": "no-such-rule-set"])
                    } == "unknown_device")
                #expect(
                    serverErrorCode {
                        _ = try connection.call(
                            "scene.create",
                            [
                                "scene": "t", "device": "iphone-8", "traitOverrides": "regular-above-414",
                                "config": ["traitOverrides": "regular-above-414"],
                            ])
                    } == "bad_request")
                #expect(try connection.listScenes().map(\.scene) == ["s"])
            }
        }

        @Test func helloListsFeatures() throws {
            try withDaemon { daemon in
                let connection = try daemon.connect()
                let hello = try connection.call("hello", ["protocol": 1, "client": "e2e"])
                #expect(hello["features"]?.array?.contains("revision2") == true)
            }
        }
    }
}
