import CLinuxShims
import Glibc
import Logging
import SplitCore
import SplitLoop
import SplitSettings
import SplitStore
import SplitWire

/// What the loop thread owns, and the effects it runs for them on libuv and the store: the
/// live scenes (`Scenes`), the clients (`Sessions`), the turn being staged (`Turn`) and the
/// turns after it until they are answered (`TurnCommitter`).
///
/// `@unchecked Sendable` because libuv calls back into it from C on the loop thread only;
/// nothing here is touched from another thread (config reloads arrive through `LoopMailbox`).
final class Server: @unchecked Sendable {
    enum Phase { case running, stopping, stopped }

    let loop: EventLoop
    var settings: ServerSettings
    var logger: Logger
    let store: any SceneStore
    var engine: SplitEngine {
        get { scenes.engine }
        set { scenes.engine = newValue }
    }
    let notifier: SystemdNotifier
    /// Cluster mode: scene ownership and commits through etcd (nil on a single host).
    var cluster: (any ClusterMember)?
    /// Cluster mode: requests this node forwarded to their scene's owner, by forwarding id.
    var forwards: [String: PendingForward] = [:]
    /// Sweeps running on the worker thread, and the mailbox their answers come back through.
    var sweepsInFlight = 0
    var workerMailbox: LoopMailbox?
    /// Cluster mode: forwards of this turn, sent at its end (`sendForwards`).
    var unsentForwards: [(pending: PendingForward, line: [UInt8])] = []
    /// Cluster mode: the owner of each scene followed here, as last read (cleared when the
    /// watch says the owner is gone).
    var knownOwners: [String: String] = [:]
    /// Cluster mode: the scene the request being handled took (`claimInCluster`), given up
    /// again if the request fails and leaves no such scene.
    var claimedByRequest: String?
    var forwardTimer: LoopTimer?
    var forwardTimerActive = false
    /// Cluster mode, on the owner: the session forwarded requests run in, and the forwarding
    /// ids it ran (with their order, to forget the oldest).
    var forwardedRequests: ClientSession?
    var forwardsRun = Set<String>()
    var forwardsRunOrder: [String] = []

    /// The live scenes, their engine and checkpoints.
    var scenes: Scenes
    /// The clients, their attachments to scenes and their unwritten output.
    var sessions = Sessions()
    /// What bursts and backlogs leave of turn storage, and when it goes back to the system.
    var turnMemory = TurnMemory()
    /// Reads request lines with the ops of `Op.table`, each with its entry's decoder.
    let requestDecoder = RequestDecoder(ops: Op.table.map { (name: $0.name, decoder: $0.decoder) })
    /// The turn being staged: what this loop turn's requests changed and answered.
    var turn = Turn()
    /// The writer every change response and journal record is encoded with, emptied each
    /// time: one buffer for the loop's life instead of two allocations per change.
    var scratchWriter = JSONWriter(capacity: 4096)
    var stats = ServerStats()
    var listeners: [Listener] = []
    var phase = Phase.running
    /// The last commit failure, quoted in `storage` errors and `stats`.
    var lastStorageError: String?
    /// `MonotonicClock` at start, for `uptimeSeconds`.
    let startedAt = MonotonicClock.nanoseconds()
    /// Called once the loop has nothing left to do after a graceful stop.
    var onStopped: (() -> Void)?
    /// Flushes the WAL off the loop when the store defers its flush (full durability).
    var flushThread: FlushThread?
    /// The turns between their end and their answer: uncommitted, held behind a flush, spare.
    var committer: TurnCommitter
    /// The newest flush generation told not to wait for company (`IdleFlush.swift`).
    var hurriedFlush = 0
    /// Whether a flush may wait for more clients to join it, and what the flush thread was
    /// last told of it.
    var flushPeers = FlushPeers()
    var reportedOthersMayJoin = true
    /// Retries the commit of turns the store held back while there are some.
    var commitRetryTimer: LoopTimer?
    var commitRetriesActive = false

