import PropertyBased
import SplitCore
import SplitWire
import Testing

/// `WireEncoder.changeResponse` writes a change's response in one pass and
/// locates its fields for the pushes: the bytes must be those of the response composed from
/// `ChangeFields`, and the located fields those `ChangeFields` encodes.
@Suite struct ChangeResponseTests {
    @Test("the one-pass response and its fields are those built from ChangeFields")
    func onePassMatchesFieldsComposition() async {
        await propertyCheck(count: 300, input: ChangeMessageTests.ids, WireGenerators.layout, WireGenerators.events) {
            id, layout, events in
            let revision = Int.random(in: 0...1_000_000)
            let fields = ChangeFields(revision: revision, layout: layout, events: events)
            var composed: [UInt8] = []
            WireEncoder.appendResponse(id: id, change: fields, to: &composed)
            let response = WireEncoder.changeResponse(id: id, revision: revision, layout: layout, events: events)
            #expect(response.bytes == composed)
            #expect(ChangeFields(encoded: response.bytes[response.fields]) == fields)
        }
    }

    @Test("a push from the located fields is the push from ChangeFields")
    func pushFromLocatedFields() async {
        await propertyCheck(count: 100, input: WireGenerators.layout, WireGenerators.events) { layout, events in
            let response = WireEncoder.changeResponse(id: .int(7), revision: 3, layout: layout, events: events)
            var fromLocated: [UInt8] = [], fromFields: [UInt8] = []
            WireEncoder.appendLayoutPush(
                scene: "s", change: ChangeFields(encoded: response.bytes[response.fields]),
                to: &fromLocated)
            WireEncoder.appendLayoutPush(scene: "s", revision: 3, layout: layout, events: events, to: &fromFields)
            #expect(fromLocated == fromFields)
        }
    }
}
