import Foundation
import PropertyBased
import SplitCore
import SplitTestSupport
@testable import SplitWire
import Testing

/// The scene-state codec writes SceneState's Codable JSON (the document Foundation's encoder
/// writes, members in declaration order), reads what earlier builds and Foundation stored,
/// and accepts and refuses what SplitCore's Codable conformances accept and refuse: Foundation's
/// JSONDecoder over those conformances is the reference.
@Suite("Scene state codec")
struct SceneStateCodecTests {
    static let engine = SplitEngine()

    /// Sizes that visit both size classes on `device`: its presets, its full screen both
    /// ways, and arbitrary windows.
    static func makeSize(device: String, using rng: inout WireGenerators.RNG) -> Size {
        var sizes = engine.catalog.presets(device: device).map(\.size)
        if let full = engine.catalog.defaultSize(device: device) {
            sizes += [full, Size(width: full.height, height: full.width)]
        }
        sizes += [Size(width: 320, height: 700), Size(width: 700, height: 320)]
        return Bool.random(using: &rng) ? sizes.randomElement(using: &rng)! : WireGenerators.makeWindowSize(using: &rng)
    }

    /// A reachable state on `device`: created with a random config, then a random history of
    /// intents and resizes (refused changes skipped).
    static func makeState(device: String, using rng: inout WireGenerators.RNG) -> SceneState? {
        let config: SplitConfigPatch? = Bool.random(using: &rng) ? WireGenerators.makePatch(using: &rng) : nil
        guard
            var state = try? engine.createScene(
                id: WireGenerators.makeID(using: &rng), device: device,
                size: makeSize(device: device, using: &rng), config: config)
        else {
            return nil
        }
        for _ in 0..<Int.random(in: 0...24, using: &rng) {
            let change: SceneChange =
                Int.random(in: 0..<3, using: &rng) == 0
                ? .resize(makeSize(device: device, using: &rng))
                : .intent(WireGenerators.makeIntent(using: &rng))
            if let next = try? engine.apply(change, to: state) { state = next.state }
        }
        return state
    }

    static let sceneState = Generator<SceneState, Shrink.None<SceneState>>(run: { rng in
        let devices = engine.catalog.deviceNames
        while true {
            if let state = makeState(device: devices.randomElement(using: &rng)!, using: &rng) { return state }
        }
    })

    /// The codec and the reference agree on `bytes`: both refuse it, or both read the same
    /// state. The reference is strict JSON (`JSONParser`: Foundation lets trailing commas and
    /// malformed numbers in skipped members through) read by SplitCore's Codable conformances.
    static func expectSameOutcome(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let strict = (try? JSONParser.parse(bytes)) != nil
        let reference = strict ? try? JSONDecoder().decode(SceneState.self, from: Data(bytes)) : nil
        let codec = try? SceneStateCodec.decode(bytes)
        #expect(reference == codec, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    /// The codec writes the JSON Foundation writes for `state`, and both read it back.
    static func expectCodableJSON(_ state: SceneState, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let codec = try SceneStateCodec.encode(state)
        #expect(
            try JSONParser.parse(codec) == JSONParser.parse(Array(JSONEncoder().encode(state))),
            sourceLocation: sourceLocation)
        #expect(try SceneStateCodec.decode(codec) == state, sourceLocation: sourceLocation)
        #expect(try JSONDecoder().decode(SceneState.self, from: Data(codec)) == state, sourceLocation: sourceLocation)
    }

    // MARK: Stored bytes and round trips

