import SplitLoop
import Glibc
import SplitStore

// The end of a loop turn, the single place where a turn becomes visible (Redis's
// beforeSleep): commit the turn's changes once, in one transaction; flush them; then answer,
// one write per connection. `TurnCommitter` decides what waits for what; this file runs its
// actions. If a commit is refused, the turn's in-memory changes are undone, the replies
// that reported them become `storage` errors and its pushes are dropped.
extension Server {
    /// Stages a reply and makes sure this turn is finished before the loop sleeps.
    func stage(_ reply: Turn.Reply, for session: ClientSession) {
        if let target = session.answering { return stageForwardedAnswer(reply, target) }
        if case .change = reply {
            flushPeers.noteChange(of: &session.flushPeer, stagedBytes: session.stagedBytes, now: loop.now)
        }
        session.stagedBytes += reply.stagedByteCount
        flushPeers.update(&session.flushPeer, stagedBytes: session.stagedBytes)
        turn.stage(reply, for: session.id)
        scheduleTurn()
    }

    /// The check-phase `LoopHook`, right after the loop's reads: commit once, flush, then answer.
    func finishTurn() {
        if !unsentForwards.isEmpty { sendForwards() }
        guard !turn.isEmpty else {
            stats.clientsReadThisTurn = 0
            stats.linesThisTurn = 0
            unscheduleTurn()
            closeClientsIfStopped()
            return
        }
        busyPolledTurnCounted = false
        var work = committer.takeEmptyTurn()
        swap(&work, &turn)
        // Clients resumed below read into the next turn: they spend its budget.
        stats.clientsReadLastTurn = stats.clientsReadThisTurn
        stats.clientsReadThisTurn = 0
        stats.linesThisTurn = 0
        for id in work.connectionOrder { sessions[id]?.linesThisTurn = 0 }
        // Behind turns whose commit the store held back, this one commits with them.
        let alone = !committer.hasHeldBackCommits
        let batch = committer.turnEnded(consume work)
        commitAndAnswer(batch, alone: alone)
        if turn.isEmpty {
            unscheduleTurn()
            closeClientsIfStopped()
        }
        reportFlushPeers()
        releaseBacklogMemory()
    }

    /// Commits `batch`, the changes of the committer's uncommitted turns, and answers them as
    /// far as the ordering allows. `alone`: one turn at the end of its loop turn, not turns
    /// the store held back.
    private func commitAndAnswer(_ batch: StoreBatch, alone: Bool) {
        // 1. Commit once.
        let (result, failed) = cluster.map { commitToCluster(batch, $0) } ?? (commit(batch), [:])
        if result == .refused {
            // Last turn first, so that each scene ends at its value before the first of them.
            for work in committer.uncommitted.reversed() { rollBack(work) }
        } else if !failed.isEmpty {
            for work in committer.uncommitted.reversed() { rollBack(work, only: Set(failed.keys)) }
        }
        // 2. Flush: a change's reply is written only after its commit and, with a flush
        // thread, the flush covering it. The committer holds back every turn a pending flush
        // covers and every later turn; only the turns it releases below are answered now.
        let othersMayJoin = flushPeers.othersMayJoin(at: loop.now)
        switch committer.commitEnded(result, othersMayJoin: othersMayJoin, failed: failed) {
        case .retryLater:
            return startCommitRetries()
        case .answer, .waitBehindHeld:
            break
        case .flushInlineThenAnswer:
            do {
                try flushThread?.flushInline()
            } catch {
                flushFailed(error)
            }
        case let .requestFlush(generation, operations, firstHeld):
            reportedOthersMayJoin = othersMayJoin
            flushThread?.request(generation, operations: operations, othersMayJoin: othersMayJoin)
            if firstHeld { flushThread?.keepsLoopAlive(true) }
        }
        stopCommitRetries()
        // 3. Answer what waits for no flush (nothing, if the turns are held).
        guard alone else {
            while var settled = committer.nextTurnToAnswer(flushedThrough: 0) {
                answer(
                    settled.work, committed: settled.committed, rolledBack: settled.rolledBack, failed: settled.failed)
                if !committer.recycle(&settled.work) { noteFreedTurnStorage(settled.work) }
            }
            return
        }
        guard var settled = committer.nextTurnToAnswer(flushedThrough: 0) else { return }
        answer(settled.work, committed: settled.committed, rolledBack: settled.rolledBack, failed: settled.failed)
        // Keep the previous turn's storage for the next one (not a backlog's).
        if turn.isEmpty, settled.work.changeReplyCapacity <= TurnCommitter.spareMaxReplyBytes {
            settled.work.reset()
            swap(&settled.work, &turn)
            // The storage it replaces is freed: a burst's goes back to the system.
            noteFreedTurnStorage(settled.work)
        } else if !committer.recycle(&settled.work) {
            noteFreedTurnStorage(settled.work)
        }
        busyPollAfterWork()
    }

