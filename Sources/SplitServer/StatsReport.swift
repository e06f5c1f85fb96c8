import SplitLoop
import SplitSettings
import SplitWire

// `stats`: the loop's counters, the store's, and errors by code.
extension Server {
    func statsObject() -> JSONObject {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: Int) { members.append(JSONMember(key: key, value: .int(Int64(value)))) }
        add("scenes", scenes.count)
        add("clients", sessions.count)
        add("attachments", sessions.attachmentCount)
        add("requests", stats.requests)
        add("changes", stats.changes)
        add("commits", stats.commits)
        add("failedCommits", stats.failedCommits)
        add("commitOperations", stats.committedOperations)
        add("largestBatch", stats.largestBatch)
        add("pushes", stats.pushes)
        add("coalescedPushes", stats.coalescedPushes)
        add("slowClientsDisconnected", stats.slowClientsDisconnected)
        add("queuedOutputBytes", sessions.queuedOutputTotal)
        add("partialLineTimeouts", stats.partialLineTimeouts)
        add("connectionsAccepted", stats.connectionsAccepted)
        add("refusedPeers", stats.refusedPeers)
        add("acceptFailures", stats.acceptFailures)
        add("bytesIn", stats.bytesIn)
        add("bytesOut", stats.bytesOut)
        add("busyPolledTurns", stats.busyPolledTurns)
        add("idleFlushStarts", stats.idleFlushStarts)
        add("heldTurnsAnsweredAtRead", stats.heldTurnsAnsweredAtRead)
        add("freeMemoryReleases", stats.freeMemoryReleases)
        add("busyPolling", busyPolling ? 1 : 0)
        add("uptimeSeconds", Int((MonotonicClock.nanoseconds() - startedAt) / 1_000_000_000))
        let storeStats = store.statistics
        add("storeCommits", Int(storeStats.commits))
        add("storeFailedCommits", Int(storeStats.failedCommits))
        add("lastCommitMicroseconds", Int(storeStats.lastCommitNanoseconds / 1000))
        add("walCheckpoints", Int(storeStats.walCheckpoints))
        add("commitsHeldBack", Int(storeStats.commitsHeldBack))
        add("longestCommitHoldMicroseconds", Int(storeStats.longestWriterHoldNanoseconds / 1000))
        add("writerWALCheckpoints", Int(storeStats.writerWALCheckpoints))
        add("walCheckpointCatchUps", Int(storeStats.walCheckpointCatchUps))
        if let flushes = flushThread?.statistics {
            add("walFlushes", flushes.flushes)
            add("slowWALFlushes", flushes.slowFlushes)
            add("longestWALFlushMicroseconds", Int(flushes.longestNanoseconds / 1000))
            add("walFlushMicroseconds", Int(flushes.totalNanoseconds / 1000))
            add("walFlushP50Microseconds", flushes.microseconds(atPercentile: 50))
            add("walFlushP99Microseconds", flushes.microseconds(atPercentile: 99))
        }
        add("prunedJournalEntries", Int(storeStats.prunedJournalEntries))
        let errors = JSONObject(
            stats.errors.keys.sorted { $0.rawValue < $1.rawValue }.map {
                JSONMember(key: $0.rawValue, value: .int(Int64(stats.errors[$0]!)))
            })
        members.append(JSONMember(key: "errors", value: .object(errors)))
        if let cluster = clusterStats() { members.append(JSONMember(key: "cluster", value: cluster)) }
        members.append(JSONMember(key: "durability", value: .string(settings.durability.rawValue)))
        members.append(JSONMember(key: "server", value: .string("splitd \(SplitdVersion.current)")))
        return JSONObject(members)
    }
}
