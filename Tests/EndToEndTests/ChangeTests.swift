import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// `resize` and every intent kind, their revisions, events and errors.
    @Suite struct Changes {
        @Test func resizeToOneThirdCollapsesAndBackExpands() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let narrow = try connection.resize("mail", to: IPadPro129.oneThird)
                #expect(narrow.revision == 2)
                #expect(narrow.layout.collapsed)
                #expect(narrow.layout.traits.horizontalSizeClass == .compact)
                // uikit collapse: the secondary stack goes on top of the primary stack.
                #expect(narrow.layout.columns.map(\.column) == [.compact])
                #expect(narrow.layout.columns.first?.stack == ["inbox", "detail"])
                let types = narrow.events.map(\.type)
                #expect(types.contains("traitsChanged"))
                #expect(types.contains("willCollapse") && types.contains("didCollapse"))
                let willCollapse = try #require(types.firstIndex(of: "willCollapse"))
                let didCollapse = try #require(types.firstIndex(of: "didCollapse"))
                #expect(willCollapse < didCollapse)
                #expect(narrow.events.contains(.traitsChanged(from: .regularRegular, to: .compactRegular)))
                #expect(narrow.events.contains(.viewWillTransition(to: IPadPro129.oneThird)))

                let wide = try connection.resize("mail", to: IPadPro129.landscape)
                #expect(wide.revision == 3)
                #expect(!wide.layout.collapsed)
                #expect(wide.events.map(\.type).contains("didExpand"))
                // Round trip with no navigation in between restores every stack.
                #expect(wide.layout.column(.primary)?.stack == ["inbox"])
                #expect(wide.layout.column(.secondary)?.stack == ["detail"])
            }
        }

        @Test func aChangeThatChangesNothingKeepsTheRevisionAndHasNoEvents() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let created = try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let same = try connection.resize("mail", to: IPadPro129.landscape)
                #expect(same.revision == created.revision)
                #expect(same.events.isEmpty)
                #expect(same.raw["events"] == .array([]))
                #expect(same.layout == created.layout)
                let atRoot = try connection.intent("mail", .popToRoot(column: .primary))
                #expect(atRoot.revision == created.revision && atRoot.events.isEmpty)
                let sameMode = try connection.intent("mail", .setPreferredDisplayMode(.automatic))
                #expect(sameMode.revision == created.revision && sameMode.events.isEmpty)
            }
        }

        @Test func resizeRefusesImpossibleSizes() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device)
                for size in [
                    Size(width: 0, height: 100), Size(width: 100, height: -1), Size(width: 100_001, height: 100),
                ] {
                    #expect(serverErrorCode { try connection.resize("mail", to: size) } == "bad_request", "\(size)")
                }
                // The limit itself is allowed (<= 100000).
                #expect(try connection.resize("mail", to: Size(width: 100_000, height: 100_000)).revision == 2)
                #expect(try connection.getScene("mail").revision == 2)
            }
        }

        @Test func revisionsGrowByExactlyOnePerAcceptedChange() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                var revision = try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                    .revision
                for width in stride(from: 700, to: 1300, by: 50) {
                    let reply = try connection.resize("mail", to: Size(width: Double(width), height: 1024))
                    #expect(reply.revision == revision + 1)
                    revision = reply.revision
                }
                #expect(try connection.getScene("mail").revision == revision)
            }
        }

        @Test func pushPopShowAndPopToRoot() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let pushed = try connection.intent("mail", .push(column: .primary, vc: "thread"))
                #expect(pushed.revision == 2)
                #expect(pushed.layout.column(.primary)?.stack == ["inbox", "thread"])
                // Exact appear/disappear accounting: only the primary's top changed.
                #expect(pushed.events.contains(.appear(vc: "thread", column: .primary)))
                #expect(pushed.events.contains(.disappear(vc: "inbox", column: .primary)))
                #expect(!pushed.events.contains { if case .appear(vc: "detail", _) = $0 { true } else { false } })

                let shown = try connection.intent("mail", .show(vc: "message", column: .primary))
                #expect(shown.layout.column(.primary)?.stack == ["inbox", "thread", "message"])
                let secondaryPush = try connection.intent("mail", .push(column: .secondary, vc: "attachment"))
                #expect(secondaryPush.layout.column(.secondary)?.stack == ["detail", "attachment"])

                let popped = try connection.intent("mail", .pop(column: .primary))
                #expect(popped.layout.column(.primary)?.stack == ["inbox", "thread"])
                let root = try connection.intent("mail", .popToRoot(column: .primary))
                #expect(root.layout.column(.primary)?.stack == ["inbox"])
                #expect(root.revision == 6)

                #expect(serverErrorCode { try connection.intent("mail", .pop(column: .primary)) } == "invalid_intent")
                // A column the style does not have.
                #expect(
                    serverErrorCode { try connection.intent("mail", .push(column: .supplementary, vc: "x")) }
                        == "invalid_intent")
                #expect(try connection.getScene("mail").revision == 6)
            }
        }

        @Test func showDetailReplacesOrResetsAndPushes() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("replace", device: IPadPro129.device, config: mailConfig)
                try connection.intent("replace", .push(column: .secondary, vc: "old"))
                let replaced = try connection.intent("replace", .showDetail(vc: "new"))
                #expect(replaced.layout.column(.secondary)?.stack == ["new"])

                let resetConfig: JSONValue = [
                    "roots": ["primary": "chats"], "placeholder": "empty", "detailRouting": "resetAndPush",
                ]
                try connection.createScene("reset", device: IPadPro129.device, config: resetConfig)
                #expect(try connection.getScene("reset").layout.column(.secondary)?.stack == ["empty"])
                try connection.intent("reset", .showDetail(vc: "chat-1"))
                let second = try connection.intent("reset", .showDetail(vc: "chat-2"))
                #expect(second.layout.column(.secondary)?.stack == ["empty", "chat-2"])

                // Collapsed: pushed onto the collapsed stack.
                try connection.resize("reset", to: IPadPro129.oneThird)
                let collapsed = try connection.intent("reset", .showDetail(vc: "chat-3"))
                #expect(collapsed.layout.columns.first?.stack.last == "chat-3")
            }
        }

        @Test func backPopsTheCollapsedStackAndRefusesTheRoot() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "phone", device: IPadPro129.device, size: IPadPro129.oneThird,
                    config: ["roots": ["primary": "inbox"], "collapsePolicy": "keepPrimary"])
                try connection.intent("phone", .push(column: .primary, vc: "thread"))
                let back = try connection.intent("phone", .back)
                #expect(back.layout.columns.first?.stack == ["inbox"])
                #expect(serverErrorCode { try connection.intent("phone", .back) } == "invalid_intent")
            }
        }

        @Test func selectTabSwitchesTabsAndRefusesAMissingOne() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let config: JSONValue = [
                    "tabs": [["root": "chats"], ["root": "contacts"], ["root": "me"]], "placeholder": "empty",
                ]
                let created = try connection.createScene("wechat", device: IPadPro129.device, config: config)
                #expect(created.layout.column(.primary)?.stack.last == "chats")
                try connection.intent("wechat", .showDetail(vc: "chat-1"))
                let contacts = try connection.intent("wechat", .selectTab(index: 1))
                #expect(contacts.layout.column(.primary)?.stack.last == "contacts")
                // The detail stack of tab 0 was saved and cleared.
                #expect(contacts.layout.column(.secondary)?.stack.contains("chat-1") == false)
                let back = try connection.intent("wechat", .selectTab(index: 0))
                #expect(back.layout.column(.secondary)?.stack.last == "chat-1")
                #expect(serverErrorCode { try connection.intent("wechat", .selectTab(index: 3)) } == "invalid_intent")
                #expect(serverErrorCode { try connection.intent("wechat", .selectTab(index: -1)) } != nil)
            }
        }

        @Test func presentAdaptsInCompactWidthAndDismissRemoves() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let presented = try connection.intent("mail", .present(vc: "compose", style: .formSheet))
                #expect(
                    presented.layout.presentations == [
                        PresentationLayout(vc: "compose", style: .formSheet, effectiveStyle: .formSheet)
                    ])
                #expect(presented.events.contains(.presented(vc: "compose", style: .formSheet)))
                let narrow = try connection.resize("mail", to: IPadPro129.oneThird)
                // Compact width: formSheet adapts to pageSheet; the request is remembered.
                #expect(
                    narrow.layout.presentations == [
                        PresentationLayout(vc: "compose", style: .formSheet, effectiveStyle: .pageSheet)
                    ])
                let dismissed = try connection.intent("mail", .dismiss)
                #expect(dismissed.layout.presentations.isEmpty)
                #expect(dismissed.events.contains(.dismissed(vc: "compose")))
            }
        }

        @Test func displayModeActionsOnALandscapeTile() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "mail", device: IPadPro129.device,
                    config: ["style": "doubleColumn", "roots": ["primary": "inbox", "secondary": "detail"]])
                // tile + doubleColumn: the button toggles oneBesideSecondary <-> secondaryOnly.
                let hidden = try connection.intent("mail", .displayModeButton)
                #expect(hidden.layout.displayMode == .secondaryOnly)
                #expect(hidden.layout.column(.primary)?.visible == false)
                #expect(hidden.events.contains(.displayModeChanged(from: .oneBesideSecondary, to: .secondaryOnly)))
                let shown = try connection.intent("mail", .gesture)
                #expect(shown.layout.displayMode == .oneBesideSecondary)

                let preferred = try connection.intent("mail", .setPreferredDisplayMode(.secondaryOnly))
                #expect(preferred.layout.displayMode == .secondaryOnly)
                #expect(preferred.layout.column(.secondary)?.x == 0)
                #expect(preferred.layout.column(.secondary)?.width == IPadPro129.landscape.width)
            }
        }

        @Test func overlayActionsInPortrait() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "mail", device: IPadPro129.device, size: IPadPro129.portrait,
                    config: ["style": "doubleColumn", "roots": ["primary": "inbox", "secondary": "detail"]])
                // Portrait, automatic: overlay behavior, secondaryOnly.
                let start = try connection.getScene("mail").layout
                #expect(start.splitBehavior == .overlay)
                #expect(start.displayMode == .secondaryOnly)

                let shown = try connection.intent("mail", .showColumn(.primary))
                #expect(shown.layout.displayMode == .oneOverSecondary)
                let primary = try #require(shown.layout.column(.primary))
                let secondary = try #require(shown.layout.column(.secondary))
                #expect(primary.visible && primary.overlay && primary.x == 0)
                #expect(secondary.dimmed && secondary.x == 0 && secondary.width == IPadPro129.portrait.width)

                let tapped = try connection.intent("mail", .tapDimmed)
                #expect(tapped.layout.displayMode == .secondaryOnly)

                try connection.intent("mail", .displayModeButton)
                let hidden = try connection.intent("mail", .hideColumn(.primary))
                #expect(hidden.layout.displayMode == .secondaryOnly)
                // Ignored for the secondary, and when already hidden: no change.
                let ignored = try connection.intent("mail", .hideColumn(.primary))
                #expect(ignored.revision == hidden.revision && ignored.events.isEmpty)
            }
        }

        @Test func setConfigChangesTheStyle() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let triple = try connection.intent("mail", ["kind": "setConfig", "config": ["style": "tripleColumn"]])
                #expect(triple.revision == 2)
                #expect(triple.layout.columns.map(\.column) == [.primary, .supplementary, .secondary])
                var patch = SplitConfigPatch()
                patch.preferredPrimaryColumnWidth = .some(250)
                patch.style = .doubleColumn
                let narrower = try connection.intent("mail", .setConfig(patch))
                #expect(narrower.layout.column(.primary)?.width == 250)
                #expect(narrower.layout.column(.secondary)?.x == 250)
                #expect(
                    serverErrorCode {
                        try connection.intent(
                            "mail", ["kind": "setConfig", "config": ["minimumPrimaryColumnWidth": -400]])
                    } == "bad_request")
                // A minimum above the maximum wins (as CSS's min-width): 400, not 300.
                let widest = try connection.intent(
                    "mail",
                    [
                        "kind": "setConfig",
                        "config": ["minimumPrimaryColumnWidth": 400, "maximumPrimaryColumnWidth": 300],
                    ])
                #expect(widest.layout.column(.primary)?.width == 400)
            }
        }

        @Test func everyIntentKindOfWireIsAccepted() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene(
                    "all", device: IPadPro129.device, size: IPadPro129.portrait,
                    config: [
                        "style": "doubleColumn", "roots": ["primary": "inbox", "secondary": "detail"],
                        "tabs": [["root": "a"], ["root": "b"]],
                    ])
                let intents: [Intent] = [
                    .push(column: .primary, vc: "p1"), .pop(column: .primary), .push(column: .secondary, vc: "s1"),
                    .popToRoot(column: .secondary), .show(vc: "p2", column: .primary), .showDetail(vc: "d1"),
                    .selectTab(index: 1), .present(vc: "m", style: .popover), .dismiss,
                    .setPreferredDisplayMode(.oneOverSecondary), .setPreferredDisplayMode(.automatic),
                    .displayModeButton, .tapDimmed, .gesture, .showColumn(.primary), .hideColumn(.primary),
                    .setConfig(SplitConfigPatch()),
                ]
                #expect(Set(intents.map(\.kind)).union(["back"]) == Set(Intent.allKinds))
                // Revision 2's kind, and the fields revision 2 adds to present.
                let wire: [JSONValue] =
                    intents.map { intent in
                        // On this iPad (regular both ways) a popover shows as one: it needs an anchor.
                        guard case .present(let vc, .popover) = intent else { return intent.wireObject }
                        return [
                            "kind": "present", "vc": .string(vc), "style": "popover", "anchor": "displayModeButton",
                        ]
                    } + [["kind": "activation", "state": "foregroundInactive"]]
                for intent in wire {
                    let before = try connection.getScene("all").revision
                    let reply = try connection.intent("all", intent)
                    #expect(reply.revision == before || reply.revision == before + 1, "\(intent)")
                    #expect(reply.revision == before ? reply.timeline.isEmpty : true, "\(intent)")
                }
                // `back` is refused or accepted, but always answered.
                _ = try rawResponse(connection, "intent", ["scene": "all", "intent": ["kind": "back"]])
                let unknownKind = try rawResponse(
                    connection, "intent", ["scene": "all", "intent": ["kind": "teleport"]])
                #expect(["bad_request", "invalid_intent"].contains(errorCode(of: unknownKind)))
            }
        }

        @Test func aStaleBaseRevisionIsAConflictAndChangesNothing() throws {
            try withDaemon { daemon in
                let alice = try daemon.client("alice")
                let bob = try daemon.client("bob")
                let created = try alice.createScene("doc", device: IPadPro129.device, config: mailConfig)
                let bobs = try bob.intent("doc", .push(column: .primary, vc: "bob"), baseRevision: created.revision)
                #expect(bobs.revision == created.revision + 1)
                // Alice still thinks the scene is at revision 1.
                #expect(
                    serverErrorCode {
                        try alice.intent("doc", .push(column: .primary, vc: "alice"), baseRevision: created.revision)
                    } == "conflict")
                #expect(
                    serverErrorCode { try alice.resize("doc", to: IPadPro129.half, baseRevision: created.revision) }
                        == "conflict")
                let now = try alice.getScene("doc")
                #expect(now.revision == bobs.revision)
                #expect(now.layout == bobs.layout)
                // With the current revision it goes through.
                let alices = try alice.intent("doc", .push(column: .primary, vc: "alice"), baseRevision: now.revision)
                #expect(alices.layout.column(.primary)?.stack == ["inbox", "bob", "alice"])
                // A base revision from the future is a conflict too, and said to be ahead.
                do {
                    try alice.resize("doc", to: IPadPro129.half, baseRevision: alices.revision + 5)
                    Issue.record("a base revision from the future was accepted")
                } catch let error as ClientError {
                    #expect(
                        error
                            == .server(
                                code: "conflict",
                                message:
                                    "baseRevision \(alices.revision + 5) is ahead of the scene: scene 'doc' is at revision \(alices.revision)"
                            ))
                }
            }
        }

        @Test func aTooDeepStackIsLimitExceeded() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("deep", device: IPadPro129.device, config: mailConfig)
                var ids: [JSONValue] = []
                for index in 0..<300 {
                    ids.append(
                        try connection.send(
                            op: "intent",
                            [
                                "scene": "deep",
                                "intent": ["kind": "push", "column": "primary", "vc": .string("v\(index)")],
                            ]))
                }
                var accepted = 0
                var codes: Set<String> = []
                for id in ids {
                    let response = try connection.response(to: id)
                    if let code = errorCode(of: response) { codes.insert(code) } else { accepted += 1 }
                }
                #expect(codes == ["limit_exceeded"])
                #expect(accepted > 0 && accepted < 300)
                let stack = try #require(try connection.getScene("deep").layout.column(.primary)?.stack)
                #expect(stack.count == accepted + 1)
                #expect(try connection.getScene("deep").revision == accepted + 1)
            }
        }
    }
}