    /// Warnings a flood of clients could repeat without end.
    private var acceptWarning = RateLimitedWarning()
    private var refusalWarning = RateLimitedWarning()
    /// Clients dropped by `output.totalLimitBytes` (many stalled viewers make many at once).
    var totalOutputWarning = RateLimitedWarning()
    var commitFailureWarning = RateLimitedWarning()
    var databaseRescueWarning = RateLimitedWarning()
    /// What `Daemon.run` returns after a graceful stop (75 after a rescued database).
    var exitStatus: Int32 = 0
    /// Clients the open-file limit leaves room for (`FileDescriptorLimit`), and that limit.
    var openFileRoom = Int.max
    var openFileLimit = Int.max
    private(set) var sizeReportSequence: UInt64 = 0
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Right after the loop's reads: `finishTurn()`.
    private let turnEndHook: LoopHook
    /// Started while a turn is staged: the loop does not sleep before `finishTurn()`.
    private let turnPendingHook: LoopHook
    private var idleActive = false
    /// Busy polling (`BusyPoll.swift`): active while the loop polls instead of sleeping.
    let busyPollHook: LoopHook
    var busyPolling = false
    /// `MonotonicClock` time at which the current busy poll ends.
    var busyPollDeadline: UInt64 = 0
    /// Whether the current turn was counted in `stats.busyPolledTurns`.
    var busyPolledTurnCounted = false
    /// Runs before every poll: starts a flush waiting for company when nothing is left to
    /// read (`IdleFlush.swift`).
    let idleFlushHook: LoopHook
    private var shutdownTimer: LoopTimer?

    init(
        loop: EventLoop, settings: ServerSettings, logger: Logger,
        store: any SceneStore, engine: SplitEngine, notifier: SystemdNotifier
    ) {
        self.loop = loop
        self.settings = settings
        self.logger = logger
        self.store = store
        scenes = Scenes(engine: engine)
        self.notifier = notifier
        committer = TurnCommitter(flushesAfterCommit: store.deferredFlush != nil)
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        turnEndHook = LoopHook(loop: loop, phase: .check)
        turnPendingHook = LoopHook(loop: loop, phase: .idle)
        busyPollHook = LoopHook(loop: loop, phase: .idle)
        idleFlushHook = LoopHook(loop: loop, phase: .prepare)
        // Stored once for the loop's life, not made per turn.
        busyPollHook.action = { [unowned self] in self.continueBusyPoll() }
        // Polling must not keep a stopping loop alive.
        busyPollHook.unref()
        // The check phase runs right after poll: the one place a turn is committed and written.
        turnEndHook.action = { [unowned self] in self.finishTurn() }
        turnEndHook.start()
        // The check hook alone must not keep the loop alive once everything else is closed.
        turnEndHook.unref()
        if let flush = store.deferredFlush {
            let delay = FlushThread.Delay(
                microseconds: settings.flushDelayMicroseconds, unlessWaiting: settings.flushDelayCount)
            flushThread = FlushThread(flush: flush, loop: loop, logger: logger, delay: delay) {
                [unowned self] generation, error in
                self.flushed(through: generation, error: error)
            }
            startIdleFlushProbe()
        }
    }

    deinit {
        readBuffer.deallocate()
    }

    /// The next value of the loop-wide sequence that orders size reports.
    func nextSizeReport() -> UInt64 {
        sizeReportSequence += 1
        return sizeReportSequence
    }

    // MARK: Turn scheduling

    /// Makes sure the loop does not sleep before `finishTurn()` ran: work staged outside the
    /// poll phase (timers, close callbacks, the check itself) would otherwise wait for I/O.
    func scheduleTurn() {
        guard !idleActive else { return }
        idleActive = true
        turnPendingHook.start()
    }

    func unscheduleTurn() {
        guard idleActive else { return }
        idleActive = false
        turnPendingHook.stop()
    }

    // MARK: Accepting clients

    func startListening(on listeners: [Listener]) {
        self.listeners = listeners
    }

    /// Accepting a pending client failed (the open-file limit, mostly).
    func acceptFailed(on listener: Listener, status: Int32) {
        stats.acceptFailures += 1
        warn(
            &acceptWarning,
            "a client could not be accepted on \(listener.name): \(uvErrorMessage(status)); \(sessions.count) clients connected"
        )
    }

    /// Logs `message` unless `warning` logged within its interval; the next one logged says
    /// how many were left out (a flood of refused clients must not flood the log too).
    func warn(_ warning: inout RateLimitedWarning, _ message: @autoclosure () -> String) {
        guard let skipped = warning.take(now: loop.now) else { return }
        logger.warning("\(message())\(skipped > 0 ? " (\(skipped) more like it since the last such warning)" : "")")
    }

