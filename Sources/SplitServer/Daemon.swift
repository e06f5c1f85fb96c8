import CLinuxShims
import Foundation
import Logging
import SplitCore
import SplitLoop
import SplitSettings
import SplitStore

/// Starts splitd: takes its socket path's lock (unless socket-activated), opens and verifies
/// the store, restores every scene, listens (socket activation or a self-bound socket), tells
/// systemd it is ready and runs the loop until a graceful stop. Returns the process exit status.
public enum Daemon {
    /// Exit status for a start that failed (bad database, socket in use...).
    public static let startFailure: Int32 = 1

    /// Until the signal watchers exist (the configuration, the store's open and replay: up to
    /// seconds), SIGHUP is ignored and SIGTERM/SIGINT become a graceful stop once the daemon is
    /// ready, instead of the default action killing it (exit 129/143, nothing logged). Call
    /// first thing; `run` calls it too.
    public static func deferStartupSignals() {
        splitd_defer_startup_signals()
    }

    /// Whether SIGTERM/SIGINT arrived since `deferStartupSignals` (a start that waits, for
    /// etcd say, gives up instead of waiting on).
    public static var stopRequestedDuringStartup: Bool { splitd_startup_stop_signal() != 0 }

    public static func run(
        settings: ServerSettings, logger: Logger,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configReloader: ConfigReloader? = nil,
        demo: DemoScript? = nil
    ) -> Int32 {
        run(
            settings: settings, logger: logger, environment: environment, configReloader: configReloader, demo: demo,
            store: nil, control: nil, handleSignals: true)
    }

    /// The same, embedded: `store` replaces the configured database, `control` reports
    /// readiness and stops the daemon, and signals are left alone when `handleSignals` is false.
    public static func run(
        settings: ServerSettings, logger: Logger, environment: [String: String],
        configReloader: ConfigReloader?, demo: DemoScript?,
        store injected: (any SceneStore)?, control: DaemonControl?, handleSignals: Bool,
        cluster: (any ClusterMember)? = nil
    ) -> Int32 {
        defer { control?.finish() }
        if handleSignals { deferStartupSignals() }
        let passed = SocketActivation.select(
            SocketActivation.passedSockets(environment: environment),
            named: settings.activationName)
        // The socket path's lock is taken, and the path checked under it, before a database is
        // opened (or created): a daemon refused for a socket in use, or one another daemon is
        // starting on, creates nothing. The listener keeps the lock while it listens.
        let socketLock: LockFile?
        if passed.isEmpty {
            do {
                socketLock = try SocketPathGuard.prepare(path: settings.socketPath, group: settings.socketGroup)
            } catch {
                logger.critical("refusing to start: \(error)")
                return startFailure
            }
        } else {
            socketLock = nil
        }
        let store: any SceneStore
        do {
            store = try injected ?? openStore(settings, logger: logger)
        } catch {
            logger.critical("refusing to start: \(error)")
            return startFailure
        }
        let engine: SplitEngine
        do {
            engine = SplitEngine(catalog: try settings.deviceCatalog(), limits: settings.coreLimits)
        } catch {
            logger.critical("refusing to start: \(error)")
            try? store.close()
            return startFailure
        }
        let restored: [String: LiveScene]
        do {
            let outcome = try SceneRestore.restore(
                from: store, engine: engine, acceptDivergence: settings.acceptReplayDivergence)
            restored = outcome.scenes
            logger.info(
                "restored \(restored.count) scene(s) from \(settings.cluster.map { "etcd (node \($0.node))" } ?? settings.databasePath ?? "memory"), replaying \(outcome.replayed) journal entries above their checkpoints"
            )
            for divergence in outcome.diverged {
                logger.warning("replay diverged, kept (--accept-replay-divergence): \(divergence.description)")
            }
            if !outcome.diverged.isEmpty {
                let scenes = Set(outcome.diverged.map(\.scene))
                logger.warning(
                    "--accept-replay-divergence kept \(outcome.diverged.count) diverged journal entr\(outcome.diverged.count == 1 ? "y" : "ies") in \(scenes.count) scene(s): their state is what this version replays them to, at the acknowledged revisions; the sweep checkpoints them within a second"
                )
            }
        } catch {
            logger.critical("refusing to start: \(error)")
            try? store.close()
            return startFailure
        }

        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            logger.critical("refusing to start: \(error)")
            try? store.close()
            return startFailure
        }
        defer { loop.close() }
        let notifier = SystemdNotifier(environment: environment)
        let server = Server(
            loop: loop, settings: settings, logger: logger, store: store, engine: engine, notifier: notifier)
        server.scenes.restore(restored)
        server.cluster = cluster
        if cluster != nil {
            // No scene is owned at start: none is checkpointed here until this node owns it.
            for id in restored.keys {
                if var live = server.scenes[id] {
                    live.checkpointRevision = live.state.revision
                    server.scenes[id] = live
                }
            }
        }

