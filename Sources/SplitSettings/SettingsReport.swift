/// `splitd --check-config`: the resolved settings, one per line.
public enum SettingsReport {
    public static func describe(_ settings: ServerSettings, configFile: String?) -> String {
        let limits = settings.coreLimits
        func list(_ ids: Set<UInt32>) -> String { ids.sorted().map(String.init).joined(separator: ",") }
        let rows: [(key: String, value: String)] = [
            ("socket.path", settings.socketPath),
            ("socket.group", settings.socketGroup.map(String.init) ?? "none (owner only)"),
            ("socket.activationName", settings.activationName),
            ("socket.backlog", String(settings.backlog)),
            ("database.path", settings.databasePath ?? ":memory:"),
            ("database.durability", settings.durability.rawValue),
            ("database.integrityCheck", settings.integrityCheck.rawValue),
            ("database.busyTimeoutMilliseconds", String(settings.busyTimeoutMilliseconds)),
            ("database.journalRetention", String(settings.journalRetention)),
            ("database.historyRevisions", String(settings.historyRevisions)),
            ("database.checkpointEvery", String(settings.checkpointEvery)),
            ("database.replayBudget", String(settings.replayBudget)),
            ("database.flushDelayMicroseconds", String(settings.flushDelayMicroseconds)),
            ("database.flushDelayCount", String(settings.flushDelayCount)),
            ("database.walCheckpointPages", String(settings.walCheckpointPages)),
            ("log.level", "\(settings.logLevel)"),
            ("limits.maxLineLength", String(settings.maxLineLength)),
            ("limits.partialLineTimeoutSeconds", String(settings.partialLineTimeoutSeconds)),
            ("limits.maxClients", String(settings.maxClients)),
            ("limits.maxScenes", String(settings.maxScenes)),
            ("limits.maxStackDepth", String(limits.maxStackDepth)),
            ("limits.maxIdLength", String(limits.maxIdLength)),
            ("limits.maxPresentations", String(limits.maxPresentations)),
            ("limits.maxTabs", String(limits.maxTabs)),
            ("limits.maxSnapshotSizes", String(limits.maxSnapshotSizes)),
            ("output.softLimitBytes", String(settings.outputSoftLimit)),
            ("output.hardLimitBytes", String(settings.outputHardLimit)),
            ("output.totalLimitBytes", String(settings.outputTotalLimit)),
            ("output.slowReaderPushes", settings.coalescesSlowReaderPushes ? "coalesce" : "queue"),
            ("access.allowUids", list(settings.allowList.uids)),
            ("access.allowGids", list(settings.allowList.gids)),
            ("loop.busyPollMicroseconds", String(settings.busyPollMicroseconds)),
            ("shutdown.timeoutMilliseconds", String(settings.shutdownTimeoutMilliseconds)),
            ("devices.windowedRegularMinWidth", String(settings.windowedRegularMinWidth)),
            ("devices.ruleSetsFile", settings.ruleSetsFile ?? ""),
            (
                "cluster.endpoints",
                settings.cluster?.endpoints.joined(separator: ",") ?? "none (single host: the local database)"
            ),
            ("cluster.node", settings.cluster?.node ?? ""),
            ("cluster.prefix", settings.cluster?.prefix ?? ""),
            ("cluster.tls.ca", settings.cluster?.tlsCA ?? ""),
            ("cluster.tls.cert", settings.cluster?.tlsCert ?? ""),
            ("cluster.tls.key", settings.cluster?.tlsKey ?? ""),
        ]
        // One column for the values, however long the longest key; an empty value says so.
        let width = rows.map(\.key.count).max() ?? 0
        let lines = rows.map { row in
            row.key.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + (row.value.isEmpty ? "none" : row.value)
        }
        return (["configuration OK (file: \(configFile ?? "none, built-in defaults"))"] + lines).joined(separator: "\n")
    }
}
