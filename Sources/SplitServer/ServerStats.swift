import SplitWire

/// Counters reported by `stats` (and logged at stop).
struct ServerStats {
    var requests = 0
    var changes = 0
    var commits = 0
    /// Turns whose input was read while busy polling (no wake-up from sleep).
    var busyPolledTurns = 0
    /// Flushes started early because the loop had nothing left to read (`IdleFlush.swift`).
    var idleFlushStarts = 0
    /// Held turns answered as soon as a read found their flush done, before the flush
    /// thread's post reached the loop (`answerFlushedTurns`).
    var heldTurnsAnsweredAtRead = 0
    /// Free memory handed back to the system (glibc's `malloc_trim`) after a backlog or dropped output.
    var freeMemoryReleases = 0
    var failedCommits = 0
    /// Store operations (rows) committed, over all batches.
    var committedOperations = 0
    var largestBatch = 0
    var pushes = 0
    var coalescedPushes = 0
    var slowClientsDisconnected = 0
    /// Clients closed for leaving a line unfinished past `limits.partialLineTimeoutSeconds`.
    var partialLineTimeouts = 0
    var connectionsAccepted = 0
    var refusedPeers = 0
    /// Pending clients the kernel let splitd accept no more (the open-file limit).
    var acceptFailures = 0
    var bytesIn = 0
    var bytesOut = 0
    var errors: [WireErrorCode: Int] = [:]
    // The turn-wide read budget (Backpressure.swift); not reported by `stats`.
    /// Lines read from all clients in the current turn.
    var linesThisTurn = 0
    /// Clients read in the current turn, and in the previous one (which sets each one's share).
    var clientsReadThisTurn = 0
    var clientsReadLastTurn = 0

    /// Cluster mode: other nodes' changes applied from the watch, scenes read again (a gap
    /// or compaction), scenes taken over from an owner that was gone.
    var clusterChangesFollowed = 0
    var clusterResyncs = 0
    var clusterTakeovers = 0
    var clusterForwarded = 0
    var clusterForwardsRun = 0
    var clusterForwardsWithdrawn = 0

    mutating func count(error code: WireErrorCode) {
        errors[code, default: 0] += 1
    }
}
