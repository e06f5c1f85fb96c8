import SplitTestSupport
import Testing
@testable import SplitStore

/// The batch keeps its journal records in one buffer; each entry must still read back as the
/// bytes it was given, also after batches are joined (deferred turns commit as one) and after
/// a batch is emptied and reused.
@Suite("StoreBatch")
struct StoreBatchTests {
    /// The (scene, revision, record) of each journal entry, in order.
    private func entries(of batch: StoreBatch) -> [(String, Int64, [UInt8])] {
        batch.operations.compactMap { operation in
            guard case let .appendJournal(scene, revision, change, _) = operation else { return nil }
            return (scene, revision, Array(batch.change(of: change)))
        }
    }

    @Test(arguments: 0..<200)
    func joinedBatchesReadBackEveryRecordInOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let groups: [[[UInt8]]] = (0..<(1 + below(4))).map { _ in
            (0..<below(13)).map { _ in (0..<below(41)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        }
        do {
            var joined = StoreBatch()
            var expected: [(String, Int64, [UInt8])] = []
            var revision: Int64 = 0
            for group in groups {
                var batch = StoreBatch()
                batch.upsertScene(id: "s", device: "mac", revision: revision, state: [1])
                for record in group {
                    revision += 1
                    batch.appendJournal(scene: "s", revision: revision, change: record, layoutHash: "h")
                    expected.append(("s", revision, record))
                }
                joined.append(contentsOf: batch)
            }
            let read = entries(of: joined)
            #expect(read.map(\.0) == expected.map(\.0))
            #expect(read.map(\.1) == expected.map(\.1))
            #expect(read.map(\.2) == expected.map(\.2))
            #expect(joined.count == groups.count + expected.count)
        }
    }

    @Test func anEmptiedBatchStartsAfresh() {
        var batch = StoreBatch()
        batch.appendJournal(scene: "a", revision: 1, change: [1, 2, 3])
        batch.removeAll()
        #expect(batch.isEmpty && batch.journalBytes.isEmpty)
        batch.appendJournal(scene: "b", revision: 2, change: [9])
        #expect(entries(of: batch).map(\.2) == [[9]])
    }
}
