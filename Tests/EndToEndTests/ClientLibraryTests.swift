import SplitClient
import SplitCore
import SplitWire
import Testing

/// SplitClient's pure parts (no daemon): request building agrees with the wire decoder,
/// framing, socket path resolution, response interpretation.
@Suite struct ClientLibrary {
    static let intents: [Intent] = [
        .push(column: .primary, vc: "a"), .pop(column: .secondary), .popToRoot(column: .supplementary),
        .show(vc: "b", column: .primary), .showDetail(vc: "c"), .back, .selectTab(index: 2),
        .present(vc: "d", style: .formSheet), .dismiss, .setPreferredDisplayMode(.twoDisplaceSecondary),
        .displayModeButton, .gesture, .tapDimmed, .showColumn(.primary), .hideColumn(.supplementary),
        .setConfig(SplitConfigPatch()), .setConfig(ClientLibrary.fullPatch),
    ]

    /// A patch that sets every field, with both kinds of resettable values.
    static var fullPatch: SplitConfigPatch {
        var patch = SplitConfigPatch()
        patch.style = .tripleColumn
        patch.preferredDisplayMode = .oneOverSecondary
        patch.preferredSplitBehavior = .overlay
        patch.preferredPrimaryColumnWidth = .some(nil)
        patch.preferredPrimaryColumnWidthFraction = .some(0.25)
        patch.minimumPrimaryColumnWidth = 100
        patch.maximumPrimaryColumnWidth = 400.5
        patch.preferredSupplementaryColumnWidth = .some(300)
        patch.preferredSupplementaryColumnWidthFraction = .some(nil)
        patch.minimumSupplementaryColumnWidth = 10
        patch.maximumSupplementaryColumnWidth = 500
        patch.primaryEdge = .trailing
        patch.layoutDirection = .rtl
        patch.presentsWithGesture = false
        patch.showsSecondaryOnlyButton = true
        patch.roots = ColumnRoots(primary: "p", supplementary: "s", secondary: "d", compact: "c")
        patch.placeholder = .some("empty")
        patch.tabs = [TabConfig(root: "chats", title: "Chats"), TabConfig(root: "me")]
        patch.collapsePolicy = .moveDetailExceptRoot
        patch.expandPolicy = .moveAllButRoot
        patch.topColumnForCollapsing = .lastNavigated
        patch.detailRouting = .resetAndPush
        patch.backBehavior = .popUntilLayoutChange
        patch.sizePolicy = .smallest
        return patch
    }

    @Test(arguments: intents)
    func intentObjectsDecodeBackToTheSameIntent(intent: Intent) throws {
        let request: JSONValue = [
            "id": 1, "op": "intent", "scene": "s", "intent": intent.wireObject, "baseRevision": 3,
        ]
        let decoded = try RequestDecoder.decode(JSONWriter.string(request))
        #expect(decoded.op == .intent(scene: "s", intent: intent, baseRevision: 3))
    }

    @Test func everyIntentKindIsCovered() {
        #expect(Set(ClientLibrary.intents.map(\.kind)) == Set(Intent.allKinds))
    }

    @Test func sizesAreWrittenAsWireObjects() throws {
        let size = Size(width: 678.5, height: 1024)
        #expect(size.wireObject == ["width": 678.5, "height": 1024])
        #expect(try Size(json: size.wireObject) == size)
    }

    @Test func lineBufferSplitsLinesAcrossChunks() throws {
        var buffer = LineBuffer()
        buffer.append(Array("{\"a\":1}\n{\"b\"".utf8))
        #expect(try buffer.nextLine() == Array("{\"a\":1}".utf8))
        #expect(try buffer.nextLine() == nil)
        buffer.append(Array(":2}\n\n{\"c\":3}\n".utf8))
        #expect(try buffer.nextLine() == Array("{\"b\":2}".utf8))
        #expect(try buffer.nextLine() == [])
        #expect(try buffer.nextLine() == Array("{\"c\":3}".utf8))
        #expect(try buffer.nextLine() == nil)
        #expect(buffer.bufferedCount == 0)
    }

