import CLibUV
import Glibc
import SplitLoop
import SplitStore
import SplitWire

// The single place where a turn becomes visible (after Redis's beforeSleep): commit the
// turn's batch in one transaction, and only then write its replies and pushes, one write
// per connection. If the commit fails, the turn's in-memory changes are undone, the replies
// that reported them become `storage` errors and its pushes are dropped.
extension Server {
    /// Stages a reply and makes sure this turn is finished before the loop sleeps.
    func stage(_ reply: Turn.Reply, for session: ClientSession) {
        if case .change = reply {
            flushPeers.noteChange(of: &session.flushPeer, stagedBytes: session.stagedBytes, now: uv_now(loop))
        }
        session.stagedBytes += reply.stagedByteCount
        flushPeers.update(&session.flushPeer, stagedBytes: session.stagedBytes)
        turn.stage(reply, for: session.id)
        scheduleTurn()
    }

    /// The uv_check callback.
    func finishTurn() {
        guard !turn.isEmpty else {
            stats.clientsReadThisTurn = 0
            stats.linesThisTurn = 0
            unscheduleTurn()
            if phase == .stopping, heldTurns.isEmpty, deferredTurns.isEmpty { closeClientsForStop() }
            return
        }
        busyPolledTurnCounted = false
        // An emptied turn with storage from earlier turns, if there is one: a held turn keeps
        // its own storage until its flush, and a fresh one grows a dozen arrays per turn.
        var work = spareTurns.popLast() ?? Turn()
        swap(&work, &turn)
        // Clients resumed below read into the next turn: they spend its budget.
        stats.clientsReadLastTurn = stats.clientsReadThisTurn
        stats.clientsReadThisTurn = 0
        stats.linesThisTurn = 0
        for id in work.connectionOrder { sessions[id]?.linesThisTurn = 0 }
        if !deferredTurns.isEmpty {
            // Behind turns not committed yet: it commits with them, never before them.
            deferTurn(work)
            commitDeferredTurns()
        } else {
            switch commit(work.batch) {
            case .heldBack:
                deferTurn(work)
                startCommitRetries()
            case let .done(committed):
                let rolledBack: Set<String> = committed ? [] : work.visiblyChangedSceneIDs
                if !committed { rollBack(work) }
                if hold(work, committed: committed, rolledBack: rolledBack) {
                    // Its storage goes with it; the next turn grows its own.
                } else {
                    answer(work, committed: committed, rolledBack: rolledBack)
                    // Keep the previous turn's storage for the next one (not a backlog's).
                    if turn.isEmpty, work.changeReplyCapacity <= Self.spareTurnMaxReplyBytes {
                        work.reset()
                        swap(&work, &turn)
                        // The storage it replaces is freed: a burst's goes back to the system.
                        noteFreedTurnStorage(work)
                    } else {
                        recycle(&work)
                    }
                    busyPollAfterWork()
                }
            }
        }
        if turn.isEmpty {
            unscheduleTurn()
            if phase == .stopping, heldTurns.isEmpty, deferredTurns.isEmpty { closeClientsForStop() }
        }
        reportFlushPeers()
        releaseBacklogMemory()
    }

    /// Tells a waiting flush that nobody may join it any more when a turn that asked for no
    /// flush (a read held behind one) or a closed client changed that; a new flush request
    /// carries it anyway.
    func reportFlushPeers() {
        guard let flushThread, !heldTurns.isEmpty else { return }
        let othersMayJoin = flushPeers.othersMayJoin(at: uv_now(loop))
        guard othersMayJoin != reportedOthersMayJoin else { return }
        reportedOthersMayJoin = othersMayJoin
        flushThread.setOthersMayJoin(othersMayJoin)
    }

    /// Commits the turns the store held back (`SceneStore.commitUnlessHeldBack`) in one
    /// transaction, in their order, then holds or answers them as one turn; if the store still
    /// holds commits back, they wait for the next turn or retry.
    func commitDeferredTurns() {
        guard !deferredTurns.isEmpty else { return stopCommitRetries() }
        guard case let .done(committed) = commit(deferredBatch) else { return startCommitRetries() }
        stopCommitRetries()
        let group = deferredTurns
        let operations = deferredBatch.count
        deferredTurns.removeAll()
        deferredBatch.removeAll()
        var rolledBack: Set<String> = []
        if !committed {
            for work in group { rolledBack.formUnion(work.visiblyChangedSceneIDs) }
            for work in group.reversed() { rollBack(work) }
        }
        let needsFlush = committed && operations > 0
        if flushThread != nil, needsFlush || !heldTurns.isEmpty {
            holdBehindFlush(group, flushing: needsFlush ? operations : nil, committed: committed, rolledBack: rolledBack)
        } else {
            for var work in group {
                answer(work, committed: committed, rolledBack: rolledBack)
                recycle(&work)
            }
        }
        if phase == .stopping, turn.isEmpty, heldTurns.isEmpty { closeClientsForStop() }
    }

