import PropertyBased
import SplitCore
import SplitWire
import Testing

/// Issue 5: `JSONWriter.array(capacity:_:)` writes straight into the array it returns (the
/// change response, the journal record). Its bytes must be those the writer's own storage
/// gives, whether the output fits the capacity or outgrows it.
@Suite struct InPlaceArrayTests {
    static let capacities = [0, 1, 16, 100, 992, 4096]

    @Test("the in-place array is the writer's output, for every capacity")
    func inPlaceMatchesOwnStorage() async {
        await propertyCheck(count: 200, input: WireGenerators.layout, WireGenerators.events) { layout, events in
            var writer = JSONWriter()
            writer.write(layout)
            writer.write(events)
            let expected = writer.bytes
            for capacity in Self.capacities {
                let inPlace = JSONWriter.array(capacity: capacity) { writer in
                    writer.write(layout)
                    writer.write(events)
                }
                #expect(inPlace == expected, "capacity \(capacity)")
            }
        }
    }

    @Test("a journal record is the object its fields make")
    func journalRecordBytes() throws {
        let record = JournalRecordCoding.encode(.change(.resize(Size(width: 1366, height: 1024))))
        #expect(String(decoding: record, as: UTF8.self) == #"{"v":1,"resize":{"width":1366,"height":1024}}"#)
        #expect(String(decoding: JournalRecordCoding.encode(.created), as: UTF8.self) == #"{"v":1,"created":true}"#)
    }
}
