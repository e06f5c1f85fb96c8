import Foundation
import PropertyBased
import SplitCore
import SplitWire
import Testing

/// StreamingJSONEncoder and JSONValueDecoder must be interchangeable with Foundation's
/// JSONEncoder/JSONDecoder: the daemon's stored scene states are read by either.
@Suite("Streaming Codable encoder and JSONValue decoder")
struct StreamingCodableTests {
    /// A reachable scene state: a created scene (random device, random valid config) after a
    /// random walk of intents and resizes (refused ones skipped).
    static let sceneState = Generator<SceneState, Shrink.None<SceneState>>(run: { rng in
        let engine = SplitEngine()
        let devices = engine.catalog.deviceNames
        var state: SceneState?
        while state == nil {
            let device = devices.randomElement(using: &rng)!
            let config: SplitConfigPatch? = Bool.random(using: &rng) ? WireGenerators.makePatch(using: &rng) : nil
            state = try? engine.createScene(id: WireGenerators.makeID(using: &rng), device: device,
                                            size: WireGenerators.makeWindowSize(using: &rng), config: config)
        }
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            let change: SceneChange = Bool.random(using: &rng)
                ? .resize(WireGenerators.makeWindowSize(using: &rng))
                : .intent(WireGenerators.makeIntent(using: &rng))
            if let next = try? engine.apply(change, to: state!) { state = next.state }
        }
        return state!
    })

    @Test("the streaming encoder writes the same JSON as Foundation")
    func sameJSONAsFoundation() async {
        await propertyCheck(count: 300, input: Self.sceneState) { state throws in
            let streamed = try StreamingJSONEncoder().encode(state)
            let foundation = try JSONEncoder().encode(state)
            #expect(try JSONParser.parse(streamed) == JSONParser.parse(Array(foundation)))
        }
    }

    @Test("Foundation reads what the streaming encoder writes, and the tree decoder reads both")
    func decodersAgree() async {
        await propertyCheck(count: 300, input: Self.sceneState) { state throws in
            let streamed = try StreamingJSONEncoder().encode(state)
            #expect(try JSONDecoder().decode(SceneState.self, from: Data(streamed)) == state)
            #expect(try JSONValueDecoder().decode(SceneState.self, from: streamed) == state)
            let foundation = try JSONEncoder().encode(state)
            #expect(try JSONValueDecoder().decode(SceneState.self, from: Array(foundation)) == state)
        }
    }

    @Test("layouts and events round-trip too")
    func layoutsAndEvents() async {
        await propertyCheck(count: 300, input: WireGenerators.layout) { layout throws in
            let streamed = try StreamingJSONEncoder().encode(layout)
            #expect(try JSONParser.parse(streamed) == JSONParser.parse(Array(JSONEncoder().encode(layout))))
            #expect(try JSONValueDecoder().decode(Layout.self, from: streamed) == layout)
        }
        await propertyCheck(count: 300, input: WireGenerators.events) { events throws in
            let streamed = try StreamingJSONEncoder().encode(events)
            #expect(try JSONValueDecoder().decode([SceneEvent].self, from: streamed) == events)
        }
    }

    @Test("non-finite numbers are refused, as Foundation refuses them")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Size(width: .infinity, height: 1)) }
    }

    @Test("decoding errors: wrong types, missing keys, bad JSON")
    func decodingErrors() {
        let decoder = JSONValueDecoder()
        #expect(throws: DecodingError.self) { try decoder.decode(Size.self, from: Array(#"{"width":"wide","height":1}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Size.self, from: Array(#"{"width":1}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Size.self, from: Array(#"{"width":1,"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode([Int].self, from: Array(#"[1,2.5]"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int8.self, from: Array(#"300"#.utf8)) }
    }

    @Test("optionals, nested containers and empty values match Foundation")
    func shapes() throws {
        struct Shape: Codable, Equatable {
            var name: String?
            var nested: [[Int]]
            var table: [String: Double]
            var empty: [String]
            var flag: Bool
        }
        let values = [
            Shape(name: nil, nested: [[1, 2], [], [3]], table: ["a": 0.5, "b\"c": -1], empty: [], flag: true),
            Shape(name: "x\n\u{1}é", nested: [], table: [:], empty: [], flag: false),
        ]
        for value in values {
            let streamed = try StreamingJSONEncoder().encode(value)
            #expect(try JSONParser.parse(streamed) == JSONParser.parse(Array(JSONEncoder().encode(value))))
            #expect(try JSONValueDecoder().decode(Shape.self, from: streamed) == value)
            #expect(try JSONDecoder().decode(Shape.self, from: Data(streamed)) == value)
        }
    }
}