        if let limit = checkOpenFileLimit(settings, logger: logger) {
            server.openFileLimit = limit
            server.openFileRoom = FileDescriptorLimit.clients(under: limit)
        }
        let listeners: [Listener]
        do {
            listeners = try listen(
                server: server, settings: settings, passed: passed, socketLock: socketLock, logger: logger)
        } catch {
            logger.critical("refusing to start: \(error)")
            server.discard()
            // One pass runs the close callbacks: an open handle makes the loop's close fail.
            loop.runOnce()
            try? store.close()
            return startFailure
        }
        server.startListening(on: listeners)

        let extras = Extras()
        if let cluster {
            let mailbox = LoopMailbox(loop: loop)
            extras.clusterMailbox = mailbox
            cluster.startWatching { [unowned server] events in
                mailbox.post { server.applyClusterEvents(events) }
            }
        }
        extras.checkpointSweep = server.startCheckpointSweep()
        extras.housekeeping = server.startHousekeeping()
        if let control {
            let mailbox = LoopMailbox(loop: loop)
            extras.controlMailbox = mailbox
            control.attach(mailbox: mailbox) { [server] in server.beginStop(reason: "stop requested") }
        }
        if handleSignals {
            do {
                extras.signals = try watchSignals(server: server, loop: loop, reloader: configReloader)
                let early = splitd_startup_stop_signal()
                if early != 0 { server.beginStop(reason: "\(SignalWatcher.name(of: early)) during start-up") }
            } catch {
                logger.critical("refusing to start: \(error)")
                server.discard()
                extras.close()
                loop.runOnce()
                try? store.close()
                return startFailure
            }
        }
        if let reloader = configReloader {
            extras.mailbox = reloader.connect(loop: loop) { [unowned server] result in
                server.applyReload(result)
            }
        }
        if let usec = SystemdNotifier.watchdogInterval(environment: environment) {
            let timer = LoopTimer(loop: loop) { notifier.notify("WATCHDOG=1") }
            let half = max(usec / 2000, 1)
            timer.start(delay: half, interval: half)
            timer.unref()
            extras.watchdog = timer
            logger.info("systemd watchdog: pinging every \(half) ms")
        }
        if notifier.isEnabled {
            // `systemctl status splitd` shows what the daemon is doing.
            let timer = LoopTimer(loop: loop) { [unowned server] in
                notifier.notify(
                    "STATUS=serving \(server.scenes.count) scene(s), \(server.sessions.count) client(s), \(server.stats.requests) request(s) so far"
                )
            }
            timer.start(delay: 10_000, interval: 10_000)
            timer.unref()
            extras.status = timer
        }
        if let demo {
            extras.demo = demo.start(on: server)
        }
        server.onStopped = {
            extras.close()
            // The watchers are gone (libuv put SIG_DFL back), and the final checkpoint may take
            // a while: a late SIGHUP (logrotate) or a second SIGTERM must not kill it now.
            if handleSignals { deferStartupSignals() }
        }

        // A stop signal during start-up has begun the stop already (STOPPING=1 was sent):
        // saying ready after it would tell systemd the opposite.
        if server.phase == .running {
            notifier.notify(
                "READY=1\nSTATUS=serving \(restored.count) scene(s) on \(listeners.map(\.name).joined(separator: ", "))"
            )
            logger.info(
                "splitd \(SplitdVersion.current) ready on \(listeners.map(\.name).joined(separator: ", ")) \(settings.cluster.map { "(cluster node \($0.node), etcd \($0.endpoints.joined(separator: ",")))" } ?? "(database \(settings.databasePath ?? "in memory"), durability \(settings.durability.rawValue))")"
            )
        }

        loop.run()
        // Handles closed by the stop still need one pass to run their close callbacks.
        loop.runOnce()

