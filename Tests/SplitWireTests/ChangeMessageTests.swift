import PropertyBased
import SplitCore
import SplitWire
import Testing

/// The change response and the layout push are built straight from the shared
/// `ChangeFields` bytes (no intermediate writer on the hot path). They must be
/// byte for byte what composing the same members with `JSONWriter` gives.
@Suite struct ChangeMessageTests {
    static let ids = Generator<RequestID, Shrink.None<RequestID>>(run: { rng in
        let texts = ["", "a", "req-7", "a\"b", "x\\y", "tab\t", "设置", "\u{1}"]
        return Bool.random(using: &rng)
            ? .int(Int64.random(in: Int64.min...Int64.max, using: &rng))
            : .string(texts.randomElement(using: &rng)!)
    })

    static func composed(_ change: ChangeFields, head: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        head(&writer)
        writer.appendMembers(change.bytes)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    @Test("a change response is the composed object, after whatever the buffer held")
    func responseMatchesComposition() async {
        await propertyCheck(count: 300, input: Self.ids, WireGenerators.layout, WireGenerators.events) {
            id, layout, events throws in
            let change = ChangeFields(revision: Int.random(in: 0...1_000_000), layout: layout, events: events)
            var buffer = Array("held\n".utf8)
            WireEncoder.appendResponse(id: id, change: change, to: &buffer)
            let expected = Self.composed(change) { writer in
                writer.rawKey("id")
                writer.write(id)
                writer.rawKey("ok")
                writer.write(true)
            }
            #expect(buffer == Array("held\n".utf8) + expected)
            let parsed = try JSONParser.parse(Array(buffer.dropFirst(5).dropLast()))
            #expect(parsed["id"] == id.json)
            #expect(parsed["ok"] == .bool(true))
        }
    }

    @Test("a layout push is the composed object")
    func pushMatchesComposition() async {
        await propertyCheck(count: 300, input: WireGenerators.layout, WireGenerators.events) { layout, events throws in
            let change = ChangeFields(revision: 9, layout: layout, events: events)
            let scene = ["s", "bench-1", "a\"b", "设置"].randomElement()!
            var buffer: [UInt8] = []
            WireEncoder.appendLayoutPush(scene: scene, change: change, to: &buffer)
            let expected = Self.composed(change) { writer in
                writer.rawKey("event")
                writer.writeRaw("layout")
                writer.rawKey("scene")
                writer.write(scene)
            }
            #expect(buffer == expected)
            #expect(try JSONParser.parse(Array(buffer.dropLast()))["scene"] == .string(scene))
        }
    }

    @Test("many messages appended to one buffer keep each one whole, in order")
    func appendsAccumulate() throws {
        let change = ChangeFields(revision: 3, layout: ResponseEncodingTests.wireExample, events: [.dismissed(vc: "x")])
        var buffer: [UInt8] = []
        for number in 1...50 { WireEncoder.appendResponse(id: .int(Int64(number)), change: change, to: &buffer) }
        let lines = buffer.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 50)
        #expect(try lines.map { try JSONParser.parse(Array($0))["id"]?.int64 } == (1...50).map { Int64($0) })
    }
}
