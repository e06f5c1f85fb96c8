import Foundation
import SplitCore
@testable import SplitServer
@testable import SplitSettings
import SplitStore
import SplitWire
import Testing

/// Journal-only writes with checkpoints: what a change stores, when a scene is checkpointed,
/// that a failed commit puts the checkpoint bookkeeping back, and that a restart replays the
/// journal above each checkpoint (refusing gaps, undecodable entries and divergent replays).
@Suite("Checkpoints and replay", .serialized)
struct CheckpointReplayTests {
    private let create: JSONObject = ["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]
    private let engine = SplitEngine()
    private let diskFull = StoreError(
        kind: .full, code: 13, extendedCode: 13, operation: "commit", message: "disk full", rolledBack: true)

    private func resize(_ width: Int) -> JSONObject {
        ["op": "resize", "scene": "s", "width": .int(Int64(width)), "height": 1024]
    }

    /// Stops the daemon without its final checkpoints (the commit fails), as a crash would
    /// leave the store, and returns the store's rows and tails.
    private func crash(_ daemon: TestDaemon) throws -> (rows: [StoredScene], tails: [JournalEntry]) {
        daemon.store.failure = diskFull
        daemon.stop()
        daemon.store.failure = nil
        return (try daemon.store.loadScenes(), try daemon.store.journalTails())
    }

    @Test func aChangeStoresOnlyItsJournalEntryUntilCheckpointEveryChanges() throws {
        let daemon = try TestDaemon {
            $0.checkpointEvery = 4; $0.checkpointSweepMilliseconds = 0
        }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        let widths = [981, 678, 375, 1366, 700, 800]
        var acknowledged: [JSONValue] = []
        for width in widths { acknowledged.append(try client.request(resize(width))) }
        #expect(acknowledged.last?["revision"] == 7)
        client.close()
        let stored = try crash(daemon)
        #expect(stored.rows.map(\.revision) == [5], "created at 1, checkpointed 4 changes later")
        #expect(stored.tails.map(\.revision) == [6, 7])
        let records = try stored.tails.map { try JournalRecordCoding.decode($0.change) }
        #expect(
            records == [
                .change(.resize(Size(width: 700, height: 1024))), .change(.resize(Size(width: 800, height: 1024))),
            ])
        let journal = try daemon.store.journal(scene: "s", from: 0)
        #expect(try JournalRecordCoding.decode(journal[0].change) == .created)
        // Format 3: "3" and 14 hex digits.
        #expect(journal.dropFirst().allSatisfy { $0.layoutHash.map { $0.count == 15 && $0.first == "3" } == true })
    }

