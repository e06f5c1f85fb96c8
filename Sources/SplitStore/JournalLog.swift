/// What the store keeps in memory about its journal, a log in append order (schema 3): the
/// sequence numbers, the head, and which scenes still need entries near the head.
///
/// A restart needs, for each scene, the entries above its checkpoint; every other entry is
/// history, kept `retention` entries deep and then pruned from the head of the log. The
/// scenes that hold the head back are the ones with entries above their checkpoint: for
/// each, the seq of its oldest such entry. A checkpoint clears a scene; a change sets it if
/// it was clear. The oldest of them (less one) is the watermark: everything at or below it
/// is history. The watermark only grows, so a stale one is a safe lower bound, recomputed
/// now and then instead of at every commit.
struct JournalLog {
    /// The newest seq in the log; 0 when it never held an entry. The newest entry is never
    /// pruned, so this survives a restart in the file.
    private(set) var lastSeq: Int64
    /// The oldest seq in the log; `lastSeq + 1` when it is empty.
    private(set) var headSeq: Int64
    /// Per scene with entries above its checkpoint, the seq of the oldest; nil until learned
    /// from the file (by `journalTails()` or the first prune).
    private(set) var uncheckpointed: [String: Int64]?
    /// Every entry at or below it is history (a lower bound, see above).
    private var watermark: Int64 = 0
    private var watermarkComputedAt: Int64?
    /// Scenes checkpointed earlier in the batch being committed, at which revision: their
    /// entries at or below it (a creation's first entry) are covered already.
    private var checkpointedInBatch: [String: Int64] = [:]
    private var saved: (lastSeq: Int64, headSeq: Int64, watermark: Int64)?

    init(lastSeq: Int64, headSeq: Int64) {
        self.lastSeq = lastSeq
        self.headSeq = headSeq
    }

    // MARK: A batch

    /// Remembers the state a failed batch must return to.
    mutating func beginBatch() {
        saved = (lastSeq, headSeq, watermark)
        checkpointedInBatch.removeAll(keepingCapacity: true)
    }

    /// The batch committed.
    mutating func endBatch() {
        saved = nil
        checkpointedInBatch.removeAll(keepingCapacity: true)
    }

    /// The batch rolled back: the sequence and head return to where they were; which scenes
    /// are uncheckpointed is learned again from the file (failures are rare).
    mutating func abandonBatch() {
        if let saved { (lastSeq, headSeq, watermark) = saved }
        saved = nil
        uncheckpointed = nil
        checkpointedInBatch.removeAll(keepingCapacity: true)
    }

    /// The seq of a new entry of `scene` at `revision`.
    mutating func append(scene: String, revision: Int64) -> Int64 {
        lastSeq += 1
        // Most entries are of a scene listed already (nothing to do): one lookup for them.
        guard uncheckpointed != nil, uncheckpointed![scene] == nil else { return lastSeq }
        if let checkpoint = checkpointedInBatch[scene], revision <= checkpoint { return lastSeq }
        uncheckpointed![scene] = lastSeq
        return lastSeq
    }

    /// The scene's row now covers every entry up to the returned seq (its new floor).
    mutating func checkpoint(scene: String, revision: Int64) -> Int64 {
        uncheckpointed?.removeValue(forKey: scene)
        checkpointedInBatch[scene] = revision
        return lastSeq
    }

    /// The scene is gone: its entries are history.
    mutating func delete(scene: String) {
        uncheckpointed?.removeValue(forKey: scene)
        checkpointedInBatch.removeValue(forKey: scene)
    }

    // MARK: Pruning

    /// Learns which scenes are uncheckpointed (the oldest such seq of each) from the file.
    mutating func learn(_ firstUncheckpointed: [String: Int64]) {
        uncheckpointed = firstUncheckpointed
        watermarkComputedAt = nil
    }

    var knowsUncheckpointed: Bool { uncheckpointed != nil }

    /// The first seq to keep so that `retention` entries of history stay, at most `chunk`
    /// entries past the head (a prune spreads over commits instead of stalling one), or nil
    /// when fewer than `batch` entries are to be pruned. `retention` 0 keeps everything.
    /// The watermark is recomputed (a pass over the uncheckpointed scenes) only when it holds
    /// the prune back and at most every `refresh` nanoseconds.
    mutating func pruneTarget(retention: Int64, chunk: Int64, batch: Int64 = 1, now: Int64, refresh: Int64) -> Int64? {
        guard retention > 0, let uncheckpointed else { return nil }
        let batch = max(1, batch)
        // Recomputed only when the stale one holds back a prune that would run.
        let kept = keepFrom(retention: retention)
        if kept <= headSeq || kept - headSeq < batch,
            watermarkComputedAt.map({ now - $0 >= refresh }) ?? true
        {
            watermark = max(watermark, (uncheckpointed.values.min() ?? lastSeq + 1) - 1)
            watermarkComputedAt = now
        }
        // The newest entry stays: it carries the sequence across a restart.
        let target = min(keepFrom(retention: retention), headSeq + max(chunk, batch), lastSeq)
        return target > headSeq && target - headSeq >= batch ? target : nil
    }

    /// The head moved to `seq` (entries below it were deleted).
    mutating func pruned(below seq: Int64) {
        headSeq = max(headSeq, seq)
    }

    private func keepFrom(retention: Int64) -> Int64 {
        let (kept, overflow) = watermark.subtractingReportingOverflow(retention - 1)
        return overflow ? .min : kept
    }
}
