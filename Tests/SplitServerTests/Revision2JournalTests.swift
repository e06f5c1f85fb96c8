import SplitCore
@testable import SplitServer
import SplitStore
import SplitTestSupport
import SplitWire
import Testing

/// Revision 2's changes in the journal: the records protocol 1's changes wrote are read as
/// before, revision 2's commands get their own records, and a store holding both replays to
/// the state the changes were acknowledged with.
@Suite struct Revision2JournalTests {
    private let engine = SplitEngine()

    /// A scene checkpoint and journal entries as releases before revision 2 wrote them
    /// (literal bytes: the checkpoint is `StoredFormatFixtures.sceneStates[0]`, written by an
    /// earlier build, with none of revision 2's state members; the records have only
    /// protocol 1's keys).
    static let previousCheckpoint = StoredFormatFixtures.sceneStates[0]
    static let previousRecords = [
        #"{"v":1,"intent":{"kind":"showDetail","vc":"mail"}}"#,
        #"{"v":1,"resize":{"width":375,"height":1024}}"#,
        #"{"v":1,"intent":{"kind":"present","vc":"compose","style":"formSheet"}}"#,
        #"{"v":1,"resize":{"width":1366,"height":1024}}"#,
    ]

    @Test func aStoreOfThePreviousFormatLoadsAndTakesRevision2sRecordsAbove() throws {
        let checkpoint = try SceneBlob.decode(Array(Self.previousCheckpoint.utf8))
        var state = checkpoint
        var entries: [(Int64, [UInt8], String)] = []
        for text in Self.previousRecords {
            let record = try JournalRecordCoding.decode(Array(text.utf8))
            let transition = try engine.apply(try #require(record.command), to: state)
            state = transition.state
            entries.append((Int64(state.revision), Array(text.utf8), LayoutDigest.text(transition.layout)))
        }
        let commands: [SceneCommand] = [
            .activation(.background, backgroundSession: "s1"),
            .resize(Size(width: 320, height: 980), interfaceOrientation: .portrait),
            .present(PresentationRequest(vc: "share", style: .popover, anchor: "mail")),
            .present(PresentationRequest(vc: "note", style: nil, prefersEdgeAttachedInCompactHeight: true)),
        ]
        for command in commands {
            let transition = try engine.apply(command, to: state)
            #expect(transition.changed, "\(command)")
            state = transition.state
            let bytes = JournalRecordCoding.encode(JournalRecord(command))
            #expect(try JournalRecordCoding.decode(bytes) == JournalRecord(command))
            entries.append((Int64(state.revision), bytes, LayoutDigest.text(transition.layout)))
        }
        let store = MemorySceneStore()
        var batch = StoreBatch()
        batch.upsertScene(
            id: checkpoint.id, device: checkpoint.device, revision: Int64(checkpoint.revision),
            state: Array(Self.previousCheckpoint.utf8))
        for (revision, change, hash) in entries {
            batch.appendJournal(scene: checkpoint.id, revision: revision, change: change, layoutHash: hash)
        }
        try store.commit(batch)

        let restored = try SceneRestore.restore(from: store, engine: engine)
        #expect(restored.replayed == entries.count)
        let scene = try #require(restored.scenes[checkpoint.id])
        #expect(scene.state == state)
        #expect(scene.state.activation == .background)
        #expect(engine.interfaceOrientation(of: scene.state) == .portrait)
        #expect(scene.layout.revision2?.presentations.map(\.anchor) == [nil, "mail", nil])
        #expect(scene.layout == engine.layout(of: state))
    }

    @Test func protocol1ChangesAreRecordedAsBefore() {
        // Byte for byte what the release before revision 2 wrote for the same changes.
        let changes: [SceneChange] = [
            .intent(.showDetail(vc: "mail")), .resize(Size(width: 375, height: 1024)),
            .intent(.present(vc: "compose", style: .formSheet)), .resize(Size(width: 1366, height: 1024)),
        ]
        for (change, text) in zip(changes, Self.previousRecords) {
            #expect(JournalRecordCoding.encode(JournalRecord(.change(change))) == Array(text.utf8))
        }
    }

    @Test func revision2RecordsHaveTheirOwnKeys() throws {
        let activation = JournalRecordCoding.encode(JournalRecord(.activation(.background, backgroundSession: "s7")))
        #expect(
            String(decoding: activation, as: UTF8.self)
                == #"{"v":1,"command":{"kind":"activation","state":"background"},"session":"s7"}"#)
        let oriented = JournalRecordCoding.encode(
            JournalRecord(.resize(Size(width: 320, height: 980), interfaceOrientation: .landscape)))
        #expect(
            String(decoding: oriented, as: UTF8.self)
                == #"{"v":1,"orientedResize":{"width":320,"height":980,"interfaceOrientation":"landscape"}}"#)
        let inspector = JournalRecordCoding.encode(JournalRecord(.inspector(.push(vc: "history"))))
        #expect(try JournalRecordCoding.decode(inspector) == .command(.inspector(.push(vc: "history"))))
        // A protocol-1 intent under `command` is not something this daemon writes.
        #expect(throws: WireError.self) {
            try JournalRecordCoding.decode(Array(#"{"v":1,"command":{"kind":"back"}}"#.utf8))
        }
    }

    // MARK: Layout digests of earlier builds and of this one

    /// A stored journal in a `MemorySceneStore`: its checkpoint and entries, digests as given.
    static func store(_ journal: StoredFormatFixtures.Journal, digests: [String]? = nil) throws -> MemorySceneStore {
        let checkpoint = try SceneBlob.decode(Array(journal.checkpoint.utf8))
        let store = MemorySceneStore()
        var batch = StoreBatch()
        batch.upsertScene(
            id: checkpoint.id, device: checkpoint.device, revision: Int64(checkpoint.revision),
            state: Array(journal.checkpoint.utf8))
        for (index, entry) in journal.entries.enumerated() {
            batch.appendJournal(
                scene: checkpoint.id, revision: entry.revision, change: Array(entry.record.utf8),
                layoutHash: digests?[index] ?? entry.layoutHash)
        }
        try store.commit(batch)
        return store
    }

    @Test(arguments: StoredFormatFixtures.journals)
    func everyDigestStoredByAnEarlierBuildStillVerifies(journal: StoredFormatFixtures.Journal) throws {
        let restored = try SceneRestore.restore(from: try Self.store(journal), engine: engine)
        #expect(restored.replayed == journal.entries.count)
        #expect(restored.diverged.isEmpty)
        // Each entry in its own format, over the fields that format covers.
        var state = try SceneBlob.decode(Array(journal.checkpoint.utf8))
        for entry in journal.entries {
            let record = try JournalRecordCoding.decode(Array(entry.record.utf8))
            let transition = try engine.replay(try #require(record.command), to: state)
            state = transition.state
            #expect(LayoutDigest.verify(transition.layout, against: entry.layoutHash) == .matches, "\(entry)")
            // This build writes format 3, which covers more than these did.
            #expect(LayoutDigest.text(transition.layout).first == "3")
            #expect(LayoutDigest.text(transition.layout) != entry.layoutHash)
        }
    }

    /// Revision 2's records with one new field changed after the fact: the layout replay
    /// gives differs from the acknowledged one only in a revision-2 field, which format 3
    /// covers and format 2 did not.
    @Test(arguments: [
        (#""interfaceOrientation":"landscape""#, #""interfaceOrientation":"portrait""#),
        (#""anchor":"list""#, #""anchor":"detail""#),
        (#""prefersEdgeAttachedInCompactHeight":true"#, #""prefersEdgeAttachedInCompactHeight":false"#),
    ])
    func aTamperedRevision2FieldFailsTheDigestOnReplay(original: String, tampered: String) throws {
        let journal = StoredFormatFixtures.revision2Journal
        // This build's digests of the journal as it was acknowledged.
        var state = try SceneBlob.decode(Array(journal.checkpoint.utf8))
        var digests: [String] = []
        for entry in journal.entries {
            let record = try JournalRecordCoding.decode(Array(entry.record.utf8))
            let transition = try engine.replay(try #require(record.command), to: state)
            state = transition.state
            digests.append(LayoutDigest.text(transition.layout))
        }
        let index = try #require(journal.entries.firstIndex { $0.record.contains(original) })
        var altered = journal
        altered.entries[index].record = journal.entries[index].record.replacingOccurrences(of: original, with: tampered)
        #expect(altered.entries[index].record != journal.entries[index].record)
        let revision = journal.entries[index].revision
        do {
            _ = try SceneRestore.restore(from: try Self.store(altered, digests: digests), engine: engine)
            Issue.record("a tampered \(original) was replayed without a word")
        } catch {
            #expect(
                "\(error)".contains("REPLAY DIVERGED: scene '\(state.id)' revision \(revision)")
                    && "\(error)".contains("another layout"), "\(error)")
        }
        // Under the format-2 digest an earlier build stored, the same change went unseen: the
        // field is revision 2's only.
        let unseen = try SceneRestore.restore(from: try Self.store(altered), engine: engine)
        #expect(unseen.diverged.isEmpty && unseen.replayed == journal.entries.count)
    }
}
