import PropertyBased
import SplitCore
import SplitWire
import Testing

@Suite("Journal record coding")
struct JournalRecordCodingTests {
    static let records = Generator<JournalRecord, Shrink.None<JournalRecord>>(run: { rng in
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .created
        case 5:
            return .change(
                .reconfigure(
                    WireGenerators.makePatch(using: &rng),
                    size: WireGenerators.makeWindowSize(using: &rng)))
        case 1: return .change(.resize(WireGenerators.makeWindowSize(using: &rng)))
        case 2:
            return .change(
                .resize(
                    Size(
                        width: Double.random(in: 0.001...100_000, using: &rng),
                        height: Double.random(in: 0.001...100_000, using: &rng))))
        default: return .change(.intent(WireGenerators.makeIntent(using: &rng)))
        }
    })

    @Test("encode then decode gives back every record")
    func roundTrip() async {
        await propertyCheck(count: 1000, input: Self.records) { record throws in
            #expect(try JournalRecordCoding.decode(JournalRecordCoding.encode(record)) == record)
        }
    }

    @Test("a setConfig of revision 2's keys is journaled with them", arguments: [false, true])
    func revision2ConfigKeys(reset: Bool) throws {
        var patch = SplitConfigPatch()
        patch.traitOverrides = .some(reset ? nil : "regular-above-414")
        patch.displayModeButtonVisibility = .never
        patch.snapshotOnBackground = false
        patch.preferredInspectorColumnWidth = .some(reset ? nil : 360)
        patch.preferredInspectorColumnWidthFraction = .some(reset ? nil : 0.25)
        patch.minimumInspectorColumnWidth = 200
        patch.maximumInspectorColumnWidth = 420
        for record in [
            JournalRecord.change(.intent(.setConfig(patch))),
            .change(.reconfigure(patch, size: Size(width: 1200, height: 900))),
        ] {
            let bytes = JournalRecordCoding.encode(record)
            #expect(try JournalRecordCoding.decode(bytes) == record, "\(String(decoding: bytes, as: UTF8.self))")
        }
        let text = String(decoding: JournalRecordCoding.encode(.change(.intent(.setConfig(patch)))), as: UTF8.self)
        #expect(text.contains(#""displayModeButtonVisibility":"never""#))
        #expect(text.contains(reset ? #""traitOverrides":null"# : #""traitOverrides":"regular-above-414""#))
    }

    @Test("the encoding carries its format version")
    func versioned() throws {
        let bytes = JournalRecordCoding.encode(.change(.resize(Size(width: 390, height: 844))))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"v":1,"resize":{"width":390,"height":844}}"#)
        var patch = SplitConfigPatch()
        patch.sizePolicy = .largest
        let reconfigure = JournalRecordCoding.encode(.change(.reconfigure(patch, size: Size(width: 1200, height: 900))))
        #expect(
            String(decoding: reconfigure, as: UTF8.self)
                == #"{"v":1,"reconfigure":{"intent":{"kind":"setConfig","config":{"sizePolicy":"largest"}},"#
                + #""size":{"width":1200,"height":900}}}"#)
    }

    @Test(
        "request lines of older daemons, other versions and damaged entries are refused",
        arguments: [
            #"{"id":1,"op":"resize","scene":"a","width":390,"height":844}"#,
            #"{"v":2,"resize":{"width":390,"height":844}}"#,
            #"{"v":1}"#,
            #"{"v":1,"created":false}"#,
            #"{"v":1,"intent":{"kind":"teleport"}}"#,
            #"{"v":1,"resize":{"width":390}}"#,
            #"{"v":1,"reconfigure":{"intent":{"kind":"pop","column":"primary"},"#
                + #""size":{"width":390,"height":844}}}"#,
            #"{"v":1,"reconfigure":{"intent":{"kind":"setConfig","config":{}}}}"#,
            #"[1]"#,
            #"{"v":1,"resize":"#,
        ])
    func refusesOthers(text: String) {
        #expect(throws: WireError.self) { try JournalRecordCoding.decode(Array(text.utf8)) }
    }
}