    /// Resizes `scenes` scenes `rounds` times each, round by round, and answers the revision
    /// of each scene's row after a crash (its last checkpoint).
    private func checkpointedRevisions(
        scenes: Int, rounds: Int, _ configure: @escaping (inout ServerSettings) -> Void
    ) throws -> [Int64] {
        let daemon = try TestDaemon {
            $0.checkpointSweepMilliseconds = 0; configure(&$0)
        }
        let client = try daemon.connect()
        for index in 0..<scenes {
            #expect(
                try client.request(["op": "scene.create", "scene": .string("s\(index)"), "device": "ipad-pro-12.9"])
                    .isOK)
        }
        for round in 0..<rounds {
            for index in 0..<scenes {
                let width: Int64 = round % 2 == 0 ? 700 : 1366
                #expect(
                    try client.request([
                        "op": "resize", "scene": .string("s\(index)"), "width": .int(width), "height": 1024,
                    ]).isOK)
            }
        }
        client.close()
        return try crash(daemon).rows.sorted { $0.id.localizedStandardCompare($1.id) == .orderedAscending }.map(
            \.revision)
    }

    @Test func aSceneIsCheckpointedEveryCheckpointEveryChangesWhileTheReplayBudgetHoldsTheirTails() throws {
        // 3 scenes × 8 changes fit a budget of 24: each is checkpointed after 8 changes.
        let within = try checkpointedRevisions(scenes: 3, rounds: 10) {
            $0.checkpointEvery = 8; $0.replayBudget = 24
        }
        #expect(within == [9, 9, 9], "created at 1, checkpointed at 9; 10 and 11 are in the journal")
        // 0 turns the budget off.
        #expect(
            try checkpointedRevisions(scenes: 3, rounds: 10) {
                $0.checkpointEvery = 8; $0.replayBudget = 0
            } == [9, 9, 9])
    }

    @Test func pastTheReplayBudgetScenesAreCheckpointedFourTimesAsOften() throws {
        // 3 scenes with changes above their checkpoint could hold 3 × 8 = 24 > 16 entries:
        // each is checkpointed every 8 / 4 = 2 changes, so a crash leaves at most 1 above it.
        let over = try checkpointedRevisions(scenes: 3, rounds: 10) {
            $0.checkpointEvery = 8; $0.replayBudget = 16
        }
        #expect(over == [11, 11, 11])
        // One busy scene alone stays within the same budget.
        #expect(
            try checkpointedRevisions(scenes: 1, rounds: 10) {
                $0.checkpointEvery = 8; $0.replayBudget = 16
            } == [9])
    }

    /// Starts a daemon on `store` and expects scene "s" at the `acknowledged` revision and
    /// layout; stops it gracefully.
    private func expectRestartServes(
        _ acknowledged: JSONValue, from store: MemorySceneStore,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let restarted = try TestDaemon(store: store) { $0.checkpointSweepMilliseconds = 0 }
        let client = try restarted.connect()
        let served = try client.request(["op": "scene.get", "scene": "s"])
        #expect(served["revision"] == acknowledged["revision"], sourceLocation: sourceLocation)
        #expect(served["layout"] == acknowledged["layout"], sourceLocation: sourceLocation)
        client.close()
        restarted.stop()
    }

    /// A sizePolicy change that resizes the scene to its windows is one journal entry
    /// (`reconfigure`), and a restart after a crash replays it to the acknowledged layout.
    @Test func aSizePolicyChangeIsOneEntryAndReplays() throws {
        let store = MemorySceneStore()
        var acknowledged: JSONValue = .null
        do {
            let daemon = try TestDaemon(store: store) {
                $0.checkpointEvery = 1000; $0.checkpointSweepMilliseconds = 0
            }
            let client = try daemon.connect(), window = try daemon.connect(), other = try daemon.connect()
            #expect(try client.request(create).isOK)
            #expect(
                try window.request([
                    "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 800, "height": 900],
                ]).isOK)
            #expect(
                try other.request([
                    "op": "scene.attach", "scene": "s", "role": "window", "size": ["width": 1200, "height": 600],
                ]).isOK)
            acknowledged = try client.request([
                "op": "intent", "scene": "s", "intent": ["kind": "setConfig", "config": ["sizePolicy": "largest"]],
            ])
            #expect(acknowledged["revision"] == 4)
            #expect(acknowledged["layout"]?["size"] == ["width": 1200, "height": 900])
            // Crashed with the windows attached: a window closing first would resize the
            // scene once more (a revision 5), racing with the crash.
            let stored = try crash(daemon)
            client.close(); window.close(); other.close()
            let records = try stored.tails.map { try JournalRecordCoding.decode($0.change) }
            var patch = SplitConfigPatch()
            patch.sizePolicy = .largest
            #expect(records.last == .change(.reconfigure(patch, size: Size(width: 1200, height: 900))))
            #expect(stored.tails.last?.revision == 4)
        }
        try expectRestartServes(acknowledged, from: store)
    }

    @Test func aRestartReplaysTheTailAndServesTheAcknowledgedRevisionAndLayout() throws {
        let store = MemorySceneStore()
        var acknowledged: JSONValue = .null
        do {
            let daemon = try TestDaemon(store: store) {
                $0.checkpointEvery = 1000; $0.checkpointSweepMilliseconds = 0
            }
            let client = try daemon.connect()
            #expect(try client.request(create).isOK)
            #expect(
                try client.request(["op": "intent", "scene": "s", "intent": ["kind": "showDetail", "vc": "mail"]]).isOK)
            #expect(try client.request(resize(678)).isOK)
            acknowledged = try client.request([
                "op": "intent", "scene": "s", "intent": ["kind": "present", "vc": "compose", "style": "formSheet"],
            ])
            client.close()
            let stored = try crash(daemon)
            #expect(stored.rows.map(\.revision) == [1])
            #expect(stored.tails.map(\.revision) == [2, 3, 4])
        }
        try expectRestartServes(acknowledged, from: store)
        #expect(try store.loadScenes().map(\.revision) == [4], "a graceful stop checkpoints every scene")
        #expect(try store.journalTails().isEmpty)
    }

    @Test func aFailedCommitPutsTheCheckpointBookkeepingBack() throws {
        let daemon = try TestDaemon {
            $0.checkpointEvery = 2; $0.checkpointSweepMilliseconds = 0
        }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        #expect(try client.request(resize(981))["revision"] == 2)
        daemon.store.failure = diskFull
        // Revision 3 would be checkpointed with it; the commit fails, so neither happened.
        #expect(try client.request(resize(678)).errorCode == "storage")
        daemon.store.failure = nil
        #expect(try client.request(resize(375))["revision"] == 3)
        client.close()
        let stored = try crash(daemon)
        #expect(stored.rows.map(\.revision) == [3], "checkpointed at 3: the rolled-back checkpoint did not count")
        #expect(stored.tails.isEmpty)
    }

    @Test func theSweepCheckpointsScenesLeftWithChanges() throws {
        let daemon = try TestDaemon {
            $0.checkpointEvery = 1000; $0.checkpointSweepMilliseconds = 20
        }
        let client = try daemon.connect()
        #expect(try client.request(create).isOK)
        #expect(try client.request(resize(981)).isOK)
        let commits = try client.request(["op": "stats"])["storeCommits"]?.int ?? 0
        // Wait for the sweep's own commit (no request makes it).
        var waited = 0
        while try client.request(["op": "stats"])["storeCommits"]?.int ?? 0 == commits, waited < 500 {
            usleep(10_000)
            waited += 1
        }
        client.close()
        let stored = try crash(daemon)
        #expect(stored.rows.map(\.revision) == [2])
        #expect(stored.tails.isEmpty)
    }

    // MARK: Replay (SceneRestore, pure)

    /// A store holding `s` checkpointed at revision 1 and `changes` journaled above it, each
    /// entry with the digest of the layout it produced; `alter` edits the entries first.
    private func store(
        with changes: [SceneChange], alter: (inout [(Int64, [UInt8], String?)]) -> Void = { _ in },
        digest: (Layout) -> String = { LayoutDigest.hex($0) }
    ) throws -> (MemorySceneStore, Transition) {
        let created = try engine.createScene(id: "s", device: "ipad-pro-12.9", size: nil, config: nil)
        var state = created
        var last = Transition(state: created, layout: engine.layout(of: created), events: [], changed: false)
        var entries: [(Int64, [UInt8], String?)] = []
        for change in changes {
            last = try engine.apply(change, to: state)
            state = last.state
            entries.append((Int64(state.revision), JournalRecordCoding.encode(.change(change)), digest(last.layout)))
        }
        alter(&entries)
        let store = MemorySceneStore()
        var batch = StoreBatch()
        batch.upsertScene(id: "s", device: created.device, revision: 1, state: SceneBlob.encode(created))
        batch.appendJournal(scene: "s", revision: 1, change: JournalRecordCoding.encode(.created))
        for (revision, change, hash) in entries {
            batch.appendJournal(scene: "s", revision: revision, change: change, layoutHash: hash)
        }
        try store.commit(batch)
        return (store, last)
    }

    private let changes: [SceneChange] = [
        .intent(.showDetail(vc: "mail")), .resize(Size(width: 678, height: 1024)),
        .intent(.present(vc: "compose", style: .formSheet)), .resize(Size(width: 1366, height: 1024)),
    ]

    @Test func replayGivesBackTheLastState() throws {
        let (store, last) = try store(with: changes)
        let restored = try SceneRestore.restore(from: store, engine: engine)
        #expect(restored.replayed == 4)
        #expect(restored.scenes["s"]?.state == last.state)
        #expect(restored.scenes["s"]?.layout == last.layout)
        #expect(restored.scenes["s"]?.checkpointRevision == 1)
    }

    @Test func replayRefusesAGap() throws {
        let (store, _) = try store(with: changes) { $0.remove(at: 1) }
        do {
            _ = try SceneRestore.restore(from: store, engine: engine)
            Issue.record("a journal with a gap was replayed")
        } catch {
            #expect("\(error)".contains("jumps from revision 2 to 4"))
        }
    }

    @Test func replayRefusesAnUndecodableEntry() throws {
        let (store, _) = try store(with: changes) {
            $0[2].1 = Array(#"{"id":1,"op":"resize","scene":"s","width":1,"height":1}"#.utf8)
        }
        do {
            _ = try SceneRestore.restore(from: store, engine: engine)
            Issue.record("a request line above the checkpoint was replayed")
        } catch {
            #expect("\(error)".contains("revision 4: journal entry cannot be decoded"))
        }
    }

    @Test func replayRefusesADivergentLayout() throws {
        let (store, _) = try store(with: changes) { $0[3].2 = "0123456789abcdef" }
        do {
            _ = try SceneRestore.restore(from: store, engine: engine)
            Issue.record("a divergent replay was accepted")
        } catch {
            #expect("\(error)".contains("REPLAY DIVERGED: scene 's' revision 5"))
        }
    }

    @Test func replayRefusesAChangeThatIsANoOpOnReplay() throws {
        // The second resize repeats the first: the daemon never journals a no-op.
        let (store, _) = try store(with: [changes[1]]) { entries in
            entries.append((3, entries[0].1, entries[0].2))
        }
        do {
            _ = try SceneRestore.restore(from: store, engine: engine)
            Issue.record("a no-op was replayed as a revision")
        } catch {
            #expect("\(error)".contains("REPLAY DIVERGED") && "\(error)".contains("no-op"))
        }
    }

    @Test func aDivergentLayoutIsKeptOnlyWhenTheOperatorAcceptsIt() throws {
        // The digests of revisions 3 and 5 are not what this engine gives (as after an
        // upgrade that changed the layout rules).
        let (store, last) = try store(with: changes) {
            $0[1].2 = "0123456789abcdef"
            $0[3].2 = "20123456789abcd"
        }
        #expect(throws: (any Error).self) { try SceneRestore.restore(from: store, engine: engine) }
        let restored = try SceneRestore.restore(from: store, engine: engine, acceptDivergence: true)
        // Every change is replayed: the state is the one acknowledged, the layout today's.
        #expect(restored.scenes["s"]?.state == last.state)
        #expect(restored.scenes["s"]?.layout == last.layout)
        #expect(restored.diverged.map(\.scene) == ["s", "s"])
        #expect(
            restored.diverged[0].description.contains("scene 's' revision 3")
                && restored.diverged[0].description.contains("another layout"))
        #expect(restored.diverged[1].description.contains("scene 's' revision 5"))
    }

    @Test func aChangeRefusedOnReplayKeepsTheStateBeforeItAtItsRevisionWhenAccepted() throws {
        // Revision 3 repeats revision 2's resize: a no-op now.
        let (store, _) = try store(with: [changes[1]]) { entries in
            entries.append((3, entries[0].1, entries[0].2))
        }
        let before = try SceneRestore.restore(from: try self.store(with: [changes[1]]).0, engine: engine).scenes["s"]!
        let restored = try SceneRestore.restore(from: store, engine: engine, acceptDivergence: true)
        let scene = try #require(restored.scenes["s"])
        #expect(scene.state.revision == 3)
        var expected = before.state
        expected.revision = 3
        #expect(scene.state == expected)
        #expect(scene.layout == before.layout)
        #expect(restored.diverged.count == 1 && restored.diverged[0].description.contains("no-op"))
    }

    @Test func acceptingDivergenceStillRefusesAGapAndAnUndecodableEntry() throws {
        let (gap, _) = try store(with: changes) { $0.remove(at: 1) }
        #expect(throws: (any Error).self) {
            try SceneRestore.restore(from: gap, engine: engine, acceptDivergence: true)
        }
        let (damaged, _) = try store(with: changes) { $0[2].1 = Array("not a record".utf8) }
        #expect(throws: (any Error).self) {
            try SceneRestore.restore(from: damaged, engine: engine, acceptDivergence: true)
        }
    }

    @Test(arguments: [1, 2, 3])
    func theLayoutDigestTellsLayoutsApart(format: Int) throws {
        let digest: (Layout) -> String = {
            switch format {
            case 1: LayoutDigest.hex($0)
            case 2: LayoutDigest.formatTwo($0)
            default: LayoutDigest.text($0)
            }
        }
        let (_, last) = try store(with: changes)
        var other = last.layout
        other.columns[0].stack.append("extra")
        #expect(digest(last.layout) == digest(last.layout))
        #expect(digest(other) != digest(last.layout))
        other = last.layout
        other.size.width += 0.5
        #expect(digest(other) != digest(last.layout))
        other = last.layout
        // Two stack entries joined into one: the lengths keep them apart.
        other.columns[0].stack = ["ab", "c"]
        var joined = last.layout
        joined.columns[0].stack = ["a", "bc"]
        #expect(digest(other) != digest(joined))
        other.columns[0].stack = ["abcdefghij"]
        joined.columns[0].stack = ["abcdefghik"]
        #expect(digest(other) != digest(joined), "a byte past the first 8 counts")
    }

    @Test func formatsTwoAndThreeAreADigitAnd14HexDigitsAndEachVerifies() throws {
        let (_, last) = try store(with: changes)
        let text = LayoutDigest.text(last.layout)
        let two = LayoutDigest.formatTwo(last.layout)
        #expect(text.utf8.count == 15 && text.first == "3")
        #expect(two.utf8.count == 15 && two.first == "2")
        for digest in [text, two] {
            #expect(digest.dropFirst().allSatisfy { "0123456789abcdef".contains($0) })
            #expect(LayoutDigest.verify(last.layout, against: digest) == .matches)
        }
        #expect(LayoutDigest.verify(last.layout, against: LayoutDigest.hex(last.layout)) == .matches)
        var other = last.layout
        other.size.height += 1
        #expect(LayoutDigest.verify(other, against: text) == .differs(computed: LayoutDigest.text(other)))
        #expect(LayoutDigest.verify(other, against: two) == .differs(computed: LayoutDigest.formatTwo(other)))
        #expect(
            LayoutDigest.verify(other, against: LayoutDigest.hex(last.layout))
                == .differs(computed: LayoutDigest.hex(other)))
        #expect(LayoutDigest.verify(last.layout, against: "") == .unknownFormat)
        #expect(LayoutDigest.verify(last.layout, against: "4" + text.dropFirst()) == .unknownFormat)
    }

    @Test func formatThreeCoversRevision2sFieldsAndFormatsOneAndTwoDoNot() throws {
        let (_, last) = try store(with: changes)
        let layout = last.layout
        let additions = try #require(layout.revision2)
        var variants: [Layout] = []
        func variant(_ change: (inout Revision2Layout) -> Void) {
            var copy = layout
            var fields = additions
            change(&fields)
            copy.revision2 = fields
            variants.append(copy)
        }
        variant { $0.interfaceOrientation = $0.interfaceOrientation == .portrait ? .landscape : .portrait }
        variant { $0.activation = .background }
        variant { $0.displayModeButton = DisplayModeButtonLayout(visible: false, target: nil) }
        variant { $0.displayModeButton.target = .twoOverSecondary }
        variant {
            $0.inspector = InspectorLayout(
                shown: true, visible: true, presentedAsSheet: false, x: 1046, width: 320, overlay: false,
                stack: ["info"])
        }
        variant {
            $0.presentations = [
                PresentationAdditions(
                    requestedStyle: "automatic", anchor: "mail", prefersEdgeAttachedInCompactHeight: true)
            ]
        }
        variant { _ in }
        variants[variants.count - 1].revision2 = nil
        for other in variants {
            #expect(LayoutDigest.text(other) != LayoutDigest.text(layout), "\(String(describing: other.revision2))")
            #expect(LayoutDigest.formatTwo(other) == LayoutDigest.formatTwo(layout))
            #expect(LayoutDigest.hex(other) == LayoutDigest.hex(layout))
        }
    }

    @Test func replayAcceptsEntriesOfEveryDigestFormatInOneTail() throws {
        // Entries of earlier daemons (formats 1 and 2) followed by this one's (format 3).
        var count = 0
        let (store, last) = try store(
            with: changes,
            digest: { layout in
                count += 1
                switch count {
                case 1: return LayoutDigest.hex(layout)
                case 2: return LayoutDigest.formatTwo(layout)
                default: return LayoutDigest.text(layout)
                }
            })
        let restored = try SceneRestore.restore(from: store, engine: engine)
        #expect(restored.replayed == 4)
        #expect(restored.scenes["s"]?.layout == last.layout)
    }

    @Test(arguments: ["20123456789abcd", "30123456789abcd"])
    func replayRefusesADivergentDigest(stored: String) throws {
        let (store, _) = try store(with: changes, alter: { $0[3].2 = stored }, digest: LayoutDigest.text)
        do {
            _ = try SceneRestore.restore(from: store, engine: engine)
            Issue.record("a divergent replay was accepted")
        } catch {
            #expect(
                "\(error)".contains("REPLAY DIVERGED: scene 's' revision 5") && "\(error)".contains("stored \(stored)"))
        }
    }

    @Test func replayRefusesADigestOfAnUnknownFormat() throws {
        let (store, _) = try store(with: changes, alter: { $0[1].2 = "v3:0123" }, digest: LayoutDigest.text)
        do {
            _ = try SceneRestore.restore(from: store, engine: engine)
            Issue.record("a digest of an unknown format was accepted")
        } catch {
            #expect("\(error)".contains("scene 's' revision 3: the layout digest 'v3:0123' has an unknown format"))
        }
    }
}