    /// Once a turn ended and the graceful stop waits for nothing more, closes every client
    /// after its output is written.
    func closeClientsIfStopped() {
        if phase == .stopping, turn.isEmpty, committer.isSettled, forwards.isEmpty, unsentForwards.isEmpty,
            sweepsInFlight == 0
        {
            closeClientsForStop()
        }
    }

    /// Tells a waiting flush that nobody may join it any more when a turn that asked for no
    /// flush (a read held behind one) or a closed client changed that; a new flush request
    /// carries it anyway.
    func reportFlushPeers() {
        guard let flushThread, committer.holdsTurns else { return }
        let othersMayJoin = flushPeers.othersMayJoin(at: loop.now)
        guard othersMayJoin != reportedOthersMayJoin else { return }
        reportedOthersMayJoin = othersMayJoin
        flushThread.setOthersMayJoin(othersMayJoin)
    }

    /// The retry timer: commits the turns the store held back
    /// (`SceneStore.commitUnlessHeldBack`) in one transaction, in their order; if the store
    /// still holds commits back, they wait for the next turn or retry.
    func retryHeldBackCommits() {
        guard let batch = committer.batchToRetry() else { return stopCommitRetries() }
        commitAndAnswer(batch, alone: false)
        closeClientsIfStopped()
    }

    /// While turns wait for the store, a timer retries their commit: no request may come to
    /// run another turn.
    private func startCommitRetries() {
        if commitRetryTimer == nil {
            commitRetryTimer = LoopTimer(loop: loop) { [unowned self] in
                self.retryHeldBackCommits()
                // Replies answered here change who waits, as at the end of a turn.
                self.reportFlushPeers()
            }
        }
        guard !commitRetriesActive else { return }
        commitRetriesActive = true
        commitRetryTimer?.start(delay: Self.commitRetryMilliseconds, interval: Self.commitRetryMilliseconds)
    }

    private func stopCommitRetries() {
        guard commitRetriesActive else { return }
        commitRetriesActive = false
        commitRetryTimer?.stop()
    }

    /// How often held-back turns retry their commit.
    static let commitRetryMilliseconds: UInt64 = 1

    /// Called before each line is handled: answers the held turns a finished flush covers
    /// without waiting for the flush thread's post. libuv runs that post in the order its
    /// eventfd became ready, after the reads of every client that was ready before it, so a
    /// turn's worth of reads would delay each flush's replies, and fewer changes would join
    /// the next flush.
    @inline(__always)
    func answerFlushedTurns() {
        guard let flushThread, let oldest = committer.oldestWaitingGeneration else { return }
        let completed = flushThread.completed
        guard completed >= oldest else { return }
        let held = committer.waitingTurns
        flushed(through: completed, error: nil)
        stats.heldTurnsAnsweredAtRead += held - committer.waitingTurns
    }

    /// On the loop: the WAL is flushed up to `generation`; answers the turns it covers.
    func flushed(through generation: Int, error: StoreError?) {
        if let error { flushFailed(error) }
        var answered = 0
        while var settled = committer.nextTurnToAnswer(flushedThrough: generation) {
            answer(settled.work, committed: settled.committed, rolledBack: settled.rolledBack, failed: settled.failed)
            answered += 1
            if !committer.recycle(&settled.work) { noteFreedTurnStorage(settled.work) }
        }
        turnMemory.noteFlushAnswered(turns: answered)
        // No busy polling here: held turns mean many clients, whose requests keep the loop
        // busy anyway; polling would only pick them up one by one into small turns.
        if !committer.holdsTurns, answered > 0 { flushThread?.keepsLoopAlive(false) }
        releaseBacklogMemory()
        closeClientsIfStopped()
    }

