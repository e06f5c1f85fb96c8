import SplitLoop

/// Memory a burst or a backlog leaves behind, as a value the loop tells what happened: turn
/// storage kept for reuse is bounded by what the last second's turns used, and what a backlog
/// freed goes back to the system (glibc keeps it otherwise, and the daemon's RSS would stay
/// at its peak for good). `malloc_trim` takes a while: at most one release a second, and only
/// once no turn is held (a held turn's storage is still in use).
struct TurnMemory {
    /// A backlog was answered, or storage over `keptStorageFloorBytes` was freed: its memory
    /// goes back to the system at the next release allowed.
    private(set) var releasePending = false
    /// `EventLoop.now` of the last release; 0 before the first.
    private var lastRelease: UInt64 = 0
    /// The most change-reply bytes one turn answered since the last trim: what the storage
    /// kept for the next turns should hold.
    private var replyBytesHighWater = 0

    /// A flush that answers this many turns at once ended a backlog: the disk stalled (a slow
    /// `fdatasync`) while the loop went on reading.
    static let backlogTurns = 8
    static let releaseIntervalMilliseconds: UInt64 = 1000
    /// Reply storage every turn may keep: a few hundred changes' replies.
    static let keptStorageFloorBytes = 256 << 10

    /// A turn was answered with `replyBytes` bytes of change replies.
    mutating func noteAnswered(replyBytes: Int) {
        replyBytesHighWater = max(replyBytesHighWater, replyBytes)
    }

    /// A turn's storage, able to hold `replyCapacity` bytes of change replies, is about to be
    /// freed: more than every turn may keep (a burst's, a backlog's) goes back to the system.
    mutating func noteFreedTurnStorage(replyCapacity: Int) {
        if replyCapacity > Self.keptStorageFloorBytes { releasePending = true }
    }

    /// A flush answered `turns` turns at once.
    mutating func noteFlushAnswered(turns: Int) {
        if turns >= Self.backlogTurns { releasePending = true }
    }

    /// Whether to release freed memory to the system now (and then it is counted as done):
    /// one is pending, nothing is `held`, and the last was at least a second before `now`.
    mutating func takeRelease(now: UInt64, held: Bool) -> Bool {
        guard releasePending, !held else { return false }
        guard lastRelease == 0 || now - lastRelease >= Self.releaseIntervalMilliseconds else { return false }
        releasePending = false
        lastRelease = now
        return true
    }

    /// At the housekeeping tick: the reply storage the next turns may keep (twice the most
    /// one turn of the last second used, and at least `keptStorageFloorBytes`); the next
    /// second's turns are measured afresh.
    mutating func takeKeptStorageLimit() -> Int {
        defer { replyBytesHighWater = 0 }
        return max(Self.keptStorageFloorBytes, 2 * replyBytesHighWater)
    }

    /// Storage over the limit was freed at the tick: it goes back with a backlog's.
    mutating func noteTrimmed(bytes: Int) {
        if bytes > 0 { releasePending = true }
    }
}

// Memory a burst or a backlog leaves behind, run on the loop (`TurnMemory` decides).
extension Server {
    /// A turn whose storage is about to be freed.
    func noteFreedTurnStorage(_ work: borrowing Turn) {
        turnMemory.noteFreedTurnStorage(replyCapacity: work.changeReplyCapacity)
    }

    /// Once a backlog is answered and nothing is held any more, hands its freed memory back to
    /// the system; within a second of the last release it waits for a later turn or the
    /// housekeeping tick.
    func releaseBacklogMemory() {
        guard turnMemory.releasePending,
            turnMemory.takeRelease(now: loop.now, held: !committer.isSettled)
        else { return }
        releaseFreeMemory(after: "a backlog")
    }

    /// At the housekeeping tick: reply storage that the turns of the last second did not need
    /// is freed, and handed back to the system with a backlog's. A burst read as one large
    /// turn (a stalled process, a client that sent thousands of lines at once) left its
    /// storage, up to `TurnCommitter.spareMaxReplyBytes`, kept for turns that no longer come.
    func trimKeptTurnStorage() {
        let needed = turnMemory.takeKeptStorageLimit()
        var freed = turn.dropReplyStorage(above: needed)
        freed += committer.dropSpareReplyStorage(above: needed)
        turnMemory.noteTrimmed(bytes: freed)
        guard freed > 0 else { return }
        logger.debug("freed \(freed >> 10) KiB of turn storage the last second's turns did not need")
    }
}
