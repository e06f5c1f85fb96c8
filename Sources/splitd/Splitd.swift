import ArgumentParser
import Foundation
import Logging
import SplitServer
import SplitSettings

/// The splitd daemon: parses flags (the highest configuration layer), loads the layered
/// configuration, and runs the loop in the foreground until SIGTERM/SIGINT.
@main
struct Splitd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitd",
        abstract: "The split-view state daemon: scenes, layouts and pushes over a Unix socket (protocol 1).",
        discussion: """
            Runs in the foreground and logs to stderr. Ready when the socket accepts connections \
            (or after READY=1 under systemd Type=notify). SIGTERM/SIGINT: answer what was read, \
            commit, close, exit 0 (exit 75 after copying back a database file deleted or replaced under it). SIGHUP: re-read the configuration and apply every key its \
            documentation marks "Reloaded on SIGHUP" (log.level, limits.*, output.*, access.*, \
            shutdown.*, loop.busyPollMicroseconds, database.checkpointEvery, database.replayBudget); the other keys \
            (socket.*, devices.*, the other database.* keys) need a restart: a reload that changes them logs \
            which ones. An invalid configuration is logged and the running one kept.

            Cluster mode (--cluster ENDPOINTS --node NAME, or cluster.* keys): scenes live in etcd and several nodes \
            serve them; without endpoints the local database is the store (docs/CLUSTER.md).

            Configuration precedence: flags > SPLITD_* environment > config file > built-in defaults. \
            Every key: `splitd --print-default-config` and docs/CONFIGURATION.md.
            Zero-configuration paths: socket $XDG_RUNTIME_DIR/splitd/splitd.sock (else /run/splitd/splitd.sock), \
            database $STATE_DIRECTORY/splitd.db, else $XDG_STATE_HOME/splitd/splitd.db, else ~/.local/state/splitd/splitd.db, \
            else (no $HOME) ./var/splitd.db.
            """,
        version: SplitdVersion.current)

    @Option(help: ArgumentHelp("Unix socket to listen on (when not socket-activated).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("SQLite database file (\":memory:\" keeps nothing).", valueName: "path"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "JSON configuration file (default: $SPLITD_CONFIG, else $CONFIGURATION_DIRECTORY/splitd.json if present).",
            valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "full (the default: the WAL is flushed before a change is acknowledged) or normal (synchronous=NORMAL: flushed at checkpoints).",
            valueName: "full|normal"))
    var durability: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Group allowed to share the socket (directory 0750, socket 0660).", valueName: "group"))
    var socketGroup: String?

    // Unconditional: `--allow-uid -1` is a uid out of range (said so below), not a missing value.
    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Peer uid allowed to connect (repeatable; replaces the default: own uid and root).", valueName: "uid"))
    var allowUid: [Int] = []

    @Option(
        help: ArgumentHelp(
            "Cluster mode: comma-separated etcd client URLs (http://10.0.0.1:2379,...); scenes then live in etcd, not in --database (docs/CLUSTER.md).",
            valueName: "endpoints"))
    var cluster: String?

    @Option(help: ArgumentHelp("Cluster mode: this node's name, unique in the cluster.", valueName: "name"))
    var node: String?

    @Flag(
        help:
            "Start with a demo scene ('demo') resized through the app-switcher sizes, printed to stderr (in-memory unless --database is given; a scene 'demo' in that database that the demo did not create is left untouched)."
    )
    var demo = false

    @Flag(
        help:
            "Recovery after a crash followed by an upgrade that changed the layout rules: where replaying the journal gives another layout than was acknowledged (REPLAY DIVERGED), keep the replayed state, logged per entry, instead of refusing to start. Once, then stop gracefully."
    )
    var acceptReplayDivergence = false

    @Flag(help: "Validate the configuration, print the resolved settings and exit.")
    var checkConfig = false

    @Flag(help: "Print the built-in default configuration (a documented JSON file) and exit.")
    var printDefaultConfig = false

    func validate() throws {
        if checkConfig, printDefaultConfig {
            throw ValidationError("--check-config and --print-default-config exclude each other")
        }
        // An empty value (`--database "$DB"` with DB unset) must not fall back to the default
        // paths: that would open, and lock, the user's real database. (An empty
        // --socket-group is a value: owner only, over a group in the config file.)
        for (flag, value) in [
            ("--socket", socket), ("--database", database), ("--config", config),
            ("--durability", durability), ("--log-level", logLevel), ("--cluster", cluster), ("--node", node),
        ] {
            if value?.isEmpty == true { throw ValidationError("\(flag) needs a value, not an empty string") }
        }
        // Choices are usage errors, like a flag value of the wrong type (SYSTEMD.md's 64).
        if let durability, !["full", "normal"].contains(durability) {
            throw ValidationError("--durability must be full or normal, got '\(durability)'")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got '\(logLevel)'"
            )
        }
        if let uid = allowUid.first(where: { !(0...Int(UInt32.max)).contains($0) }) {
            throw ValidationError("--allow-uid must be a uid from 0 to \(UInt32.max), got \(uid)")
        }
    }

    func run() async throws {
        Daemon.deferStartupSignals()
        if printDefaultConfig {
            print(ConfigKeys.documentedDefaultJSON(), terminator: "")
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let sources = ConfigSources(
            flags: flagValues(), configFile: config ?? DefaultPaths.configFile(environment: environment),
            environment: environment)
        var settings: ServerSettings
        do {
            settings = try await ConfigLoader.load(sources)
        } catch {
            FileHandle.standardError.write(Data("splitd: \(error)\n".utf8))
            throw ExitCode(Daemon.startFailure)
        }
        settings.acceptReplayDivergence = acceptReplayDivergence
        if checkConfig {
            print(SettingsReport.describe(settings, configFile: sources.configFile))
            return
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "splitd")
        logger.logLevel = settings.logLevel
        logger.info(
            "splitd \(SplitdVersion.current) starting: pid \(getpid()), configuration \(sources.configFile ?? "built-in defaults (no file)"), log level \(settings.logLevel)"
        )
        let reloader = ConfigReloader { try await ConfigLoader.load(sources) }
        let status: Int32
        if let cluster = settings.cluster {
            status = await Self.runClustered(
                cluster, settings: settings, logger: logger, environment: environment, reloader: reloader,
                demo: demo ? DemoScript() : nil)
        } else {
            status = Daemon.run(
                settings: settings, logger: logger, environment: environment,
                configReloader: reloader, demo: demo ? DemoScript() : nil)
        }
        if status != 0 { throw ExitCode(status) }
    }

    #if Cluster
    /// Cluster mode: the daemon's loop on a plain thread of its own, since the etcd store
    /// blocks its caller for each call and must never do so on a Swift concurrency thread.
    /// etcd not answering at start is waited for (logged), a bad configuration refused.
    private static func runClustered(
        _ cluster: ClusterSettings, settings: ServerSettings, logger: Logger, environment: [String: String],
        reloader: ConfigReloader, demo: DemoScript?
    ) async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let thread = Thread {
                let node: ClusterNode
                do {
                    guard let connected = try ClusterNode.connect(cluster, logger: logger) else {
                        logger.notice("stopped while waiting for etcd")
                        return continuation.resume(returning: 0)
                    }
                    node = connected
                } catch {
                    logger.critical("refusing to start: cluster mode: \(error)")
                    return continuation.resume(returning: Daemon.startFailure)
                }
                let status = Daemon.run(
                    settings: settings, logger: logger, environment: environment, configReloader: reloader,
                    demo: demo, store: node, control: nil, handleSignals: true, cluster: node)
                continuation.resume(returning: status)
            }
            thread.name = "splitd-loop"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
    #else
    /// Built without the `Cluster` trait: no etcd client is linked, so cluster settings are
    /// refused rather than ignored.
    private static func runClustered(
        _ cluster: ClusterSettings, settings: ServerSettings, logger: Logger, environment: [String: String],
        reloader: ConfigReloader, demo: DemoScript?
    ) async -> Int32 {
        logger.critical(
            "refusing to start: cluster mode: this splitd was built without the Cluster trait (swift build --traits Cluster)"
        )
        return Daemon.startFailure
    }
    #endif

    /// The flags given, as configuration keys (the highest layer).
    private func flagValues() -> [String: String] {
        var flags: [String: String] = [:]
        flags["socket.path"] = socket
        flags["database.path"] = database ?? (demo ? ":memory:" : nil)
        flags["database.durability"] = durability
        flags["log.level"] = logLevel
        flags["socket.group"] = socketGroup
        flags["cluster.endpoints"] = cluster
        flags["cluster.node"] = node
        if !allowUid.isEmpty { flags["access.allowUids"] = allowUid.map(String.init).joined(separator: ",") }
        return flags
    }
}
