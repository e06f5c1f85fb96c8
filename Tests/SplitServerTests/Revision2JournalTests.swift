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
}
