import SplitLoop
import SplitCore
import SplitStore
import SplitWire

/// The live scenes the loop owns, the engine that changes them, and what their changes store
/// (Redis's AOF + RDB): a journal record with the change as the engine applied it, every
/// time; the scene's row (its checkpoint) when it is created, every `checkpointEvery`
/// changes, by a periodic sweep of scenes left with changes above their checkpoint, and at a
/// graceful stop. A restart replays the journal above each checkpoint (SceneRestore.swift).
///
/// It stages into the turn it is given and keeps there what a rollback needs; it writes
/// neither to the store nor to a client.
struct Scenes {
    /// The engine in a box: a struct beside `live`, read inside the dictionary's mutating
    /// access, would be copied for every change (a retain and release of each of the device
    /// catalog's collections); a `let` of a final class is read in place.
    private var engineBox: EngineBox
    var engine: SplitEngine {
        get { engineBox.engine }
        set { engineBox = EngineBox(newValue) }
    }
    /// The scenes by id.
    private var live: [String: LiveScene] = [:]
    /// Scenes that may have changes above their checkpoint, for the sweep (a hint: the sweep
    /// checks each scene's `LiveScene`).
    private(set) var uncheckpointed: Set<String> = []
    /// The failed commits counted when the sweep last rebuilt `uncheckpointed`.
    private var failedCommitsAtSweep = 0
    /// Checkpoints staged since start (logged at stop).
    private(set) var checkpointsStaged = 0

    init(engine: SplitEngine) {
        engineBox = EngineBox(engine)
    }

    /// The scenes a start restored; those with changes above their checkpoint are listed for
    /// the sweep.
    mutating func restore(_ restored: [String: LiveScene]) {
        live = restored
        uncheckpointed = Set(restored.filter { $0.value.uncheckpointedChanges > 0 }.keys)
    }

    subscript(id: String) -> LiveScene? {
        get { live[id] }
        set { live[id] = newValue }
    }

    var count: Int { live.count }

    var ids: Dictionary<String, LiveScene>.Keys { live.keys }

    @discardableResult
    mutating func remove(_ id: String) -> LiveScene? { live.removeValue(forKey: id) }

    // MARK: Changes

    /// Where `live` holds the scene: valid until a scene is added or removed, so that a change
    /// passes it on rather than hashing the id again.
    typealias Index = Dictionary<String, LiveScene>.Index

    func index(of id: String) -> Index? { live.index(forKey: id) }

    /// The scene's revision and sizePolicy, read in place (a get copies the whole scene, a
    /// retain per field).
    mutating func revisionAndPolicy(at index: Index) -> (revision: Int, policy: SizePolicy) {
        live.values[index].withValue { ($0.state.revision, $0.state.config.sizePolicy) }
    }

    mutating func size(at index: Index) -> Size {
        live.values[index].withValue { $0.state.size }
    }

    /// The engine applied to the scene: it reads the scene where the dictionary holds it (no
    /// copy) and starts from the layout kept with it; a no-op's transition holds the current
    /// state and layout.
    mutating func transition(
        _ change: SceneChange, of id: String, at knownIndex: Index? = nil
    ) throws(WireError) -> Transition {
        try transition(.change(change), of: id, at: knownIndex)
    }

    mutating func transition(
        _ change: SceneCommand, of id: String, at knownIndex: Index? = nil
    ) throws(WireError) -> Transition {
        guard let index = knownIndex ?? live.index(forKey: id) else {
            throw WireError(.unknownScene, "no scene '\(id)'")
        }
        let engineBox = engineBox
        do {
            return try live.values[index].withValue { live throws(CoreError) in
                try engineBox.engine.apply(change, to: live.state, currentLayout: live.layout)
            }
        } catch {
            throw WireError(error)
        }
    }

    /// Makes the transition's state and layout the scene's and stages its journal record in
    /// `turn`, which keeps what the change replaced for a rollback; a created scene, or one
    /// `checkpointInterval` changes past its checkpoint, is checkpointed in the same batch.
    /// Neither state is copied: they are swapped, and the transition, then holding the
    /// replaced ones, goes to the turn. `writer` is the loop's scratch writer.
    mutating func record(
        _ transition: consuming Transition, as change: JournalRecord, at knownIndex: Index?,
        checkpointInterval: Int, writer: inout JSONWriter, turn: inout Turn
    ) {
        let id = transition.state.id
        let index = knownIndex ?? live.index(forKey: id)
        let revision = transition.state.revision
        let previousCheckpoint = index.map { live.values[$0].withValue { $0.checkpointRevision } } ?? 0
        var checkpointRevision = previousCheckpoint
        // Left in the writer until `appendJournal` copies it (a checkpoint's blob has its own).
        JournalRecordCoding.write(change, into: &writer)
        let layoutHash = LayoutDigest.text(transition.layout)
        let created = if case .created = change { true } else { false }
        if created {
            // The row must exist before its journal entry (foreign key).
            stageCheckpoint(of: transition.state, into: &turn.batch)
            checkpointRevision = revision
        }
        writer.withBytes {
            turn.batch.appendJournal(scene: id, revision: Int64(revision), change: $0, layoutHash: layoutHash)
        }
        if !created {
            if revision - previousCheckpoint >= checkpointInterval {
                stageCheckpoint(of: transition.state, into: &turn.batch)
                checkpointRevision = revision
            } else if revision - previousCheckpoint == 1 || index == nil {
                // A scene is listed from its first change above its checkpoint on (the start
                // lists restored ones, the sweep relists all after a failed commit), not at
                // every change: hashing the id into the set costs more than the rest of this.
                uncheckpointed.insert(id)
            }
        }
        if let index {
            let replacedCheckpoint = live.values[index].exchange(&transition, checkpointRevision: checkpointRevision)
            turn.remember(scene: id, swappedOut: consume transition, checkpointRevision: replacedCheckpoint)
        } else {
            live[id] = LiveScene(
                state: transition.state, layout: transition.layout, checkpointRevision: checkpointRevision)
            turn.remember(scene: id, before: nil)
        }
    }

