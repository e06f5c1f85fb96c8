import SplitLoop
import SplitStore

/// The turns between the end of their loop turn and the writing of their replies, as a value
/// that takes events and returns what the loop must do (after SwiftNIO's state machines). It
/// performs no I/O: the loop commits, flushes, rolls back and writes as the actions say.
///
/// A turn goes through up to three places, oldest first in each:
/// - `uncommitted`: its commit is under way, or the store held it back (a WAL checkpoint's
///   last pass); those turns commit together, in order, before any later turn.
/// - `waiting`: its commit is over (stored, or refused and rolled back); its replies wait
///   for the flush of `generation` (0: for no flush).
/// - spare storage: once answered, an emptied turn whose arrays the next turns reuse.
///
/// The invariant it keeps: a turn's replies are released (`nextTurnToAnswer`) only after its
/// commit is over and, when a flush thread makes commits durable, after the flush of every
/// commit up to and including its own; turns are released in the order they ended.
struct TurnCommitter {
    /// A turn whose commit is over, and what its replies must say.
    struct SettledTurn {
        /// The flush its replies wait for; 0: none.
        let generation: Int
        var work: Turn
        /// Whether its commit stored its changes (false: refused, and its scenes rolled back).
        let committed: Bool
        /// Scenes whose reads of the turn must not be answered: a refused change of theirs
        /// was rolled back.
        let rolledBack: Set<String>
        /// Cluster mode: scenes whose part of a commit failed while the rest stored (their
        /// changes rolled back); empty on a single host.
        var failed: [String: SceneFailure] = [:]
    }

    /// How a commit ended (`SceneStore.commitUnlessHeldBack`).
    enum CommitResult: Equatable {
        case committed
        /// The store refused it: the turns' changes are rolled back and answered `storage`.
        case refused
        /// The store held it back for a moment: nothing was written.
        case heldBack
    }

    /// What the loop does once a commit ended.
    enum Action: Equatable {
        /// The store held the commit back: retry it on a timer (`batchToRetry`) until it ends;
        /// nothing is answered meanwhile.
        case retryLater
        /// Answer the settled turns now (`nextTurnToAnswer(flushedThrough: 0)`).
        case answer
        /// Flush the WAL on the loop first, then answer: a small commit that nobody else
        /// may join, for which a thread hop would only add latency.
        case flushInlineThenAnswer
        /// Ask the flush thread for flush `generation` covering `operations` store operations;
        /// the turns wait for it. `firstHeld`: nothing waited before (the flush thread now
        /// keeps the loop alive).
        case requestFlush(generation: Int, operations: Int, firstHeld: Bool)
        /// The turns wait behind earlier held turns' flush (they committed nothing to flush,
        /// but their replies may show those turns' state).
        case waitBehindHeld
    }

    /// Whether a flush thread makes commits durable after they return (full durability):
    /// replies then wait for a flush. Without one a commit is as durable as it gets.
    let flushesAfterCommit: Bool
    /// Turns whose commit is under way or held back by the store, oldest first.
    private(set) var uncommitted: [Turn] = []
    /// The batches of `uncommitted`, gathered once the store held one back: a retry commits
    /// them as they are, in one transaction.
    private var gatheredBatch = StoreBatch()
    private var batchIsGathered = false
    /// Turns whose commit is over, waiting for their flush (or for nothing), oldest first.
    private(set) var waiting: [SettledTurn] = []
    /// Emptied turns whose storage the next turns reuse.
    private(set) var spare: [Turn] = []
    /// The last flush generation asked for.
    private(set) var flushesRequested = 0

    init(flushesAfterCommit: Bool) {
        self.flushesAfterCommit = flushesAfterCommit
    }

    /// Nothing waits for a commit or a flush.
    var isSettled: Bool { uncommitted.isEmpty && waiting.isEmpty }

    /// Turns wait for a flush (a held turn's replies are not written yet).
    var holdsTurns: Bool { !waiting.isEmpty }

    /// The store holds commits back (between events, `uncommitted` holds only those).
    var hasHeldBackCommits: Bool { !uncommitted.isEmpty }

    /// How many turns wait.
    var waitingTurns: Int { waiting.count }

    /// The flush the oldest waiting turn needs, if any turn waits.
    var oldestWaitingGeneration: Int? { waiting.first?.generation }

    // MARK: Storage

    /// An empty turn to stage the next one in: a spare one's storage if there is one (a
    /// held turn keeps its own storage until its flush; a fresh one grows a dozen arrays).
    mutating func takeEmptyTurn() -> Turn {
        spare.popLast() ?? Turn()
    }

    /// Keeps an answered turn's storage for a later turn; false when it is freed instead
    /// (more than `spareLimit` spares, or the storage of an exceptionally large turn).
    mutating func recycle(_ work: inout Turn) -> Bool {
        guard spare.count < Self.spareLimit, work.replyCapacity <= Self.spareMaxReplies,
            work.changeReplyCapacity <= Self.spareMaxReplyBytes
        else { return false }
        work.reset()
        spare.append(work)
        return true
    }

