import SplitCore
import SplitLoop
import SplitStore
import SplitWire

// When scenes are checkpointed (`Scenes` stages them): with a change, by the periodic sweep
// on the loop, and at a graceful stop.
extension Server {
    /// How many scenes one sweep checkpoints at most, so a sweep turn stays short.
    static let checkpointsPerSweep = 256

    /// Makes `state` the scene's state in memory and stages its journal entry (`Scenes.record`).
    /// `knownIndex`: where `scenes` holds the scene, when the caller looked it up already.
    func record(_ state: SceneState, layout: Layout, as change: JournalRecord, at knownIndex: Scenes.Index? = nil) {
        recordChange(Transition(state: state, layout: layout, events: [], changed: true), as: change, at: knownIndex)
    }

    /// `record` for a transition, which it consumes (`Scenes.record`), counted and staged in
    /// this turn.
    func recordChange(_ transition: consuming Transition, as change: JournalRecord, at knownIndex: Scenes.Index? = nil)
    {
        let interval = scenes.checkpointInterval(every: settings.checkpointEvery, replayBudget: settings.replayBudget)
        scenes.record(
            consume transition, as: change, at: knownIndex, checkpointInterval: interval,
            writer: &scratchWriter, turn: &turn)
        stats.changes += 1
        scheduleTurn()
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

    /// Checkpoints up to `limit` resting scenes in this turn (`Scenes.sweep`).
    func sweepCheckpoints(limit: Int) {
        guard phase == .running else { return }
        let notWritable: ((String) -> Bool)? = cluster.map { cluster in { !cluster.holds($0) } }
        if scenes.sweep(limit: limit, failedCommits: stats.failedCommits, into: &turn, skipping: notWritable) > 0 {
            scheduleTurn()
        }
    }

    /// After the loop ended (graceful stop): one batch checkpointing every scene with changes
    /// above its checkpoint, so the next start replays nothing. Failing only costs replay time:
    /// the journal holds those changes.
    func checkpointAllForStop() {
        let batch = scenes.checkpointsForStop()
        guard !batch.isEmpty else { return }
        do {
            try store.commit(batch)
            scenes.noteCheckpointsStored(batch.count)
            logger.info("stop: checkpointed \(batch.count) scene(s)")
        } catch {
            logger.error(
                "stop: could not checkpoint \(batch.count) scene(s), the next start replays their journal: \(error)")
        }
    }
}