    /// Puts the scenes a refused turn changed back to their values before it: `replaced`
    /// in change order, undone last to first, so that each scene ends at the value its first
    /// change replaced.
    mutating func rollBack(_ replaced: [(id: String, value: LiveScene?)]) {
        for (id, previous) in replaced.reversed() {
            if let previous { live[id] = previous } else { live.removeValue(forKey: id) }
        }
    }

    // MARK: Checkpoints

    /// Changes above its checkpoint after which a changed scene is checkpointed: `every`, or
    /// a quarter of it while the scenes listed with changes above their checkpoint could
    /// together hold more than `replayBudget` entries (what a start after a crash would
    /// replay). The list is a slight overcount (a scene leaves it at the next sweep), which
    /// only makes the short interval come sooner.
    func checkpointInterval(every: Int, replayBudget: Int) -> Int {
        guard replayBudget > 0, uncheckpointed.count > replayBudget / every else { return every }
        return max(1, every / 4)
    }

    /// Stages the scene's row at `state`'s revision (a checkpoint).
    mutating func stageCheckpoint(of state: SceneState, into batch: inout StoreBatch) {
        batch.upsertScene(
            id: state.id, device: state.device, revision: Int64(state.revision),
            state: SceneBlob.encode(state))
        checkpointsStaged += 1
    }

    /// Checkpoints up to `limit` scenes that have changes above their checkpoint and did not
    /// change since the previous sweep, in `turn` (their bookkeeping rolls back with it if the
    /// commit fails); returns how many. Scenes still changing stay listed for a later sweep.
    /// `failedCommits`: the daemon's count, whose change means a rollback put back older
    /// checkpoints that the list no longer holds.
    mutating func sweep(
        limit: Int, failedCommits: Int, into turn: inout Turn, skipping notWritable: ((String) -> Bool)? = nil
    ) -> Int {
        if failedCommits != failedCommitsAtSweep {
            failedCommitsAtSweep = failedCommits
            uncheckpointed = Set(live.filter { $0.value.uncheckpointedChanges > 0 }.keys)
        }
        var staged = 0
        var inUse: [String] = []
        while staged < limit, let id = uncheckpointed.popFirst() {
            guard let index = live.index(forKey: id) else { continue }
            let (changes, revision, seen) = live.values[index].withValue {
                ($0.uncheckpointedChanges, $0.state.revision, $0.revisionAtLastSweep)
            }
            guard changes > 0 else { continue }
            // Another node's scene (cluster mode): its owner checkpoints it. A checkpoint
            // refused here would roll back the copy, and the owner's revisions with it.
            if let notWritable, notWritable(id) { continue }
            if revision != seen {
                live.values[index].revisionAtLastSweep = revision
                inUse.append(id)
                continue
            }
            var scene = live.values[index]
            turn.remember(checkpointOf: id, before: scene)
            stageCheckpoint(of: scene.state, into: &turn.batch)
            scene.checkpointRevision = scene.state.revision
            live.values[index] = scene
            staged += 1
        }
        uncheckpointed.formUnion(inUse)
        return staged
    }

    /// One batch checkpointing every scene with changes above its checkpoint, for a graceful
    /// stop: the next start then replays nothing.
    func checkpointsForStop() -> StoreBatch {
        var batch = StoreBatch()
        for scene in live.values where scene.uncheckpointedChanges > 0 {
            batch.upsertScene(
                id: scene.state.id, device: scene.state.device, revision: Int64(scene.state.revision),
                state: SceneBlob.encode(scene.state))
        }
        return batch
    }

    /// Counts checkpoints stored outside a turn (at stop).
    mutating func noteCheckpointsStored(_ count: Int) { checkpointsStaged += count }
}

/// An engine that is replaced, not changed, when a reload changes its limits.
final class EngineBox: Sendable {
    let engine: SplitEngine

    init(_ engine: SplitEngine) { self.engine = engine }
}