    func accept(from listener: Listener) {
        let id = sessions.takeNextID()
        guard
            let connection = Connection(
                id: id, loop: loop, listener: listener,
                maxLineLength: settings.maxLineLength,
                readBuffer: readBuffer, delegate: self)
        else {
            logger.warning("accept failed on \(listener.name)")
            return
        }
        if phase != .running {
            connection.close(reason: "daemon is stopping")
            return
        }
        let session = ClientSession(connection: connection)
        sessions.add(session)
        stats.connectionsAccepted += 1
        guard let peer = connection.peer, settings.admits(peer) else {
            let who = connection.peer.map(String.init(describing:)) ?? "unknown peer"
            warn(&refusalWarning, "refused connection \(id) from \(who): not on the allow-list")
            stats.refusedPeers += 1
            refuse(session, code: .unauthorized, message: "peer \(who) is not allowed to use this daemon")
            return
        }
        // Past the open-file limit the kernel would refuse the next clients without a word
        // (libuv closes what it cannot accept): refused here with a reason instead.
        guard sessions.count <= min(settings.maxClients, openFileRoom) else {
            let limit =
                sessions.count > settings.maxClients
                ? "limit \(settings.maxClients)"
                : "the open-file limit (\(openFileLimit) descriptors) leaves room for \(openFileRoom)"
            warn(&refusalWarning, "refused connection \(id): too many clients (\(limit))")
            // splitctl tells this refusal (exit 69) from other limit_exceeded errors by the
            // "too many clients" prefix: keep it.
            refuse(session, code: .limitExceeded, message: "too many clients (\(limit))")
            return
        }
        logger.debug("connection \(id) from \(peer)")
        connection.startReading()
    }

    /// Refuses and closes every connection that has held an unfinished line longer than
    /// `limits.partialLineTimeoutSeconds` (run once a second): a client that stalls in the
    /// middle of a line would otherwise keep its connection and line buffer forever.
    func closeStalledLines() {
        let timeout = settings.partialLineTimeoutSeconds
        guard timeout > 0, phase == .running else { return }
        let now = loop.now, limit = UInt64(timeout) * 1000
        guard now >= limit else { return }
        for session in sessions.all where !session.isClosing && session.connection.holdsPartialLine(since: now - limit)
        {
            stats.partialLineTimeouts += 1
            logger.info("connection \(session.id): an unfinished line for \(timeout) s; closing")
            refuse(
                session, code: .badRequest,
                message:
                    "no end of line within \(timeout) s of the line's first byte (limits.partialLineTimeoutSeconds); closing the connection"
            )
        }
    }

    /// After slow clients were dropped with much output queued (up to `output.hardLimitBytes`
    /// each), hands the freed memory back to the system: glibc keeps it otherwise, and the
    /// daemon's RSS would stay at its peak for good.
    func releaseDroppedOutputMemory() {
        guard sessions.droppedOutputSinceTrim >= Self.droppedOutputTrimThreshold else { return }
        let dropped = sessions.droppedOutputSinceTrim
        sessions.droppedOutputSinceTrim = 0
        releaseFreeMemory(after: "\(dropped >> 20) MiB of dropped output")
    }

    /// Hands the allocator's free memory back to the system (glibc's `malloc_trim`, which
    /// takes a while: never per turn) and counts it in `stats.freeMemoryReleases`.
    func releaseFreeMemory(after what: String) {
        let started = MonotonicClock.nanoseconds()
        splitd_release_free_memory()
        let took = MonotonicClock.nanoseconds() - started
        stats.freeMemoryReleases += 1
        logger.debug("returned free memory to the system after \(what) (\(took / 1000) µs)")
    }

    static let droppedOutputTrimThreshold = 8 << 20

    /// Starts the once-a-second housekeeping: `closeStalledLines`, `retryWindowLeftResizes`,
    /// `releaseDroppedOutputMemory`, `trimKeptTurnStorage` and a backlog's release that its
    /// once-a-second limit put off (the caller closes the timer).
    func startHousekeeping() -> LoopTimer {
        let timer = LoopTimer(loop: loop) { [unowned self] in
            self.closeStalledLines()
            self.watchDatabaseFile()
            self.retryWindowLeftResizes()
            self.releaseDroppedOutputMemory()
            self.trimKeptTurnStorage()
            self.releaseBacklogMemory()
        }
        timer.start(delay: 1000, interval: 1000)
        timer.unref()
        return timer
    }

    /// Queues a final error (`id` null) and closes the connection after it is written.
    func refuse(_ session: ClientSession, code: WireErrorCode, message: String) {
        session.isClosing = true
        session.connection.stopReading()
        stats.count(error: code)
        turn.stage(.fixed(Notices.error(id: nil, code: code, message: message)), for: session.id)
        turn.stage(.close(reason: message), for: session.id)
        scheduleTurn()
    }

    // MARK: Stopping