        server.logSummary()
        server.checkpointAllForStop()
        // Every acknowledged change is in the WAL already: a final checkpoint that fails (a
        // full disk, a read-only file) only leaves the next start more to replay, and the stop
        // is still the graceful one WIRE.md promises (exit 0). A close that fails is not.
        do {
            try store.checkpoint()
        } catch {
            logger.error("stop: the final WAL checkpoint failed, the next start reads the WAL instead: \(error)")
        }
        do {
            try store.close()
        } catch {
            logger.error("closing the database: \(error)")
            return startFailure
        }
        logger.info("stopped")
        return server.exitStatus
    }

    /// SIGTERM/SIGINT stop gracefully; SIGHUP reloads the configuration.
    private static func watchSignals(
        server: Server, loop: EventLoop,
        reloader: ConfigReloader?
    ) throws(SystemError) -> SignalWatcher {
        try SignalWatcher(loop: loop, signals: [SIGTERM, SIGINT, SIGHUP]) { [unowned server] number in
            if number == SIGHUP {
                server.logger.info("SIGHUP: reloading configuration")
                reloader?.reload()
            } else {
                server.beginStop(reason: SignalWatcher.name(of: number))
            }
        }
    }

    /// Opens the configured store; a database that fails its check is refused, never replaced.
    static func openStore(_ settings: ServerSettings, logger: Logger) throws -> any SceneStore {
        guard let path = settings.databasePath else { return MemorySceneStore() }
        var options = StoreOptions(
            durability: Durability(settings.durability),
            integrityCheck: IntegrityCheck(settings.integrityCheck),
            busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds,
            journalRetention: settings.journalRetention,
            historyRevisions: settings.historyRevisions,
            // The loop flushes through `FlushThread`, overlapping turns.
            flushOffWriter: true,
            walCheckpointPages: settings.walCheckpointPages)
        options.preallocatesWAL = true
        do {
            let store = try SQLiteSceneStore(path: path, options: options)
            for warning in store.openWarnings { logger.warning("database \(path): \(warning)") }
            return store
        } catch {
            throw SystemError("cannot use database \(path): \(error)")
        }
    }

    /// Raises the open-file limit to hold `limits.maxClients`, or says why it cannot; the
    /// limit in force, if it can be read.
    private static func checkOpenFileLimit(_ settings: ServerSettings, logger: Logger) -> Int? {
        guard let (before, after) = FileDescriptorLimit.raise(toHold: settings.maxClients) else { return nil }
        if after > before {
            logger.info("open-file limit raised from \(before) to \(after) for \(settings.maxClients) clients")
        }
        let room = FileDescriptorLimit.clients(under: after)
        if room < settings.maxClients {
            logger.warning(
                "the open-file limit (\(after)) leaves room for \(room) clients, fewer than limits.maxClients (\(settings.maxClients)); further clients get limit_exceeded. Raise it (systemd: LimitNOFILE=, shell: ulimit -n) or lower limits.maxClients"
            )
        }
        return after
    }

    /// The self-bound socket when its path was readied under `socketLock`
    /// (`SocketPathGuard.prepare`), else the sockets systemd `passed`.
    static func listen(
        server: Server, settings: ServerSettings, passed: [SocketActivation.PassedSocket],
        socketLock: LockFile?, logger: Logger
    ) throws -> [Listener] {
        let onConnection: (Listener) -> Void = { [unowned server] listener in server.accept(from: listener) }
        let listeners: [Listener]
        if let socketLock {
            listeners = [
                try Listener.bind(
                    loop: server.loop, path: settings.socketPath, group: settings.socketGroup,
                    backlog: settings.backlog, refusal: AcceptRefusal.line,
                    onClose: { socketLock.release() }, onConnection: onConnection)
            ]
        } else {
            SocketActivation.consume(passed)
            logger.info("socket activation: \(passed.count) socket(s) passed by systemd")
            listeners = try passed.map { socket throws(SystemError) in
                try Listener.adopt(
                    loop: server.loop, fd: socket.fd, name: socket.name, backlog: settings.backlog,
                    refusal: AcceptRefusal.line, onConnection: onConnection)
            }
        }
        for listener in listeners {
            listener.onAcceptError = { [unowned server, unowned listener] status in
                server.acceptFailed(on: listener, status: status)
            }
        }
        return listeners
    }

    /// Loop handles that live as long as the daemon and close with it.
    private final class Extras {
        var signals: SignalWatcher?
        var watchdog: LoopTimer?
        var status: LoopTimer?
        var mailbox: LoopMailbox?
        var demo: DemoRunner?
        var controlMailbox: LoopMailbox?
        var checkpointSweep: LoopTimer?
        var housekeeping: LoopTimer?
        var clusterMailbox: LoopMailbox?

        func close() {
            clusterMailbox?.close()
            checkpointSweep?.close()
            housekeeping?.close()
            signals?.close()
            watchdog?.close()
            status?.close()
            mailbox?.close()
            demo?.stop()
            controlMailbox?.close()
        }
    }
}
