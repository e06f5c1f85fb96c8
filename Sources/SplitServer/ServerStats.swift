import SplitWire

/// Counters reported by `stats` (and logged at stop).
struct ServerStats {
    var requests = 0
    var changes = 0
    var commits = 0
    var failedCommits = 0
    /// Store operations (rows) committed, over all batches.
    var committedOperations = 0
    var largestBatch = 0
    var pushes = 0
    var coalescedPushes = 0
    var slowClientsDisconnected = 0
    var connectionsAccepted = 0
    var refusedPeers = 0
    var bytesIn = 0
    var bytesOut = 0
    var errors: [WireErrorCode: Int] = [:]

    mutating func count(error code: WireErrorCode) {
        errors[code, default: 0] += 1
    }
}
