import SplitCore
import SplitWire
import Testing

/// Decoding of every op and every refusal, from request text as WIRE.md writes it.
@Suite("RequestDecoder")
struct RequestDecoderTests {
    private func decode(_ line: String) throws(RequestFailure) -> Request {
        try RequestDecoder.decode(line)
    }

    private func failure(_ line: String) -> RequestFailure? {
        do throws(RequestFailure) {
            let request = try decode(line)
            Issue.record("accepted: \(request)")
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "decodes every op of WIRE.md with its parameters",
        arguments: [
            (
                #"{"id":1,"op":"hello","protocol":1,"client":"splitctl"}"#,
                Request.Operation.hello(protocol: 1, client: "splitctl")
            ),
            (#"{"id":1,"op":"hello","protocol":1}"#, .hello(protocol: 1, client: nil)),
            (
                #"{"id":1,"op":"scene.create","scene":"s1","device":"ipad-pro-12.9"}"#,
                .sceneCreate(scene: "s1", device: "ipad-pro-12.9", size: nil, config: nil)
            ),
            (
                #"{"id":1,"op":"scene.create","scene":"s1","device":"material","size":{"width":800,"height":600.5}}"#,
                .sceneCreate(scene: "s1", device: "material", size: Size(width: 800, height: 600.5), config: nil)
            ),
            (#"{"id":1,"op":"scene.get","scene":"s1"}"#, .sceneGet(scene: "s1")),
            (#"{"id":1,"op":"scene.list"}"#, .sceneList),
            (#"{"id":1,"op":"scene.delete","scene":"s1"}"#, .sceneDelete(scene: "s1")),
            (
                #"{"id":1,"op":"scene.attach","scene":"s1","role":"viewer"}"#,
                .sceneAttach(scene: "s1", role: .viewer, size: nil)
            ),
            (
                #"{"id":1,"op":"scene.attach","scene":"s1","role":"window","size":{"width":375,"height":667}}"#,
                .sceneAttach(scene: "s1", role: .window, size: Size(width: 375, height: 667))
            ),
            (
                #"{"id":1,"op":"scene.attach","scene":"s1","role":"viewer","notices":["deleted"]}"#,
                .sceneAttach(scene: "s1", role: .viewer, size: nil, notices: .deleted)
            ),
            (
                #"{"id":1,"op":"scene.attach","scene":"s1","role":"viewer","notices":[]}"#,
                .sceneAttach(scene: "s1", role: .viewer, size: nil)
            ),
            // A notice this daemon does not know is ignored (it is simply not sent).
            (
                #"{"id":1,"op":"scene.attach","scene":"s1","role":"viewer","notices":["moved","deleted"]}"#,
                .sceneAttach(scene: "s1", role: .viewer, size: nil, notices: .deleted)
            ),
            (#"{"id":1,"op":"scene.detach","scene":"s1"}"#, .sceneDetach(scene: "s1")),
            (
                #"{"id":1,"op":"resize","scene":"s1","width":1366,"height":1024}"#,
                .resize(scene: "s1", size: Size(width: 1366, height: 1024), baseRevision: nil)
            ),
            (
                #"{"id":1,"op":"resize","scene":"s1","width":678.5,"height":1024,"baseRevision":7}"#,
                .resize(scene: "s1", size: Size(width: 678.5, height: 1024), baseRevision: 7)
            ),
            (
                #"{"id":1,"op":"intent","scene":"s1","intent":{"kind":"back"},"baseRevision":3}"#,
                .intent(scene: "s1", intent: .back, baseRevision: 3)
            ),
            (
                #"{"id":1,"op":"snapshot","scene":"s1","preset":"appSwitcher"}"#,
                .snapshot(scene: "s1", target: .preset("appSwitcher"))
            ),
            (
                #"{"id":1,"op":"snapshot","scene":"s1","sizes":[{"width":1024,"height":1366},{"width":375,"height":1024}]}"#,
                .snapshot(
                    scene: "s1", target: .sizes([Size(width: 1024, height: 1366), Size(width: 375, height: 1024)]))
            ),
            (#"{"id":1,"op":"snapshot.list","scene":"s1"}"#, .snapshotList(scene: "s1")),
            (#"{"id":1,"op":"snapshot.get","session":"s-9"}"#, .snapshotGet(session: "s-9")),
            (#"{"id":1,"op":"snapshot.get","session":42}"#, .snapshotGet(session: "42")),
            (#"{"id":1,"op":"stats"}"#, .stats),
            (#"{"id":1,"op":"ping"}"#, .ping),
            (#"{"id":1,"op":"devices"}"#, .devices),
        ])
    func decodesOps(line: String, expected: Request.Operation) throws {
        let request = try decode(line)
        #expect(request.op == expected)
        #expect(request.id == .int(1))
        #expect(request.op.name == (try JSONParser.parse(line))["op"]?.string)
    }

    @Test(
        "decodes every intent kind with its fields",
        arguments: [
            (#"{"kind":"push","column":"secondary","vc":"chat"}"#, Intent.push(column: .secondary, vc: "chat")),
            (#"{"kind":"pop","column":"primary"}"#, .pop(column: .primary)),
            (#"{"kind":"popToRoot","column":"supplementary"}"#, .popToRoot(column: .supplementary)),
            (#"{"kind":"show","vc":"photo","column":"primary"}"#, .show(vc: "photo", column: .primary)),
            (#"{"kind":"showDetail","vc":"chat"}"#, .showDetail(vc: "chat")),
            (#"{"kind":"back"}"#, .back),
            (#"{"kind":"selectTab","index":2}"#, .selectTab(index: 2)),
            (#"{"kind":"selectTab","index":-1}"#, .selectTab(index: -1)),
            (#"{"kind":"present","vc":"compose","style":"formSheet"}"#, .present(vc: "compose", style: .formSheet)),
            (#"{"kind":"present","vc":"compose"}"#, .present(vc: "compose", style: .pageSheet)),
            (#"{"kind":"dismiss"}"#, .dismiss),
            (
                #"{"kind":"setPreferredDisplayMode","mode":"twoBesideSecondary"}"#,
                .setPreferredDisplayMode(.twoBesideSecondary)
            ),
            (#"{"kind":"setPreferredDisplayMode","mode":"allVisible"}"#, .setPreferredDisplayMode(.oneBesideSecondary)),
            (#"{"kind":"setPreferredDisplayMode","mode":"primaryHidden"}"#, .setPreferredDisplayMode(.secondaryOnly)),
            (
                #"{"kind":"setPreferredDisplayMode","mode":"primaryOverlay"}"#,
                .setPreferredDisplayMode(.oneOverSecondary)
            ),
            (#"{"kind":"displayModeButton"}"#, .displayModeButton),
            (#"{"kind":"gesture"}"#, .gesture),
            (#"{"kind":"tapDimmed"}"#, .tapDimmed),
            (#"{"kind":"showColumn","column":"primary"}"#, .showColumn(.primary)),
            (#"{"kind":"hideColumn","column":"supplementary"}"#, .hideColumn(.supplementary)),
        ])
    func decodesIntents(intent: String, expected: Intent) throws {
        let request = try decode(#"{"id":"i","op":"intent","scene":"s","intent":"# + intent + "}")
        #expect(request.op == .intent(scene: "s", intent: expected, baseRevision: nil))
    }

    @Test("every intent kind of the core is decodable")
    func allKindsCovered() {
        for kind in Intent.allKinds {
            let line = #"{"id":1,"op":"intent","scene":"s","intent":{"kind":""# + kind + #""}}"#
            do throws(RequestFailure) {
                _ = try decode(line)
            } catch {
                // Kinds with required fields are refused for the missing field, never the kind.
                #expect(!error.error.message.contains("unknown intent kind"), "\(kind): \(error)")
                #expect(error.error.message.contains("missing field 'intent."), "\(kind): \(error)")
            }
        }
    }

    @Test("decodes setConfig and scene.create config with every field")
    func decodesConfig() throws {
        let config = #"""
            {"style":"tripleColumn","preferredDisplayMode":"allVisible","preferredSplitBehavior":"tile",
             "preferredPrimaryColumnWidth":300,"preferredPrimaryColumnWidthFraction":null,
             "minimumPrimaryColumnWidth":200,"maximumPrimaryColumnWidth":400,
             "preferredSupplementaryColumnWidth":"automatic","preferredSupplementaryColumnWidthFraction":0.3,
             "minimumSupplementaryColumnWidth":100,"maximumSupplementaryColumnWidth":350.5,
             "primaryEdge":"trailing","layoutDirection":"rtl","presentsWithGesture":false,"showsSecondaryOnlyButton":true,
             "roots":{"primary":"tabs","secondary":"empty"},"placeholder":"empty",
             "tabs":[{"root":"chats"},{"root":"contacts","title":"Contacts"}],
             "collapsePolicy":"moveDetailExceptRoot","expandPolicy":"moveAllButRoot",
             "topColumnForCollapsing":"lastNavigated",
             "detailRouting":"resetAndPush","backBehavior":"popUntilLayoutChange","sizePolicy":"largest"}
            """#
        var expected = SplitConfigPatch()
        expected.style = .tripleColumn
        expected.preferredDisplayMode = .oneBesideSecondary
        expected.preferredSplitBehavior = .tile
        expected.preferredPrimaryColumnWidth = .some(300)
        expected.preferredPrimaryColumnWidthFraction = .some(nil)
        expected.minimumPrimaryColumnWidth = 200
        expected.maximumPrimaryColumnWidth = 400
        expected.preferredSupplementaryColumnWidth = .some(nil)
        expected.preferredSupplementaryColumnWidthFraction = .some(0.3)
        expected.minimumSupplementaryColumnWidth = 100
        expected.maximumSupplementaryColumnWidth = 350.5
        expected.primaryEdge = .trailing
        expected.layoutDirection = .rtl
        expected.presentsWithGesture = false
        expected.showsSecondaryOnlyButton = true
        expected.roots = ColumnRoots(primary: "tabs", secondary: "empty")
        expected.placeholder = .some("empty")
        expected.tabs = [TabConfig(root: "chats"), TabConfig(root: "contacts", title: "Contacts")]
        expected.collapsePolicy = .moveDetailExceptRoot
        expected.expandPolicy = .moveAllButRoot
        expected.topColumnForCollapsing = .lastNavigated
        expected.detailRouting = .resetAndPush
        expected.backBehavior = .popUntilLayoutChange
        expected.sizePolicy = .largest

        let intent = try decode(
            #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","config":"#
                + config + "}}")
        #expect(intent.op == .intent(scene: "s", intent: .setConfig(expected), baseRevision: nil))
        let create = try decode(
            #"{"id":1,"op":"scene.create","scene":"s","device":"ipad-pro-11","config":"#
                + config + "}")
        #expect(create.op == .sceneCreate(scene: "s", device: "ipad-pro-11", size: nil, config: expected))

        // Absent fields stay unset; null placeholder means "none".
        let partial = try decode(
            #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","config":{"placeholder":null}}}"#)
        var none = SplitConfigPatch()
        none.placeholder = .some(nil)
        #expect(partial.op == .intent(scene: "s", intent: .setConfig(none), baseRevision: nil))
    }

    @Test("keeps the id: integers exactly, strings as given")
    func ids() throws {
        #expect(try decode(#"{"id":9007199254740993,"op":"ping"}"#).id == .int(9_007_199_254_740_993))
        #expect(try decode(#"{"id":"req-1","op":"ping"}"#).id == .string("req-1"))
        #expect(try decode(#"{"id":3.0,"op":"ping"}"#).id == .int(3))
        #expect(try decode(#"{"op":"ping","id":-4}"#).id == .int(-4))
        #expect(try decode(#"{"id":9223372036854775807,"op":"ping"}"#).id == .int(.max))
        #expect(try decode(#"{"id":-9223372036854775808,"op":"ping"}"#).id == .int(.min))
        #expect(try decode(#"{"id":1e3,"op":"ping"}"#).id == .int(1000))
        #expect(try decode(#"{"id":-9007199254740991.0,"op":"ping"}"#).id == .int(-9_007_199_254_740_991))
        #expect(try decode(#"{"id":45.00e1,"op":"ping"}"#).id == .int(450))
    }

    @Test("refuses a parameter the op does not take, naming it (WIRE.md revision 2)")
    func extraParameters() throws {
        let refused = failure(#"{"id":1,"op":"scene.get","scene":"s","future":{"x":[1]}}"#)
        #expect(refused?.error.code == .badRequest)
        #expect(refused?.id == .int(1))
        #expect(refused?.error.message.hasPrefix("unknown field 'future' for op 'scene.get'") == true)
        let intent = failure(#"{"id":2,"op":"intent","scene":"s","intent":{"kind":"back","animated":true}}"#)
        #expect(intent?.error.code == .badRequest)
        #expect(intent?.error.message.hasPrefix("unknown field 'intent.animated'") == true)
        // Revision 2's own fields are known.
        #expect(
            try decode(
                #"{"id":3,"op":"resize","scene":"s","width":320,"height":980,"interfaceOrientation":"portrait"}"#
            )
            .op
                == .command(
                    scene: "s", command: .resize(Size(width: 320, height: 980), interfaceOrientation: .portrait),
                    baseRevision: nil))
        #expect(
            try decode(#"{"id":4,"op":"intent","scene":"s","intent":{"kind":"activation","state":"background"}}"#).op
                == .command(scene: "s", command: .activation(.background, backgroundSession: ""), baseRevision: nil))
    }

    @Test("accepts the line with its newline and carriage return")
    func lineTerminators() throws {
        #expect(try decode("{\"id\":1,\"op\":\"ping\"}\n").op == .ping)
        #expect(try decode("{\"id\":1,\"op\":\"ping\"}\r\n").op == .ping)
    }

    @Test(
        "not JSON or not an object, with no id to read: bad_json with id null",
        arguments: [
            "", "hello", "[1,2]", "\"ping\"", "42", "null", "[{\"id\":1}", "{\"op\":\"ping\",}",
            "{\"id\":1,\"id\":2,\"op\":\"ping\"}", "{\"id\":1,\"op\":\"ping\",\"id\":[",
            "{\"id\":[1],\"op\":\"ping\",}", "{\"id\":\"cut", "{\"op\":\"ping\" x \"id\":1}", "{id:1}",
        ])
    func badJSON(line: String) {
        let failure = failure(line)
        #expect(failure?.error.code == .badJSON)
        #expect(failure?.id == nil)
        #expect(failure?.error.message.isEmpty == false)
    }

    @Test(
        "not JSON, but the object it opens has an id before what broke it: bad_json echoing the id",
        arguments: [
            ("{\"id\":1,\"op\":\"ping\"", RequestID.int(1)),
            ("{\"id\":1,}", .int(1)),
            ("{\"id\":1,\"op\":\"ping\"} {}", .int(1)),
            (" { \"op\" : \"ping\" , \"id\" : \"r-9\" ,", .string("r-9")),
            ("{\"op\":\"ping\",\"id\":12", .int(12)),
            ("{\"id\":7 \"op\":\"ping\"}", .int(7)),
            ("{\"id\":7,\"op\":\"ping\",\"op\":\"ping\"}", .int(7)),
        ])
    func badJSONWithReadableID(line: String, id: RequestID) {
        let failure = failure(line)
        #expect(failure?.error.code == .badJSON)
        #expect(failure?.id == id)
    }

    @Test(
        "missing or non-string op: bad_request, id echoed when readable",
        arguments: [
            (#"{"id":7}"#, RequestID?.some(.int(7))),
            (#"{"id":"x","op":null}"#, .string("x")),
            (#"{"id":"x","op":3}"#, .string("x")),
            (#"{"op":{"name":"ping"}}"#, nil),
            (#"{"id":[1],"scene":"s"}"#, nil),
        ])
    func missingOp(line: String, id: RequestID?) {
        let failure = failure(line)
        #expect(failure?.error.code == .badRequest)
        #expect(failure?.id == id)
        #expect(failure?.error.message.contains("'op'") == true)
    }

    @Test(
        "missing or invalid id: bad_request with id null",
        arguments: [
            #"{"op":"ping"}"#, #"{"id":null,"op":"ping"}"#, #"{"id":1.5,"op":"ping"}"#, #"{"id":true,"op":"ping"}"#,
            #"{"id":{"a":1},"op":"ping"}"#, #"{"id":1e30,"op":"ping"}"#,
            // Read as a Double that is another integer: echoing it would answer with another id.
            #"{"id":-9223372036854775809,"op":"ping"}"#, #"{"id":9223372036854775808,"op":"ping"}"#,
            #"{"id":9007199254740993.0,"op":"ping"}"#, #"{"id":9.007199254740993e15,"op":"ping"}"#,
            #"{"id":9.223372036854775808e18,"op":"ping"}"#, #"{"id":4503599627370497.5,"op":"ping"}"#,
            #"{"id":1.0000000000000001,"op":"ping"}"#, #"{"id":1e-400,"op":"ping"}"#, #"{"id":35e-1,"op":"ping"}"#,
            #"{"id":-9223372036854775809,"op":"resize","scene":"s","width":700,"height":1024}"#,
        ])
    func invalidID(line: String) {
        let failure = failure(line)
        #expect(failure?.error.code == .badRequest)
        #expect(failure?.id == nil)
        #expect(failure?.error.message.contains("'id'") == true)
    }

    @Test("unknown op: unknown_op naming it, id echoed")
    func unknownOp() {
        let failure = failure(#"{"id":"q","op":"scene.rename","scene":"s"}"#)
        #expect(failure?.error.code == .unknownOp)
        #expect(failure?.id == .string("q"))
        #expect(failure?.error.message.contains("scene.rename") == true)
    }

    @Test(
        "missing or invalid parameters: bad_request naming the field",
        arguments: [
            (#"{"id":1,"op":"hello"}"#, "protocol"),
            (#"{"id":1,"op":"hello","protocol":"1"}"#, "protocol"),
            (#"{"id":1,"op":"hello","protocol":1.5}"#, "protocol"),
            (#"{"id":1,"op":"hello","protocol":1,"client":7}"#, "client"),
            (#"{"id":1,"op":"scene.create","device":"ipad-pro-11"}"#, "scene"),
            (#"{"id":1,"op":"scene.create","scene":"s"}"#, "device"),
            (#"{"id":1,"op":"scene.create","scene":"","device":"mac"}"#, "scene"),
            (#"{"id":1,"op":"scene.create","scene":"has space","device":"mac"}"#, "scene"),
            (#"{"id":1,"op":"scene.create","scene":"a/b","device":"mac"}"#, "scene"),
            (#"{"id":1,"op":"scene.create","scene":"s","device":"mac","size":{"width":0,"height":10}}"#, "size.width"),
            (#"{"id":1,"op":"scene.create","scene":"s","device":"mac","size":[1,2]}"#, "size"),
            (#"{"id":1,"op":"scene.create","scene":"s","device":"mac","config":{"style":"quad"}}"#, "config.style"),
            (#"{"id":1,"op":"scene.create","scene":"s","device":"mac","config":{"colour":"red"}}"#, "config.colour"),
            (#"{"id":1,"op":"scene.create","scene":"s","device":"mac","config":"classic"}"#, "config"),
            (#"{"id":1,"op":"scene.get"}"#, "scene"),
            (#"{"id":1,"op":"scene.get","scene":5}"#, "scene"),
            (#"{"id":1,"op":"scene.delete"}"#, "scene"),
            (#"{"id":1,"op":"scene.attach","scene":"s","role":"owner"}"#, "role"),
            // `role` is required (WIRE.md), with or without a size.
            (#"{"id":1,"op":"scene.attach","scene":"s"}"#, "role"),
            (#"{"id":1,"op":"scene.attach","scene":"s","size":{"width":375,"height":667}}"#, "role"),
            (#"{"id":1,"op":"scene.attach","scene":"s","role":"viewer","notices":"deleted"}"#, "notices"),
            (#"{"id":1,"op":"scene.attach","scene":"s","role":"viewer","notices":[1]}"#, "notices[0]"),
            (#"{"id":1,"op":"scene.attach","scene":"s","role":"window","size":{"width":10}}"#, "size.height"),
            (#"{"id":1,"op":"scene.detach"}"#, "scene"),
            (#"{"id":1,"op":"resize","scene":"s","height":10}"#, "width"),
            (#"{"id":1,"op":"resize","scene":"s","width":10}"#, "height"),
            (#"{"id":1,"op":"resize","scene":"s","width":0,"height":10}"#, "width"),
            (#"{"id":1,"op":"resize","scene":"s","width":-5,"height":10}"#, "width"),
            (#"{"id":1,"op":"resize","scene":"s","width":10,"height":100000.5}"#, "height"),
            (#"{"id":1,"op":"resize","scene":"s","width":1e300,"height":10}"#, "width"),
            (#"{"id":1,"op":"resize","scene":"s","width":"10","height":10}"#, "width"),
            (#"{"id":1,"op":"resize","scene":"s","width":10,"height":10,"baseRevision":-1}"#, "baseRevision"),
            (#"{"id":1,"op":"resize","scene":"s","width":10,"height":10,"baseRevision":"3"}"#, "baseRevision"),
            // Whole-looking, but past 2^53 a number with a fraction or exponent may be a rounded neighbour.
            (
                #"{"id":1,"op":"resize","scene":"s","width":10,"height":10,"baseRevision":9007199254740993.0}"#,
                "baseRevision"
            ),
            (#"{"id":1,"op":"resize","scene":"s","width":10,"height":10,"baseRevision":1e18}"#, "baseRevision"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"selectTab","index":1e20}}"#, "intent.index"),
            (#"{"id":1,"op":"resize","width":10,"height":10}"#, "scene"),
            (#"{"id":1,"op":"intent","scene":"s"}"#, "intent"),
            (#"{"id":1,"op":"intent","scene":"s","intent":"back"}"#, "intent"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{}}"#, "intent.kind"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"teleport"}}"#, "intent.kind"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"push","column":"primary"}}"#, "intent.vc"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"push","vc":"x"}}"#, "intent.column"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"push","column":"primary","vc":""}}"#, "intent.vc"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"selectTab"}}"#, "intent.index"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"selectTab","index":1.5}}"#, "intent.index"),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"present","vc":"x","style":"sheet"}}"#,
                "intent.style"
            ),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setPreferredDisplayMode","mode":"sideBySide"}}"#,
                "intent.mode"
            ),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setPreferredDisplayMode"}}"#, "intent.mode"),
            (#"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig"}}"#, "intent.config"),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","config":{"tabs":[{"title":"x"}]}}}"#,
                "intent.config.tabs[0].root"
            ),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","#
                    + #""config":{"tabs":[{"root":"a","colour":"red"}]}}}"#,
                "intent.config.tabs[0].colour"
            ),
            (
                #"{"id":1,"op":"scene.create","scene":"s","device":"mac","#
                    + #""config":{"tabs":[{"root":"a"},{"root":"b","badge":3}]}}"#,
                "config.tabs[1].badge"
            ),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","#
                    + #""config":{"preferredPrimaryColumnWidth":"wide"}}}"#,
                "intent.config.preferredPrimaryColumnWidth"
            ),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","config":{"roots":{"main":"x"}}}}"#,
                "intent.config.roots.main"
            ),
            (
                #"{"id":1,"op":"intent","scene":"s","intent":{"kind":"setConfig","config":{"presentsWithGesture":1}}}"#,
                "intent.config.presentsWithGesture"
            ),
            (#"{"id":1,"op":"snapshot","scene":"s"}"#, "sizes"),
            (#"{"id":1,"op":"snapshot","scene":"s","sizes":[],"preset":"appSwitcher"}"#, "preset"),
            (#"{"id":1,"op":"snapshot","scene":"s","sizes":[]}"#, "sizes"),
            (#"{"id":1,"op":"snapshot","scene":"s","sizes":[{"width":10,"height":0}]}"#, "sizes[0].height"),
            (#"{"id":1,"op":"snapshot","scene":"s","sizes":[{"width":10,"height":10},7]}"#, "sizes[1]"),
            (#"{"id":1,"op":"snapshot.list"}"#, "scene"),
            (#"{"id":1,"op":"snapshot.get"}"#, "session"),
            (#"{"id":1,"op":"snapshot.get","session":true}"#, "session"),
        ])
    func badParameters(line: String, field: String) {
        let failure = failure(line)
        #expect(failure?.error.code == .badRequest)
        #expect(failure?.id == .int(1))
        #expect(failure?.error.message.contains("'\(field)'") == true, "\(failure?.error.message ?? "")")
    }

    @Test(
        "an unknown column name is an invalid intent",
        arguments: [
            #"{"kind":"push","column":"tertiary","vc":"x"}"#, #"{"kind":"pop","column":"left"}"#,
            #"{"kind":"showColumn","column":"sidebar"}"#, #"{"kind":"show","vc":"x","column":"Primary"}"#,
        ])
    func unknownColumn(intent: String) {
        let failure = failure(#"{"id":1,"op":"intent","scene":"s","intent":"# + intent + "}")
        #expect(failure?.error.code == .invalidIntent)
        #expect(failure?.id == .int(1))
    }

    @Test("scene ids: 1-128 characters of the allowed set")
    func sceneIdentifiers() throws {
        let longest = String(repeating: "a", count: 128)
        let allowed = "Az09._:-"
        for scene in [longest, allowed, "x"] {
            let line = #"{"id":1,"op":"scene.create","device":"mac","scene":""# + scene + #""}"#
            #expect(try decode(line).op.scene == scene)
        }
        let tooLong = #"{"id":1,"op":"scene.create","device":"mac","scene":""# + longest + #"a"}"#
        #expect(failure(tooLong)?.error.code == .badRequest)
        #expect(failure(#"{"id":1,"op":"scene.create","device":"mac","scene":"é"}"#)?.error.code == .badRequest)
    }

    @Test("sizes at the limits of WIRE.md")
    func sizeLimits() throws {
        let largest = try decode(#"{"id":1,"op":"resize","scene":"s","width":100000,"height":0.5}"#)
        #expect(largest.op == .resize(scene: "s", size: Size(width: 100_000, height: 0.5), baseRevision: nil))
        #expect(
            failure(#"{"id":1,"op":"resize","scene":"s","width":100000.001,"height":1}"#)?.error.code
                == .badRequest)
    }
}