    @Test("states stored by earlier builds decode as Codable reads them and re-encode to the same bytes")
    func storedStates() throws {
        for (index, text) in StoredFormatFixtures.sceneStates.enumerated() {
            let stored = Array(text.utf8)
            let state = try SceneStateCodec.decode(stored)
            #expect(state == (try JSONDecoder().decode(SceneState.self, from: Data(stored))), "fixture \(index)")
            #expect(try SceneStateCodec.encode(state) == stored, "fixture \(index)")
        }
        for (index, text) in StoredFormatFixtures.foundationSceneStates.enumerated() {
            let stored = Array(text.utf8)
            #expect(
                try SceneStateCodec.decode(stored) == JSONDecoder().decode(SceneState.self, from: Data(stored)),
                "Foundation fixture \(index)")
        }
    }

    @Test("encode writes Foundation's JSON; the codec and Foundation read it back")
    func roundTrips() async {
        await propertyCheck(count: 400, input: Self.sceneState) { state throws in
            try Self.expectCodableJSON(state)
        }
    }

    @Test("every device profile and rule set, many configs and histories")
    func everyDevice() throws {
        var rng: WireGenerators.RNG = Xoshiro(seed: (1, 2, 3, 5))
        var collapsed = 0, tabbed = 0, presented = 0
        for device in Self.engine.catalog.deviceNames {
            for _ in 0..<25 {
                guard let state = Self.makeState(device: device, using: &rng) else { continue }
                collapsed += state.collapsed ? 1 : 0
                tabbed += state.navigation.tabs.isEmpty ? 0 : 1
                presented += state.navigation.presentations.isEmpty ? 0 : 1
                try Self.expectCodableJSON(state)
            }
        }
        // The sweep must reach the shapes the codec has special paths for.
        #expect(collapsed > 0 && tabbed > 0 && presented > 0)
    }

    @Test("blobs Foundation wrote (any key order, escaped slashes, pretty-printed) decode equal")
    func foundationBlobs() async {
        let formats: [JSONEncoder.OutputFormatting] = [
            [], [.sortedKeys], [.prettyPrinted, .sortedKeys], [.withoutEscapingSlashes],
        ]
        await propertyCheck(count: 200, input: Self.sceneState) { state throws in
            for format in formats {
                let encoder = JSONEncoder()
                encoder.outputFormatting = format
                #expect(try SceneStateCodec.decode(Array(encoder.encode(state))) == state)
            }
        }
    }

    @Test("awkward strings: escapes, slashes, unicode, control characters, long ids")
    func awkwardStrings() throws {
        var state = try Self.engine.createScene(
            id: "s", device: "ipad-pro-12.9",
            size: Size(width: 1366, height: 1024), config: nil)
        state.id = "a/b"
        state.navigation.primary = [
            "a\"b", "x\\y", "设置", "tab\u{1}\n", "😀/é", String(repeating: "z", count: 200),
            "",
        ]
        state.navigation.placeholder = "\u{7f}"
        state.device = "d\u{2028}"
        try Self.expectCodableJSON(state)
        #expect(try SceneStateCodec.decode(Array(JSONEncoder().encode(state))) == state)
    }

    // MARK: Codable's rules, member by member

    /// Every member of the document removed, nulled, or replaced by a value of another type:
    /// the codec and the reference must accept and refuse the same variants, with the same result.
    @Test("each member missing, null or mistyped: same outcome as the Codable decoder")
    func memberVariants() async {
        let replacements: [JSONValue] = [
            .null, .string("automatic"), .string("compact"), .int(3), .double(3.0),
            .double(2.5), .bool(true), .array([]), .object(JSONObject()), .int(-1),
            .string("allVisible"),
        ]
        await propertyCheck(count: 40, input: Self.sceneState) { state throws in
            let tree = try JSONParser.parse(SceneStateCodec.encode(state))
            for variant in Self.variants(of: tree, replacements: replacements) {
                Self.expectSameOutcome(JSONWriter.encode(variant))
            }
        }
    }

    /// `value` with one member removed or one value replaced, at every position.
    static func variants(of value: JSONValue, replacements: [JSONValue]) -> [JSONValue] {
        var results: [JSONValue] = []
        switch value {
        case .object(let object):
            for member in object {
                var removed = object
                removed[member.key] = nil
                results.append(.object(removed))
                for replacement in replacements {
                    var replaced = object
                    replaced[member.key] = replacement
                    results.append(.object(replaced))
                }
                for inner in variants(of: member.value, replacements: replacements) {
                    var nested = object
                    nested[member.key] = inner
                    results.append(.object(nested))
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                for replacement in replacements.prefix(3) {
                    var replaced = elements
                    replaced[index] = replacement
                    results.append(.array(replaced))
                }
                for inner in variants(of: element, replacements: replacements) {
                    var nested = elements
                    nested[index] = inner
                    results.append(.array(nested))
                }
            }
        default:
            break
        }
        return results
    }

    @Test("members in reverse order, unknown members, escaped keys, optional keys absent")
    func documentShapes() throws {
        let state = try Self.engine.createScene(
            id: "s", device: "ipad-pro-12.9",
            size: Size(width: 1366, height: 1024), config: nil)
        guard case .object(let object) = try JSONParser.parse(SceneStateCodec.encode(state)) else {
            Issue.record("not an object")
            return
        }
        var reversed = JSONObject()
        for member in object.reversed() { reversed[member.key] = member.value }
        reversed["future"] = ["nested": [1, 2, ["deep": nil]], "x": "y"]
        #expect(try SceneStateCodec.decode(JSONWriter.encode(.object(reversed))) == state)

        // A key spelled with an escape is the same key.
        let text = String(decoding: try SceneStateCodec.encode(state), as: UTF8.self)
            .replacingOccurrences(of: #""revision""#, with: #""re\u0076ision""#)
        #expect(try SceneStateCodec.decode(Array(text.utf8)) == state)

        // A navigation written before its optional members existed, and an empty config.
        let minimal =
            #"{"id":"s","device":"ipad-pro-12.9","size":{"width":1366,"height":1024},"#
            + #""traits":{"horizontalSizeClass":"regular","verticalSizeClass":"regular"},"config":{},"revision":1,"#
            + #""navigation":{},"display":{}}"#
        Self.expectSameOutcome(Array(minimal.utf8))
        let decoded = try SceneStateCodec.decode(Array(minimal.utf8))
        #expect(
            decoded.config == SplitConfig() && decoded.navigation == NavigationState()
                && decoded.display == DisplayMemory())
    }

    // MARK: Malformed input

    @Test("every truncation of a blob throws")
    func truncations() async {
        await propertyCheck(count: 30, input: Self.sceneState) { state throws in
            let blob = try SceneStateCodec.encode(state)
            for length in 0..<blob.count {
                #expect(throws: StoredDocumentError.self) { try SceneStateCodec.decode(Array(blob[..<length])) }
            }
            #expect(throws: StoredDocumentError.self) { try SceneStateCodec.decode(blob + Array(" x".utf8)) }
        }
    }

    /// Views that end early inside the whole blob: a decoder reading past its buffer's end
    /// would find the rest of a valid document there and wrongly succeed.
    @Test("borrowed bytes: never read past the end of the buffer")
    func borrowedBytes() async {
        await propertyCheck(count: 20, input: Self.sceneState) { state throws in
            let blob = try SceneStateCodec.encode(state)
            blob.withUnsafeBufferPointer { whole in
                #expect((try? SceneStateCodec.decode(whole)) == state)
                let accepted = (0..<blob.count).filter { length in
                    (try? SceneStateCodec.decode(UnsafeBufferPointer(rebasing: whole[..<length]))) != nil
                }
                #expect(accepted.isEmpty, "views of these lengths decoded: \(accepted)")
            }
        }
    }

    @Test("random byte damage: same outcome as the Codable decoder, never a trap")
    func byteDamage() async {
        let bytes: [UInt8] = Array(#"{}[]",:0123456789.-+eE"\ntrufalse"#.utf8) + [0x00, 0x1f, 0x80, 0xc3, 0xff]
        await propertyCheck(count: 300, input: Self.sceneState) { state throws in
            var rng: WireGenerators.RNG = Xoshiro(seed: (UInt64(state.revision), UInt64(state.id.utf8.count), 7, 11))
            let blob = try SceneStateCodec.encode(state)
            for _ in 0..<20 {
                var damaged = blob
                for _ in 0...Int.random(in: 0...2, using: &rng) {
                    let index = Int.random(in: 0..<damaged.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: damaged[index] = bytes.randomElement(using: &rng)!
                    case 1: damaged.remove(at: index)
                    default: damaged.insert(bytes.randomElement(using: &rng)!, at: index)
                    }
                    if damaged.isEmpty { break }
                }
                Self.expectSameOutcome(damaged)
            }
        }
    }

    @Test("not a scene state at all")
    func notAState() {
        for text in [
            "", " ", "null", "[]", "{}", "\"s\"", "{\"id\":1}", "{\"id\":\"s\"", "{\"id\":\"s\",}",
            "{\"id\":\"s\" \"device\":\"d\"}", "{\"id\":\"s\",\"id\":\"t\"}", "\u{feff}{}",
            String(repeating: "[", count: 100_000),
        ] {
            #expect(throws: StoredDocumentError.self, "\(text.prefix(20))") {
                try SceneStateCodec.decode(Array(text.utf8))
            }
        }
    }

    @Test("non-finite numbers are refused when encoding, as Codable refuses them")
    func nonFinite() throws {
        var state = try Self.engine.createScene(
            id: "s", device: "ipad-pro-12.9",
            size: Size(width: 1366, height: 1024), config: nil)
        state.config.preferredPrimaryColumnWidth = .nan
        #expect(throws: EncodingError.self) { try SceneStateCodec.encode(state) }
        state.config.preferredPrimaryColumnWidth = nil
        state.size.height = .infinity
        #expect(throws: EncodingError.self) { try SceneStateCodec.encode(state) }
    }
}