    /// Keeps `work` for `commitDeferredTurns()`, its batch with the others'.
    private func deferTurn(_ work: Turn) {
        deferredBatch.append(contentsOf: work.batch)
        deferredTurns.append(work)
    }

    /// While turns wait for the store, a timer retries their commit: no request may come to
    /// run another turn.
    private func startCommitRetries() {
        if commitRetryTimer == nil {
            commitRetryTimer = LoopTimer(loop: loop) { [unowned self] in
                self.commitDeferredTurns()
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

    /// Whether the turn's replies must wait for a flush of the WAL (they are then held): its
    /// commit is not durable yet, or an earlier held turn's is (its replies may show that
    /// turn's state). A small turn with nothing held flushes on the loop at once, unless
    /// another client sending now may join the flush: a thread hop would only add to its
    /// latency, but a flush inline makes every other client wait for it, then for its own.
    private func hold(_ work: Turn, committed: Bool, rolledBack: Set<String>) -> Bool {
        guard let flushThread else { return false }
        let needsFlush = committed && !work.batch.isEmpty
        if needsFlush, heldTurns.isEmpty, work.batch.count < Self.inlineFlushOperations, !flushPeers.othersMayJoin(at: uv_now(loop)) {
            do {
                try flushThread.flushInline()
            } catch {
                flushFailed(error)
            }
            return false
        }
        guard needsFlush || !heldTurns.isEmpty else { return false }
        holdBehindFlush(CollectionOfOne(work), flushing: needsFlush ? work.batch.count : nil,
                        committed: committed, rolledBack: rolledBack)
        return true
    }

    /// Holds `turns` until the flush of the current generation, after asking for a new one
    /// when they committed `flushing` operations (nil: they only wait behind held turns).
    private func holdBehindFlush(_ turns: some Sequence<Turn>, flushing operations: Int?, committed: Bool,
                                 rolledBack: Set<String>) {
        guard let flushThread else { return }
        if let operations {
            flushesRequested += 1
            reportedOthersMayJoin = flushPeers.othersMayJoin(at: uv_now(loop))
            flushThread.request(flushesRequested, operations: operations, othersMayJoin: reportedOthersMayJoin)
        }
        if heldTurns.isEmpty { flushThread.keepsLoopAlive(true) }
        for work in turns {
            heldTurns.append(HeldTurn(generation: flushesRequested, work: work, committed: committed, rolledBack: rolledBack))
        }
    }

    /// Turns with fewer operations than this flush on the loop when nothing is held.
    static let inlineFlushOperations = 4

    /// Called before each line is handled: answers the held turns a finished flush covers
    /// without waiting for the flush thread's post. libuv runs that post in the order its
    /// eventfd became ready, after the reads of every client that was ready before it: at 100
    /// clients a turn's worth of reads (~0.3 ms) delayed each flush's replies. Answering them
    /// first, 7 alternated pairs at 100 × 1 durable: 89.1-105.4k changes/s against 80.8-95.1k,
    /// ~51 changes per flush against ~36 (docs/PERFORMANCE.md, stop 24).
    @inline(__always)
    func answerFlushedTurns() {
        guard let flushThread, let first = heldTurns.first else { return }
        let completed = flushThread.completed
        guard completed >= first.generation else { return }
        let held = heldTurns.count
        flushed(through: completed, error: nil)
        stats.heldTurnsAnsweredAtRead += held - heldTurns.count
    }

    /// On the loop: the WAL is flushed up to `generation`; answers the turns it covers.
    func flushed(through generation: Int, error: StoreError?) {
        if let error { flushFailed(error) }
        var answered = 0
        while let first = heldTurns.first, first.generation <= generation {
            // Moved out of the list, so that emptying it below copies nothing.
            var held = heldTurns.removeFirst()
            answer(held.work, committed: held.committed, rolledBack: held.rolledBack)
            answered += 1
            recycle(&held.work)
        }
        if answered >= Self.backlogTurns { backlogMemoryToRelease = true }
        // No busy polling here: held turns mean many clients, whose requests keep the loop
        // busy anyway; polling would only pick them up one by one into small turns.
        if heldTurns.isEmpty, answered > 0 { flushThread?.keepsLoopAlive(false) }
        releaseBacklogMemory()
        if phase == .stopping, heldTurns.isEmpty, turn.isEmpty { closeClientsForStop() }
    }

    /// Keeps an answered turn's storage for a later turn (at most `Self.spareTurnLimit`, and
    /// not the storage of an exceptionally large turn, which would stay allocated).
    private func recycle(_ work: inout Turn) {
        guard spareTurns.count < Self.spareTurnLimit, work.replyCapacity <= Self.spareTurnMaxReplies,
              work.changeReplyCapacity <= Self.spareTurnMaxReplyBytes else { return noteFreedTurnStorage(work) }
        work.reset()
        spareTurns.append(work)
    }

    /// A turn whose storage is about to be freed: when it is more than every turn may keep
    /// (a burst's, or a backlog's), the memory goes back to the system with a backlog's.
    private func noteFreedTurnStorage(_ work: borrowing Turn) {
        if work.changeReplyCapacity > Self.keptTurnStorageFloorBytes { backlogMemoryToRelease = true }
    }

    /// A flush that answers this many turns at once ended a backlog: the disk stalled (a slow
    /// `fdatasync`) while the loop went on reading. Freed turn storage over
    /// `keptTurnStorageFloorBytes` marks one too (`noteFreedTurnStorage`).
    static let backlogTurns = 8
    static let backlogReleaseIntervalMilliseconds: UInt64 = 1000

    /// Once a backlog is answered and nothing is held any more, hands its freed memory back to
    /// the system: glibc keeps what a burst freed (a 60 ms stall in a 1000-window storm left
    /// the RSS 2.8-4.2 MiB higher for good; `malloc_trim` took 70-280 µs). Within a second of
    /// the last release it waits for a later turn or the housekeeping tick.
    func releaseBacklogMemory() {
        guard backlogMemoryToRelease, heldTurns.isEmpty, deferredTurns.isEmpty else { return }
        let now = uv_now(loop)
        guard lastBacklogRelease == 0 || now - lastBacklogRelease >= Self.backlogReleaseIntervalMilliseconds else { return }
        backlogMemoryToRelease = false
        lastBacklogRelease = now
        releaseFreeMemory(after: "a backlog")
    }

    /// At the housekeeping tick: reply storage that the turns of the last second did not
    /// need (more than twice the most one of them used, and at least
    /// `keptTurnStorageFloorBytes`) is freed, and handed back to the system with a
    /// backlog's. A burst read as one large turn (a stalled process, a client that sent
    /// thousands of lines at once) left its storage, up to `spareTurnMaxReplyBytes`, kept
    /// for turns that no longer come.
    func trimKeptTurnStorage() {
        let needed = max(Self.keptTurnStorageFloorBytes, 2 * turnReplyBytesHighWater)
        turnReplyBytesHighWater = 0
        var freed = turn.dropReplyStorage(above: needed)
        for index in spareTurns.indices { freed += spareTurns[index].dropReplyStorage(above: needed) }
        guard freed > 0 else { return }
        backlogMemoryToRelease = true
        logger.debug("freed \(freed >> 10) KiB of turn storage the last second's turns did not need")
    }

    /// Reply storage every turn may keep: a few hundred changes' replies.
    static let keptTurnStorageFloorBytes = 256 << 10

    static let spareTurnLimit = 2
    static let spareTurnMaxReplies = 4096
    /// 4 MiB: about 4000 changes' replies, twice what 100 clients pipelining 16 stage in a turn
    /// (whose storage is kept and reused); a larger turn comes from a backlog, and its storage
    /// is freed, not kept.
    static let spareTurnMaxReplyBytes = 4 << 20

    /// After a failed flush the kernel may have dropped the unflushed pages, and what the
    /// disk holds of the turns' commits is unknown: nothing of them may be acknowledged, and
    /// memory may not run ahead of the disk. The daemon stops at once; the next start serves
    /// what the database holds (PostgreSQL's answer to the same fsync failure).
    private func flushFailed(_ error: StoreError) -> Never {
        logger.critical("flushing the WAL failed, acknowledging nothing more and exiting: \(error)")
        exit(75)
    }

    /// Writes a turn's replies and pushes, one write per connection.
    private func answer(_ work: Turn, committed: Bool, rolledBack: Set<String>) {
        turnReplyBytesHighWater = max(turnReplyBytesHighWater, work.changeReplyByteCount)
        for (slot, id) in work.connectionOrder.enumerated() {
            guard let session = sessions[id] else { continue }
            let replies = work.replies(of: slot)
            session.stagedBytes = max(0, session.stagedBytes - replies.reduce(0) { $0 + $1.stagedByteCount })
            flushPeers.update(&session.flushPeer, stagedBytes: session.stagedBytes)
            deliver(replies, to: session, committed: committed, rolledBack: rolledBack)
            resumeIfCaughtUp(session)
        }
    }

    enum CommitOutcome {
        /// Committed (true) or refused by the store (false, after logging).
        case done(Bool)
        /// The store held the commit back for a moment; nothing was written.
        case heldBack
    }

    /// Commits the batch; `.done(false)` (after logging) if the store refused it.
    private func commit(_ batch: StoreBatch) -> CommitOutcome {
        guard !batch.isEmpty else { return .done(true) }
        do {
            guard try store.commitUnlessHeldBack(batch) else { return .heldBack }
            stats.commits += 1
            stats.committedOperations += batch.count
            stats.largestBatch = max(stats.largestBatch, batch.count)
            return .done(true)
        } catch {
            stats.failedCommits += 1
            lastStorageError = error.description
            // Rate-limited: a full disk fails every commit, the checkpoint sweep's included.
            if let skipped = commitFailureWarning.take(now: uv_now(loop)) {
                logger.error("commit of \(batch.count) operation\(batch.count == 1 ? "" : "s") failed, turn rolled back: \(error)\(skipped > 0 ? " (\(skipped) more failed commits since the last such error)" : "")")
            }
            return .done(false)
        }
    }

    /// Puts every scene changed this turn back to its pre-turn value.
    private func rollBack(_ work: Turn) {
        // Last change first, so that each scene ends at the value its first change replaced.
        for (id, previous) in work.replacedScenes.reversed() {
            if let previous { scenes[id] = previous } else { scenes.removeValue(forKey: id) }
        }
        // The attachment side of the rolled-back changes (an attach or detach that changed
        // nothing else stands, as its answer does).
        // Visibly changed only: an attach beside a failing sweep checkpoint of its scene was
        // answered (it stands), so it must stay.
        let changed = work.visiblyChangedSceneIDs
        for (scene, before) in work.attachmentsBefore where changed.contains(scene) {
            restoreAttachments(of: scene, to: before)
        }
        // The window is gone whatever the commit did: its scene's size is recomputed later.
        for (scene, leaverWasLatest) in work.windowLeftResizes where scenes[scene] != nil {
            pendingWindowLeftResizes[scene] = (pendingWindowLeftResizes[scene] ?? false) || leaverWasLatest
        }
    }

    private func deliver(_ replies: Turn.ConnectionReplies, to session: ClientSession, committed: Bool, rolledBack: Set<String>) {
        // Depth 1, the common case: one reply that stands is written from its own bytes.
        if let only = replies.single {
            if case .change(let range, _, _) = only, committed {
                replies.changeReplyBytes.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[range]), to: session) }
                return
            }
            if let bytes = standing(only, committed: committed, rolledBack: rolledBack) {
                if case .attach(_, _, let scene) = only { session.dropHeldPush(of: scene) }
                write(bytes, to: session)
                return
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(byteCount(of: replies))
        for reply in replies {
            switch reply {
            case .fixed(let bytes):
                output += bytes
            case .read(let bytes, let id, let scene):
                output += rolledBack.contains(scene) ? unansweredRead(id: id, scene: scene) : bytes
            case .change(let range, let id, _):
                if committed { output += replies.changeReplyBytes[range] } else { output += storageFailure(id: id) }
            case .readStaged(let bytes, let id, let what):
                output += committed ? bytes : unansweredStagedRead(id: id, what: what)
            case .attach(let bytes, let id, let scene):
                // A rolled-back attach was undone with the turn (`rollBack`).
                if rolledBack.contains(scene) {
                    output += unansweredRead(id: id, scene: scene)
                } else {
                    // The answer supersedes a push of its scene held back for this client
                    // (coalescing): released after it, that older push would go back a revision.
                    session.dropHeldPush(of: scene)
                    output += bytes
                }
            case .push(let scene, let revision, let bytes):
                guard committed, session.attachments[scene] != nil else { continue }
                stats.pushes += 1
                // Held while earlier ones are (a reload may have switched to `queue`): in order.
                if !session.heldPushes.isEmpty
                    || (settings.coalescesSlowReaderPushes && session.connection.queuedBytes + output.count > settings.outputSoftLimit) {
                    if session.heldPushes[scene] != nil { stats.coalescedPushes += 1 }
                    session.hold(scene: scene, push: PendingPush(revision: revision, bytes: bytes))
                } else {
                    output += bytes
                }
            case .notice(let bytes):
                if committed { output += bytes }
            case .close(let reason):
                write(output, to: session)
                output = []
                session.connection.closeAfterWrites(reason: reason)
                return
            }
        }
        write(output, to: session)
    }

    /// The bytes of a reply written as staged whatever the client's state, or nil if it
    /// needs `deliver`'s rules (pushes, notices, closes, refused reads and changes).
    private func standing(_ reply: Turn.Reply, committed: Bool, rolledBack: Set<String>) -> [UInt8]? {
        switch reply {
        case .fixed(let bytes): bytes
        case .readStaged(let bytes, _, _): committed ? bytes : nil
        // Written from the turn's buffer by the caller.
        case .change: nil
        case .read(let bytes, _, let scene), .attach(let bytes, _, let scene): rolledBack.contains(scene) ? nil : bytes
        case .push, .notice, .close: nil
        }
    }

    /// Bytes `replies` hold as staged: the capacity of the turn's output for one client.
    private func byteCount(of replies: Turn.ConnectionReplies) -> Int {
        var total = 0
        for reply in replies {
            switch reply {
            case .fixed(let bytes), .read(let bytes, _, _), .attach(let bytes, _, _),
                 .readStaged(let bytes, _, _), .push(_, _, let bytes), .notice(let bytes):
                total += bytes.count
            case .change(let range, _, _):
                total += range.count
            case .close:
                break
            }
        }
        return total
    }

    private func storageFailure(id: RequestID) -> [UInt8] {
        stats.count(error: .storage)
        return Notices.error(id: id, code: .storage,
                             message: "the database refused the change (\(lastStorageError ?? "unknown error")); it was not applied")
    }

    private func unansweredRead(id: RequestID, scene: String) -> [UInt8] {
        stats.count(error: .storage)
        return Notices.error(id: id, code: .storage,
                             message: "scene '\(scene)' changed in the same turn and that change could not be stored; retry")
    }

    private func unansweredStagedRead(id: RequestID, what: String) -> [UInt8] {
        stats.count(error: .storage)
        return Notices.error(id: id, code: .storage,
                             message: "\(what) could not be read consistently: a change in the same turn could not be stored (\(lastStorageError ?? "unknown error")); nothing was changed; retry")
    }

    /// Writes one turn's output with one write; a client past the hard limit is dropped.
    func write(_ bytes: [UInt8], to session: ClientSession) {
        bytes.withUnsafeBytes { write($0, to: session) }
    }

    func write(_ bytes: UnsafeRawBufferPointer, to session: ClientSession) {
        guard !bytes.isEmpty, session.connection.isOpen else { return }
        session.connection.write(bytes)
        stats.bytesOut += bytes.count
        let queued = session.connection.queuedBytes
        if queued > settings.outputHardLimit {
            stats.slowClientsDisconnected += 1
            logger.warning("connection \(session.id): \(queued) bytes of output not read (limit \(settings.outputHardLimit)); disconnecting the slow client")
            session.connection.close(reason: "output limit exceeded: client does not read")
            return
        }
        // Only a write that queued something can take the total past its limit.
        if queued > 0 || session.accountedOutput > 0 {
            accountOutput(of: session)
            enforceTotalOutputLimit()
        }
    }

    /// A slow client caught up: write the newest held push of each scene.
    func releaseHeldPushes(of session: ClientSession) {
        let held = session.takeHeldPushes()
        write(held.flatMap(\.bytes), to: session)
    }
}