    /// Frees the change-reply storage of every spare turn over `limit` bytes; the bytes freed.
    mutating func dropSpareReplyStorage(above limit: Int) -> Int {
        var freed = 0
        for index in spare.indices { freed += spare[index].dropReplyStorage(above: limit) }
        return freed
    }

    static let spareLimit = 2
    static let spareMaxReplies = 4096
    /// About 4000 changes' replies, twice what 100 clients pipelining 16 stage in a turn; a
    /// larger turn comes from a backlog, and its storage is freed, not kept.
    static let spareMaxReplyBytes = 4 << 20

    // MARK: Commit

    /// A loop turn ended with `work` staged: returns the batch to commit now, in one
    /// transaction. It is the turn's own batch, or, behind turns the store held back, theirs
    /// and this one's together: a turn never commits before an earlier one.
    mutating func turnEnded(_ work: consuming Turn) -> StoreBatch {
        if uncommitted.isEmpty {
            uncommitted.append(work)
            return uncommitted[0].batch
        }
        gatherBatches()
        gatheredBatch.append(contentsOf: work.batch)
        uncommitted.append(work)
        return gatheredBatch
    }

    /// The retry timer fired: the batch of the held-back turns, or nil when none is left.
    func batchToRetry() -> StoreBatch? {
        uncommitted.isEmpty ? nil : gatheredBatch
    }

    /// Scenes whose changes `uncommitted` made visible to reads (rolled back if refused).
    var uncommittedVisibleChanges: Set<String> {
        if uncommitted.count == 1 { return uncommitted[0].visiblyChangedSceneIDs }
        var ids = Set<String>()
        for work in uncommitted { ids.formUnion(work.visiblyChangedSceneIDs) }
        return ids
    }

    /// The commit of `uncommitted` ended with `result`; if it was refused, the loop has
    /// rolled their changes back (last turn first) before this call. `othersMayJoin`: a client
    /// sending now may still join a flush (`FlushPeers`).
    ///
    /// Where the ordering is decided: a turn that committed operations waits for a flush of
    /// its own generation; a turn that committed nothing, or whose commit was refused, still
    /// waits while earlier turns are held, since its replies (reads) may show their state.
    mutating func commitEnded(
        _ result: CommitResult, othersMayJoin: Bool, failed: [String: SceneFailure] = [:]
    ) -> Action {
        if result == .heldBack {
            gatherBatches()
            return .retryLater
        }
        let committed = result == .committed
        let rolledBack: Set<String> = committed ? [] : uncommittedVisibleChanges
        // Turns the store held back were retried by a timer, not at the end of a loop turn:
        // they never flush inline.
        let retried = batchIsGathered
        let operations = retried ? gatheredBatch.count : uncommitted[0].batch.count
        if retried {
            gatheredBatch.removeAll()
            batchIsGathered = false
        }
        let needsFlush = flushesAfterCommit && committed && operations > 0
        let action: Action
        if needsFlush {
            if waiting.isEmpty, !retried, operations < Self.inlineFlushOperations, !othersMayJoin {
                action = .flushInlineThenAnswer
            } else {
                flushesRequested += 1
                action = .requestFlush(generation: flushesRequested, operations: operations, firstHeld: waiting.isEmpty)
            }
        } else {
            action = waiting.isEmpty ? .answer : .waitBehindHeld
        }
        let generation: Int
        switch action {
        case .requestFlush(let requested, _, _): generation = requested
        case .waitBehindHeld: generation = flushesRequested
        default: generation = 0
        }
        // Moved out one by one, oldest first, so that emptying the list copies nothing.
        if uncommitted.count == 1 {
            waiting.append(
                SettledTurn(
                    generation: generation, work: uncommitted.removeLast(),
                    committed: committed, rolledBack: rolledBack, failed: failed))
        } else {
            for work in uncommitted {
                waiting.append(
                    SettledTurn(
                        generation: generation, work: work, committed: committed, rolledBack: rolledBack,
                        failed: failed))
            }
            uncommitted.removeAll(keepingCapacity: true)
        }
        return action
    }

    /// Commits with fewer operations than this flush on the loop when nothing is held.
    static let inlineFlushOperations = 4

    private mutating func gatherBatches() {
        guard !batchIsGathered else { return }
        batchIsGathered = true
        for work in uncommitted { gatheredBatch.append(contentsOf: work.batch) }
    }

    // MARK: Answering

    /// The oldest settled turn whose replies may be written now that the WAL is flushed
    /// through `generation` (0: turns that wait for no flush), or nil.
    mutating func nextTurnToAnswer(flushedThrough generation: Int) -> SettledTurn? {
        guard let first = waiting.first, first.generation <= generation else { return nil }
        return waiting.removeFirst()
    }
}
