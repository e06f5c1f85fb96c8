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
        logger.info("configuration reloaded (log level \(new.logLevel), limits, output limits, allow-list, shutdown timeout, checkpointEvery, busy polling; new connections use the new line limit)")
        if !plan.restartNeeded.isEmpty {
            logger.warning("changed settings that need a restart were not applied: \(plan.restartNeeded.joined(separator: ", "))")
        }
    }

    func logSummary() {
        let errors = stats.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        logger.info("served \(stats.requests) requests, \(stats.changes) changes in \(stats.commits) commits, \(stats.pushes) pushes; errors: \(errors.isEmpty ? "none" : errors)")
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
