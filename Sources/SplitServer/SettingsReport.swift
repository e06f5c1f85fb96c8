/// `splitd --check-config`: the resolved settings, one per line.
public enum SettingsReport {
    public static func describe(_ settings: ServerSettings, configFile: String?) -> String {
        let limits = settings.coreLimits
        return """
            configuration OK (file: \(configFile ?? "none, built-in defaults"))
            socket.path                  \(settings.socketPath)
            socket.group                 \(settings.socketGroup.map(String.init) ?? "none (owner only)")
            socket.activationName        \(settings.activationName)
            socket.backlog               \(settings.backlog)
            database.path                \(settings.databasePath ?? ":memory:")
            database.durability          \(settings.durability.rawValue)
            database.integrityCheck      \(settings.integrityCheck.rawValue)
            database.busyTimeoutMilliseconds \(settings.busyTimeoutMilliseconds)
            database.journalRetention    \(settings.journalRetention)
            database.checkpointEvery     \(settings.checkpointEvery)
            database.replayBudget        \(settings.replayBudget)
            database.flushDelayMicroseconds \(settings.flushDelayMicroseconds)
            database.flushDelayCount     \(settings.flushDelayCount)
            database.walCheckpointPages  \(settings.walCheckpointPages)
            log.level                    \(settings.logLevel)
            limits.maxLineLength         \(settings.maxLineLength)
            limits.partialLineTimeoutSeconds \(settings.partialLineTimeoutSeconds)
            limits.maxClients            \(settings.maxClients)
            limits.maxScenes             \(settings.maxScenes)
            limits.maxStackDepth         \(limits.maxStackDepth)
            limits.maxIdLength           \(limits.maxIdLength)
            limits.maxPresentations      \(limits.maxPresentations)
            limits.maxTabs               \(limits.maxTabs)
            limits.maxSnapshotSizes      \(limits.maxSnapshotSizes)
            output.softLimitBytes        \(settings.outputSoftLimit)
            output.hardLimitBytes        \(settings.outputHardLimit)
            output.totalLimitBytes       \(settings.outputTotalLimit)
            output.slowReaderPushes      \(settings.coalescesSlowReaderPushes ? "coalesce" : "queue")
            access.allowUids             \(settings.allowList.uids.sorted().map(String.init).joined(separator: ","))
            access.allowGids             \(settings.allowList.gids.sorted().map(String.init).joined(separator: ","))
            loop.busyPollMicroseconds    \(settings.busyPollMicroseconds)
            shutdown.timeoutMilliseconds \(settings.shutdownTimeoutMilliseconds)
            devices.windowedRegularMinWidth \(settings.windowedRegularMinWidth)
            devices.ruleSetsFile         \(settings.ruleSetsFile ?? "")
            """
    }
}