    /// Graceful stop (SIGTERM/SIGINT): stop accepting and reading; what was read is answered
    /// by the turn in progress; then every client is closed after its output is written.
    func beginStop(reason: String) {
        guard phase == .running else {
            // A second SIGTERM/SIGINT while draining (an operator pressing Ctrl-C again): stop
            // waiting for slow readers; what was answered is already committed.
            if phase == .stopping, shutdownTimer != nil {
                logger.warning(
                    "\(reason) again while stopping: closing \(sessions.count) client(s) without waiting for them to read"
                )
                for session in Array(sessions.all) { session.connection.close(reason: "daemon stopped") }
            }
            return
        }
        logger.info("stopping: \(reason)")
        notifier.notify("STOPPING=1\nSTATUS=stopping (\(reason))")
        listeners.forEach { $0.close() }
        listeners = []
        for session in sessions.all.sorted(by: { $0.id < $1.id }) {
            session.connection.stopReading()
            // Requests already sent are answered (this turn commits them), nothing later;
            // input held back by backpressure included.
            session.isThrottled = false
            if !session.isClosing { session.connection.drainPendingInput() }
        }
        phase = .stopping
        flushThread?.endDelays()
        shutdownTimer = LoopTimer(loop: loop) { [unowned self] in
            self.logger.warning(
                "stop: clients did not drain within \(self.settings.shutdownTimeoutMilliseconds) ms; closing them")
            for session in Array(self.sessions.all) { session.connection.close(reason: "daemon stopped") }
        }
        shutdownTimer?.start(delay: settings.shutdownTimeoutMilliseconds, interval: 0)
        shutdownTimer?.unref()
        scheduleTurn()
    }

    /// Called after the final turn: close every client once its output is written.
    func closeClientsForStop() {
        for session in Array(sessions.all) where !session.isClosing {
            session.isClosing = true
            // A client behind on its output still gets the newest layout of each scene it
            // watches (within the shutdown timeout, like its replies), not a stale one.
            if !session.heldPushes.isEmpty { releaseHeldPushes(of: session) }
            session.connection.closeAfterWrites(reason: "daemon stopping")
        }
        if sessions.isEmpty { finishStop() }
    }

    /// Closes the handles of a server whose start was refused after `init` (the loop never
    /// ran), so that `EventLoop.close()` finds nothing open and the loop is freed.
    func discard() {
        listeners.forEach { $0.close() }
        listeners = []
        closeLoopHandles()
    }

    private func finishStop() {
        guard phase == .stopping else { return }
        phase = .stopped
        shutdownTimer?.close()
        closeLoopHandles()
        onStopped?()
    }

    /// The server's own handles and the flush thread, after which only the clients' and
    /// listeners' handles can keep the loop alive.
    private func closeLoopHandles() {
        unscheduleTurn()
        stopBusyPoll()
        turnEndHook.close()
        turnPendingHook.close()
        busyPollHook.close()
        idleFlushHook.close()
        commitRetryTimer?.close()
        workerMailbox?.close()
        forwardTimer?.close()
        commitRetryTimer = nil
        flushThread?.stop()
        flushThread = nil
    }
}

extension Server: ConnectionDelegate {
    func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) -> Bool {
        guard phase == .running, let session = sessions[connection.id], !session.isClosing else { return false }
        answerFlushedTurns()
        stats.requests += 1
        stats.bytesIn += line.count + 1
        noteLineRead()
        handle(line: line, from: session)
        throttleIfBehind(session)
        return !session.isClosing && !session.isThrottled
    }

    func connectionDidReachEnd(_ connection: Connection) {
        guard let session = sessions[connection.id] else { return }
        logger.debug("connection \(connection.id): peer finished sending")
        guard !session.isClosing else { return }
        // A forwarded request's or a sweep's answer is still to come: the close waits for it.
        if session.isParked {
            session.closeAfterAnswer = true
            return
        }
        // WIRE: one response per request, so what was read is answered before the close.
        session.isClosing = true
        stage(.close(reason: "peer finished sending"), for: session)
    }

    func connectionDidWrite(_ connection: Connection) {
        guard let session = sessions[connection.id] else { return }
        sessions.accountOutput(of: session)
        resumeIfCaughtUp(session)
    }

    func connectionDidExceedLineLength(_ connection: Connection) {
        guard let session = sessions[connection.id] else { return }
        logger.info("connection \(connection.id): line longer than \(settings.maxLineLength) bytes; closing")
        refuse(
            session, code: .frameTooLarge,
            message: "line longer than \(settings.maxLineLength) bytes; closing the connection")
    }

    func connectionDidClose(_ connection: Connection, reason: String) {
        sessions.droppedOutputSinceTrim += connection.droppedOutputBytes
        guard let session = sessions.remove(connection.id) else { return }
        sessions.accountOutput(of: session)
        flushPeers.noteClosed(&session.flushPeer)
        reportFlushPeers()
        logger.debug("connection \(connection.id) closed: \(reason)")
        detachAll(session)
        if phase == .stopping, sessions.isEmpty { finishStop() }
    }

    func connectionDidDrain(_ connection: Connection) {
        guard let session = sessions[connection.id], !session.heldPushes.isEmpty else { return }
        releaseHeldPushes(of: session)
    }
}
