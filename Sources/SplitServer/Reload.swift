import Logging

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
        logger.info("configuration reloaded: \(plan.appliedChanges.isEmpty ? "nothing to apply" : plan.appliedChanges.joined(separator: ", "))")
        if !plan.restartNeeded.isEmpty {
            logger.warning("changed settings that need a restart were not applied: \(plan.restartNeeded.joined(separator: ", "))")
        }
        disconnectPeersNoLongerAllowed()
    }

    /// A narrower allow-list takes effect for the clients already connected too: revoking
    /// access must not wait for them to reconnect.
    private func disconnectPeersNoLongerAllowed() {
        for session in sessions.values.sorted(by: { $0.id < $1.id }) where !session.isClosing {
            guard let peer = session.connection.peer, !settings.admits(peer) else { continue }
            logger.warning("connection \(session.id) from \(peer): no longer on the allow-list after the reload; disconnecting")
            stats.refusedPeers += 1
            refuse(session, code: .unauthorized, message: "peer \(peer) is no longer allowed to use this daemon (configuration reloaded)")
        }
    }

    func logSummary() {
        let errors = stats.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let failed = stats.failedCommits > 0 ? "; \(stats.failedCommits) failed commits (rolled back, answered as storage errors)" : ""
        logger.info("served \(stats.requests) requests, \(stats.changes) changes in \(stats.commits) commits, \(stats.pushes) pushes; errors: \(errors.isEmpty ? "none" : errors)\(failed)")
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
            || new.activationName != current.activationName || new.backlog != current.backlog { restartNeeded.append("socket") }
        if new.databasePath != current.databasePath { restartNeeded.append("database") }
        if new.durability != current.durability { restartNeeded.append("durability") }
        if new.journalRetention != current.journalRetention || new.integrityCheck != current.integrityCheck
            || new.busyTimeoutMilliseconds != current.busyTimeoutMilliseconds
            || new.walCheckpointPages != current.walCheckpointPages { restartNeeded.append("database options") }
        // The flush thread reads its delay once, at start.
        if new.flushDelayMicroseconds != current.flushDelayMicroseconds || new.flushDelayCount != current.flushDelayCount {
            restartNeeded.append("group commit (database.flushDelay*)")
        }
        var changes: [String] = []
        func note<Value: Equatable>(_ key: String, _ old: Value, _ now: Value) {
            if old != now { changes.append("\(key) \(old) -> \(now)") }
        }
        note("log.level", current.logLevel, new.logLevel)
        note("limits.maxLineLength", current.maxLineLength, new.maxLineLength)
        note("limits.maxClients", current.maxClients, new.maxClients)
        note("limits.maxScenes", current.maxScenes, new.maxScenes)
        note("database.checkpointEvery", current.checkpointEvery, new.checkpointEvery)
        note("limits.maxStackDepth", current.coreLimits.maxStackDepth, new.coreLimits.maxStackDepth)
        note("limits.maxIdLength", current.coreLimits.maxIdLength, new.coreLimits.maxIdLength)
        note("limits.maxPresentations", current.coreLimits.maxPresentations, new.coreLimits.maxPresentations)
        note("limits.maxTabs", current.coreLimits.maxTabs, new.coreLimits.maxTabs)
        note("limits.maxSnapshotSizes", current.coreLimits.maxSnapshotSizes, new.coreLimits.maxSnapshotSizes)
        note("output.softLimitBytes", current.outputSoftLimit, new.outputSoftLimit)
        note("output.hardLimitBytes", current.outputHardLimit, new.outputHardLimit)
        note("access.allowUids", current.allowList.uids.sorted(), new.allowList.uids.sorted())
        note("access.allowGids", current.allowList.gids.sorted(), new.allowList.gids.sorted())
        note("shutdown.timeoutMilliseconds", current.shutdownTimeoutMilliseconds, new.shutdownTimeoutMilliseconds)
        note("loop.busyPollMicroseconds", current.busyPollMicroseconds, new.busyPollMicroseconds)
        appliedChanges = changes
        applied = current
        applied.logLevel = new.logLevel
        applied.maxLineLength = new.maxLineLength
        applied.maxClients = new.maxClients
        applied.maxScenes = new.maxScenes
        applied.checkpointEvery = new.checkpointEvery
        applied.coreLimits = new.coreLimits
        applied.outputSoftLimit = new.outputSoftLimit
        applied.outputHardLimit = new.outputHardLimit
        applied.allowList = new.allowList
        applied.shutdownTimeoutMilliseconds = new.shutdownTimeoutMilliseconds
        applied.busyPollMicroseconds = new.busyPollMicroseconds
    }
}