    @Test func lineBufferKeepsByteOrderOverManySmallChunks() throws {
        var buffer = LineBuffer()
        let lines = (0..<500).map { "line-\($0)-" + String(repeating: "x", count: $0 % 37) }
        let stream = Array(lines.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
        var received: [String] = []
        var offset = 0
        var chunk = 1
        while offset < stream.count {
            let end = min(stream.count, offset + chunk)
            buffer.append(Array(stream[offset..<end]))
            while let line = try buffer.nextLine() { received.append(String(decoding: line, as: UTF8.self)) }
            offset = end
            chunk = chunk % 97 + 13
        }
        #expect(received == lines)
    }

    @Test func lineBufferRefusesALineOverItsMaximum() {
        var buffer = LineBuffer(maximumLineLength: 16)
        buffer.append(Array(repeating: UInt8(ascii: "x"), count: 17))
        #expect(throws: ClientError.self) { try buffer.nextLine() }
    }

    @Test func socketPathResolutionOrder() {
        #expect(
            resolveSocketPath(
                explicit: "/a.sock", environment: ["SPLITD_SOCKET": "/b.sock", "XDG_RUNTIME_DIR": "/run/user/1"])
                == "/a.sock")
        #expect(
            resolveSocketPath(
                explicit: nil, environment: ["SPLITD_SOCKET": "/b.sock", "XDG_RUNTIME_DIR": "/run/user/1"]) == "/b.sock"
        )
        #expect(
            resolveSocketPath(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1"])
                == "/run/user/1/splitd/splitd.sock")
        #expect(
            resolveSocketPath(explicit: nil, environment: ["SPLITD_SOCKET": "", "XDG_RUNTIME_DIR": ""])
                == "/run/splitd/splitd.sock")
        #expect(resolveSocketPath(explicit: nil, environment: [:]) == "/run/splitd/splitd.sock")
    }

    /// A relative runtime directory is ignored by the library as by the daemon's default
    /// (`DefaultPaths.socket`), so a client of the library and a daemon started in the same
    /// environment meet at one socket.
    @Test func relativeRuntimeDirectoryIsIgnoredAsByTheDaemon() {
        for runtime in ["run/user/1", "./run", "relative"] {
            #expect(
                resolveSocketPath(explicit: nil, environment: ["XDG_RUNTIME_DIR": runtime]) == "/run/splitd/splitd.sock"
            )
        }
    }

    @Test func resultOfAResponse() throws {
        let ok: JSONValue = ["id": 4, "ok": true, "revision": 7]
        #expect(try result(of: ok) == ["revision": 7])
        let failed: JSONValue = ["id": 4, "ok": false, "error": ["code": "conflict", "message": "stale"]]
        #expect(throws: ClientError.server(code: "conflict", message: "stale")) { try result(of: failed) }
        #expect(throws: ClientError.self) { try result(of: ["id": 4, "revision": 7]) }
        #expect(throws: ClientError.self) { try result(of: ["id": 4, "ok": false]) }
    }

    @Test func connectingToNothingSaysSo() {
        #expect(throws: ClientError.noSocket(path: "/nonexistent/dir/s.sock")) {
            _ = try SplitConnection.connect(to: "/nonexistent/dir/s.sock", timeout: .seconds(1))
        }
        let tooLong = "/tmp/" + String(repeating: "p", count: 200)
        #expect(throws: ClientError.pathTooLong(path: tooLong)) {
            _ = try SplitConnection.connect(to: tooLong, timeout: .seconds(1))
        }
        // Waiting for a daemon that never comes ends at the deadline.
        #expect(throws: ClientError.self) {
            _ = try SplitConnection.connectWhenReady(to: "/nonexistent/dir/s.sock", within: .milliseconds(200))
        }
    }
}