    /// After a failed flush the kernel may have dropped the unflushed pages, and what the
    /// disk holds of the turns' commits is unknown: nothing of them may be acknowledged, and
    /// memory may not run ahead of the disk. The daemon stops at once; the next start serves
    /// what the database holds (PostgreSQL's answer to the same fsync failure).
    private func flushFailed(_ error: StoreError) -> Never {
        logger.critical("flushing the WAL failed, acknowledging nothing more and exiting: \(error)")
        exit(75)
    }

    /// Commits the batch; `.refused` (after logging) if the store refused it.
    private func commit(_ batch: StoreBatch) -> TurnCommitter.CommitResult {
        guard !batch.isEmpty else { return .committed }
        do {
            guard try store.commitUnlessHeldBack(batch) else { return .heldBack }
            stats.commits += 1
            stats.committedOperations += batch.count
            stats.largestBatch = max(stats.largestBatch, batch.count)
            return .committed
        } catch {
            stats.failedCommits += 1
            lastStorageError = error.description
            // Rate-limited: a full disk fails every commit, the checkpoint sweep's included.
            if let skipped = commitFailureWarning.take(now: loop.now) {
                logger.error(
                    "commit of \(batch.count) operation\(batch.count == 1 ? "" : "s") failed, turn rolled back: \(error)\(skipped > 0 ? " (\(skipped) more failed commits since the last such error)" : "")"
                )
            }
            return .refused
        }
    }

    /// Cluster mode: commits through etcd; the scenes whose part failed while the rest
    /// stored (`.committed` with failures), or `.refused` when nothing of the batch did.
    private func commitToCluster(
        _ batch: StoreBatch, _ cluster: any ClusterMember
    ) -> (TurnCommitter.CommitResult, [String: SceneFailure]) {
        guard !batch.isEmpty else { return (.committed, [:]) }
        let report = cluster.commitTurn(batch)
        for scene in report.fenced.sorted() {
            logger.warning(
                "cluster: scene '\(scene)' lost its ownership (fenced); not serving it until it is owned again")
        }
        guard !report.isComplete else {
            stats.commits += 1
            stats.committedOperations += batch.count
            stats.largestBatch = max(stats.largestBatch, batch.count)
            return (.committed, [:])
        }
        stats.failedCommits += 1
        let failures = report.failures
        lastStorageError = failures.sorted { $0.key < $1.key }.map { "scene \($0.key): \($0.value)" }.joined(
            separator: "; ")
        if let skipped = commitFailureWarning.take(now: loop.now) {
            logger.error(
                "cluster commit of \(batch.count) operation\(batch.count == 1 ? "" : "s") not stored for \(failures.count) scene(s), their changes rolled back: \(lastStorageError ?? "")\(skipped > 0 ? " (\(skipped) more since the last such error)" : "")"
            )
        }
        return (.committed, failures)
    }

    /// Puts every scene changed this turn back to its pre-turn value (only those of `only`
    /// when given: a cluster commit that failed for some scenes).
    private func rollBack(_ work: Turn, only: Set<String>? = nil) {
        if let only {
            scenes.rollBack(work.replacedScenes.filter { only.contains($0.id) })
        } else {
            scenes.rollBack(work.replacedScenes)
        }
        // The attachment side of the rolled-back changes (an attach or detach that changed
        // nothing else stands, as its answer does).
        // Visibly changed only: an attach beside a failing sweep checkpoint of its scene was
        // answered (it stands), so it must stay.
        var changed = work.visiblyChangedSceneIDs
        if let only { changed.formIntersection(only) }
        for (scene, before) in work.attachmentsBefore where changed.contains(scene) {
            sessions.restore(attachmentsOf: scene, to: before, sceneExists: scenes[scene] != nil)
        }
        // The window is gone whatever the commit did: its scene's size is recomputed later.
        for (scene, leaverWasLatest) in work.windowLeftResizes
        where scenes[scene] != nil && (only?.contains(scene) ?? true) {
            sessions.retryWindowLeftResize(of: scene, leaverWasLatest: leaverWasLatest)
        }
    }
}
