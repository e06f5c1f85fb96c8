import SplitCore
import SplitLoop
import SplitStore
import SplitWire

// What an accepted change stores (Redis's AOF + RDB): a journal entry with the change as the
// engine applied it, every time; the full state blob (the scene's row, its checkpoint) only
// when the scene is created, every `checkpointEvery` changes, by a periodic sweep of scenes
// left with changes above their checkpoint, and at a graceful stop. A restart replays the
// journal above each checkpoint (SceneRestore.swift).
extension Server {
    /// How many scenes one sweep checkpoints at most, so a sweep turn stays short.
    static let checkpointsPerSweep = 256

    /// Makes `state` the scene's state in memory and stages its journal entry; a created scene,
    /// or one `checkpointEvery` changes past its checkpoint, is checkpointed in the same batch.
    /// `knownIndex`: where `scenes` holds the scene, when the caller looked it up already.
    func record(_ state: SceneState, layout: Layout, as change: JournalRecord,
                at knownIndex: Dictionary<String, LiveScene>.Index? = nil) {
        recordChange(Transition(state: state, layout: layout, events: [], changed: true), as: change, at: knownIndex)
    }

    /// Changes above its checkpoint after which a changed scene is checkpointed:
    /// `checkpointEvery`, or a quarter of it while the scenes listed with changes above their
    /// checkpoint could together hold more than `replayBudget` entries (what a start after a
    /// crash would replay). The list is a slight overcount (a scene leaves it at the next
    /// sweep), which only makes the short interval come sooner.
    var checkpointInterval: Int {
        let every = settings.checkpointEvery
        let budget = settings.replayBudget
        guard budget > 0, uncheckpointed.count > budget / every else { return every }
        return max(1, every / 4)
    }

    /// Stages the scene's row at its current revision and moves its checkpoint there.
    private func stageCheckpoint(of live: inout LiveScene) {
        stageCheckpoint(of: live.state)
        live.checkpointRevision = live.state.revision
    }

    /// Starts the periodic sweep on the loop (nil when turned off); the caller closes the
    /// timer at stop.
    func startCheckpointSweep() -> LoopTimer? {
        let interval = settings.checkpointSweepMilliseconds
        guard interval > 0 else { return nil }
        let timer = LoopTimer(loop: loop) { [unowned self] in self.sweepCheckpoints(limit: Self.checkpointsPerSweep) }
        timer.start(delay: interval, interval: interval)
        // Alone it must not keep a stopping loop alive.
        timer.unref()
        return timer
    }

    /// Checkpoints up to `limit` scenes that have changes above their checkpoint and did not
    /// change since the previous sweep, in this turn's batch (their bookkeeping rolls back
    /// with it if the commit fails). Scenes still changing stay listed for a later sweep.
    func sweepCheckpoints(limit: Int) {
        guard phase == .running else { return }
        if stats.failedCommits != failedCommitsAtSweep {
            // A failed commit put back older checkpoints that the set no longer lists.
            failedCommitsAtSweep = stats.failedCommits
            uncheckpointed = Set(scenes.filter { $0.value.uncheckpointedChanges > 0 }.keys)
        }
        var staged = 0
        var inUse: [String] = []
        while staged < limit, let id = uncheckpointed.popFirst() {
            guard let index = scenes.index(forKey: id) else { continue }
            let (changes, revision, seen) = scenes.values[index].withValue {
                ($0.uncheckpointedChanges, $0.state.revision, $0.revisionAtLastSweep)
            }
            guard changes > 0 else { continue }
            if revision != seen {
                scenes.values[index].revisionAtLastSweep = revision
                inUse.append(id)
                continue
            }
            var live = scenes.values[index]
            turn.remember(checkpointOf: id, before: live)
            stageCheckpoint(of: &live)
            scenes.values[index] = live
            staged += 1
        }
        uncheckpointed.formUnion(inUse)
        if staged > 0 { scheduleTurn() }
    }

    /// After the loop ended (graceful stop): one batch checkpointing every scene with changes
    /// above its checkpoint, so the next start replays nothing. Failing only costs replay time:
    /// the journal holds those changes.
    func checkpointAllForStop() {
        var batch = StoreBatch()
        for live in scenes.values where live.uncheckpointedChanges > 0 {
            batch.upsertScene(id: live.state.id, device: live.state.device, revision: Int64(live.state.revision),
                              state: SceneBlob.encode(live.state))
        }
        guard !batch.isEmpty else { return }
        do {
            try store.commit(batch)
            checkpointsStaged += batch.count
            logger.info("stop: checkpointed \(batch.count) scene(s)")
        } catch {
            logger.error("stop: could not checkpoint \(batch.count) scene(s), the next start replays their journal: \(error)")
        }
    }
}
