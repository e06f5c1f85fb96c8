import SplitCore
import SplitStore
import SplitWire
import Testing
@testable import SplitServer

/// `Scenes` alone, without a loop or a store: what a change stages in the turn, when a scene
/// is checkpointed, and what a rollback and the sweep do.
@Suite("Scenes")
struct ScenesTests {
    private let engine = SplitEngineFixture.engine

    /// Creates scene `id` in `scenes`, staged in `turn`.
    private func create(_ id: String, in scenes: inout Scenes, turn: inout Turn, interval: Int = 100) throws {
        let state = try engine.createScene(id: id, device: "ipad-pro-12.9", size: nil, config: nil)
        let created = Transition(state: state, layout: engine.layout(of: state), events: [], changed: true)
        var writer = JSONWriter(capacity: 256)
        scenes.record(created, as: .created, at: nil, checkpointInterval: interval, writer: &writer, turn: &turn)
    }

    /// Resizes scene `id` to `width` through the engine, staged in `turn`.
    private func resize(
        _ id: String, to width: Double, in scenes: inout Scenes, turn: inout Turn,
        interval: Int = 100
    ) throws {
        let change = SceneChange.resize(Size(width: width, height: 1024))
        let transition = try scenes.transition(change, of: id)
        var writer = JSONWriter(capacity: 256)
        scenes.record(
            transition, as: .change(change), at: scenes.index(of: id), checkpointInterval: interval,
            writer: &writer, turn: &turn)
    }

    /// The kinds of the batch's operations, in order.
    private func kinds(_ batch: StoreBatch) -> [String] {
        batch.operations.map { operation in
            switch operation {
            case .upsertScene(let id, _, let revision, _): "row \(id)@\(revision)"
            case .appendJournal(let scene, let revision, _, _): "journal \(scene)@\(revision)"
            default: "other"
            }
        }
    }

    @Test func aCreatedSceneIsCheckpointedBeforeItsJournalRecord() throws {
        var scenes = Scenes(engine: engine)
        var turn = Turn()
        try create("s", in: &scenes, turn: &turn)
        try resize("s", to: 981, in: &scenes, turn: &turn)
        #expect(kinds(turn.batch) == ["row s@1", "journal s@1", "journal s@2"])
        #expect(scenes["s"]?.state.revision == 2)
        #expect(scenes["s"]?.checkpointRevision == 1)
        #expect(scenes.uncheckpointed == ["s"], "listed from its first change above its checkpoint")
        #expect(scenes.checkpointsStaged == 1)
    }

    @Test func aSceneIsCheckpointedEveryIntervalChanges() throws {
        var scenes = Scenes(engine: engine)
        var turn = Turn()
        try create("s", in: &scenes, turn: &turn, interval: 2)
        try resize("s", to: 981, in: &scenes, turn: &turn, interval: 2)
        try resize("s", to: 700, in: &scenes, turn: &turn, interval: 2)
        #expect(kinds(turn.batch) == ["row s@1", "journal s@1", "journal s@2", "journal s@3", "row s@3"])
        #expect(scenes["s"]?.checkpointRevision == 3)
        #expect(scenes.checkpointInterval(every: 8, replayBudget: 0) == 8)
        #expect(scenes.checkpointInterval(every: 8, replayBudget: 8) == 8, "one listed scene may hold the budget")
        #expect(
            scenes.checkpointInterval(every: 8, replayBudget: 7) == 2, "a quarter once the listed scenes may pass it")
    }

    @Test func aRollBackPutsEveryChangedSceneBack() throws {
        var scenes = Scenes(engine: engine)
        var setup = Turn()
        try create("kept", in: &scenes, turn: &setup)
        let before = try #require(scenes["kept"])
        var turn = Turn()
        try resize("kept", to: 981, in: &scenes, turn: &turn)
        try resize("kept", to: 700, in: &scenes, turn: &turn)
        try create("new", in: &scenes, turn: &turn)
        #expect(scenes.count == 2)
        scenes.rollBack(turn.replacedScenes)
        #expect(scenes.count == 1, "a scene the turn created is gone")
        #expect(scenes["kept"]?.state == before.state)
        #expect(scenes["kept"]?.layout == before.layout)
        #expect(scenes["kept"]?.checkpointRevision == before.checkpointRevision)
    }

    @Test func theSweepCheckpointsOnlyScenesThatRest() throws {
        var scenes = Scenes(engine: engine)
        var turn = Turn()
        try create("s", in: &scenes, turn: &turn)
        try resize("s", to: 981, in: &scenes, turn: &turn)
        var sweep = Turn()
        #expect(scenes.sweep(limit: 10, failedCommits: 0, into: &sweep) == 0, "it changed since the last sweep")
        #expect(scenes.uncheckpointed == ["s"])
        #expect(scenes.sweep(limit: 10, failedCommits: 0, into: &sweep) == 1)
        #expect(kinds(sweep.batch) == ["row s@2"])
        #expect(scenes["s"]?.checkpointRevision == 2)
        #expect(scenes.uncheckpointed.isEmpty)
        #expect(
            sweep.changedSceneIDs == ["s"] && sweep.visiblyChangedSceneIDs.isEmpty,
            "a checkpoint alone changes nothing a read shows")
        #expect(scenes.checkpointsForStop().isEmpty)
    }
}
