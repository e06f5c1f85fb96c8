import Logging
import SplitSettings

// SIGHUP: apply what can change while running; say what needs a restart.
extension Server {
    func applyReload(_ result: Result<ServerSettings, any Error>) {
        let new: ServerSettings
        switch result {
        case .failure(let error):
            logger.error("configuration reload failed, keeping the current one: \(error)")
            return
        case .success(let settings):
            new = settings
        }
        let plan = ReloadPlan(current: settings, new: new)
        settings = plan.applied
        logger.logLevel = new.logLevel
        engine.limits = new.coreLimits
        logger.info(
            "configuration reloaded: \(plan.appliedChanges.isEmpty ? "nothing to apply" : plan.appliedChanges.joined(separator: ", "))"
        )
        if !plan.restartNeeded.isEmpty {
            logger.warning(
                "changed settings that need a restart were not applied: \(plan.restartNeeded.joined(separator: ", "))")
        }
        disconnectPeersNoLongerAllowed()
        // A lower limit applies now, not at the next write that queues output.
        enforceTotalOutputLimit()
    }

    /// A narrower allow-list takes effect for the clients already connected too: revoking
    /// access must not wait for them to reconnect.
    private func disconnectPeersNoLongerAllowed() {
        for session in sessions.all.sorted(by: { $0.id < $1.id }) where !session.isClosing {
            guard let peer = session.connection.peer, !settings.admits(peer) else { continue }
            logger.warning(
                "connection \(session.id) from \(peer): no longer on the allow-list after the reload; disconnecting")
            stats.refusedPeers += 1
            refuse(
                session, code: .unauthorized,
                message: "peer \(peer) is no longer allowed to use this daemon (configuration reloaded)")
        }
    }

    func logSummary() {
        let errors = stats.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let failed =
            stats.failedCommits > 0
            ? "; \(stats.failedCommits) failed commits (rolled back, answered as storage errors)" : ""
        logger.info(
            "served \(stats.requests) requests, \(stats.changes) changes in \(stats.commits) commits, \(stats.pushes) pushes; errors: \(errors.isEmpty ? "none" : errors)\(failed)"
        )
    }
}

/// What a reload does with newly loaded settings: those that can change while running are
/// taken, the others are named as needing a restart. Pure, so that a test can hold every
/// configuration key to it (a key neither applied nor named would change nothing, silently).
struct ReloadPlan: Equatable {
    /// The running settings with everything that can change while running taken from the new ones.
    var applied: ServerSettings
    /// Groups of changed settings that take effect only at the next start.
    var restartNeeded: [String] = []
    /// The changed settings taken now, as `key old -> new` (`limits.maxLineLength` applies
    /// to new connections; open ones keep theirs).
    var appliedChanges: [String] = []

    init(current: ServerSettings, new: ServerSettings) {
        if new.socketPath != current.socketPath || new.socketGroup != current.socketGroup
            || new.activationName != current.activationName || new.backlog != current.backlog
        {
            restartNeeded.append("socket")
        }
        if new.databasePath != current.databasePath { restartNeeded.append("database") }
        if new.durability != current.durability { restartNeeded.append("durability") }
        if new.windowedRegularMinWidth != current.windowedRegularMinWidth || new.ruleSetsFile != current.ruleSetsFile
            || new.ruleSetsJSON != current.ruleSetsJSON
        {
            restartNeeded.append("devices")
        }
        if new.journalRetention != current.journalRetention || new.historyRevisions != current.historyRevisions
            || new.integrityCheck != current.integrityCheck
            || new.busyTimeoutMilliseconds != current.busyTimeoutMilliseconds
            || new.walCheckpointPages != current.walCheckpointPages
        {
            restartNeeded.append("database options")
        }
        // The flush thread reads its delay once, at start.
        if new.flushDelayMicroseconds != current.flushDelayMicroseconds
            || new.flushDelayCount != current.flushDelayCount
        {
            restartNeeded.append("group commit (database.flushDelay*)")
        }
        // A node's etcd connection, name and prefix are fixed for its life.
        if new.cluster != current.cluster { restartNeeded.append("cluster") }
        // Each setting that can change while running, listed once: taken from `new`, and
        // named in the log when it changed.
        var taken = current
        var changes: [String] = []
        func take<Value: Equatable>(
            _ key: String, _ path: WritableKeyPath<ServerSettings, Value>,
            shown: (Value) -> String = { "\($0)" }
        ) {
            let old = current[keyPath: path], now = new[keyPath: path]
            if old != now { changes.append("\(key) \(shown(old)) -> \(shown(now))") }
            taken[keyPath: path] = now
        }
        take("log.level", \.logLevel)
        take("limits.maxLineLength", \.maxLineLength)
        take("limits.partialLineTimeoutSeconds", \.partialLineTimeoutSeconds)
        take("limits.maxClients", \.maxClients)
        take("limits.maxScenes", \.maxScenes)
        take("database.checkpointEvery", \.checkpointEvery)
        take("database.replayBudget", \.replayBudget)
        take("limits.maxStackDepth", \.coreLimits.maxStackDepth)
        take("limits.maxIdLength", \.coreLimits.maxIdLength)
        take("limits.maxPresentations", \.coreLimits.maxPresentations)
        take("limits.maxTabs", \.coreLimits.maxTabs)
        take("limits.maxSnapshotSizes", \.coreLimits.maxSnapshotSizes)
        take("output.softLimitBytes", \.outputSoftLimit)
        take("output.hardLimitBytes", \.outputHardLimit)
        take("output.totalLimitBytes", \.outputTotalLimit)
        take("output.slowReaderPushes", \.coalescesSlowReaderPushes) { $0 ? "coalesce" : "queue" }
        take("access.allowUids", \.allowList.uids) { "\($0.sorted())" }
        take("access.allowGids", \.allowList.gids) { "\($0.sorted())" }
        take("shutdown.timeoutMilliseconds", \.shutdownTimeoutMilliseconds)
        take("loop.busyPollMicroseconds", \.busyPollMicroseconds)
        appliedChanges = changes
        applied = taken
    }
}
