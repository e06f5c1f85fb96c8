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
        var restartNeeded: [String] = []
        if new.socketPath != settings.socketPath || new.socketGroup != settings.socketGroup { restartNeeded.append("socket") }
        if new.databasePath != settings.databasePath { restartNeeded.append("database") }
        if new.durability != settings.durability { restartNeeded.append("durability") }
        if new.journalRetention != settings.journalRetention || new.integrityCheck != settings.integrityCheck
            || new.busyTimeoutMilliseconds != settings.busyTimeoutMilliseconds
            || new.walCheckpointPages != settings.walCheckpointPages { restartNeeded.append("database options") }
        var applied = settings
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
        settings = applied
        logger.logLevel = new.logLevel
        engine.limits = new.coreLimits
        logger.info("configuration reloaded (log level \(new.logLevel), limits, allow-list, checkpointEvery, busy polling; new connections use the new line limit)")
        if !restartNeeded.isEmpty {
            logger.warning("changed settings that need a restart were not applied: \(restartNeeded.joined(separator: ", "))")
        }
    }

    func logSummary() {
        let errors = stats.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        logger.info("served \(stats.requests) requests, \(stats.changes) changes in \(stats.commits) commits, \(stats.pushes) pushes; errors: \(errors.isEmpty ? "none" : errors)")
    }
}
