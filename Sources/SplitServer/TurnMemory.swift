import SplitLoop
import CLibUV

// Memory a burst or a backlog leaves behind: turn storage kept for reuse is bounded, and
// what a backlog freed goes back to the system (glibc keeps it otherwise, and the daemon's
// RSS would stay at its peak for good).
extension Server {
    /// A turn whose storage is about to be freed: when it is more than every turn may keep
    /// (a burst's, or a backlog's), the memory goes back to the system with a backlog's.
    func noteFreedTurnStorage(_ work: borrowing Turn) {
        if work.changeReplyCapacity > Self.keptTurnStorageFloorBytes { backlogMemoryToRelease = true }
    }

    /// A flush that answers this many turns at once ended a backlog: the disk stalled (a slow
    /// `fdatasync`) while the loop went on reading. Freed turn storage over
    /// `keptTurnStorageFloorBytes` marks one too (`noteFreedTurnStorage`).
    static let backlogTurns = 8
    static let backlogReleaseIntervalMilliseconds: UInt64 = 1000

    /// Once a backlog is answered and nothing is held any more, hands its freed memory back to
    /// the system: glibc keeps what a burst freed, and `malloc_trim` takes a while, so at most
    /// once a second; within a second of the last release it waits for a later turn or the
    /// housekeeping tick.
    func releaseBacklogMemory() {
        guard backlogMemoryToRelease, committer.isSettled else { return }
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
    /// thousands of lines at once) left its storage, up to `TurnCommitter.spareMaxReplyBytes`, kept
    /// for turns that no longer come.
    func trimKeptTurnStorage() {
        let needed = max(Self.keptTurnStorageFloorBytes, 2 * turnReplyBytesHighWater)
        turnReplyBytesHighWater = 0
        var freed = turn.dropReplyStorage(above: needed)
        freed += committer.dropSpareReplyStorage(above: needed)
        guard freed > 0 else { return }
        backlogMemoryToRelease = true
        logger.debug("freed \(freed >> 10) KiB of turn storage the last second's turns did not need")
    }

    /// Reply storage every turn may keep: a few hundred changes' replies.
    static let keptTurnStorageFloorBytes = 256 << 10
}
