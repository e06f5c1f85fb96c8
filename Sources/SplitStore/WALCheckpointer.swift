#if canImport(Glibc)
import Glibc
#endif
import CLinuxShims
import CSQLite

/// Copies the WAL back into the database file on a thread of its own, so that the daemon's
/// loop does not do it inside a commit.
///
/// SQLite's automatic checkpoint runs in the commit that takes the WAL past 1000 pages: it
/// reads those pages, writes them into the main file and syncs it, in the loop's thread (a
/// few ms to tens of ms: the tail of a resize storm's latency). Here the writer's connection
/// has no automatic checkpoint; its WAL hook (called after every commit with the WAL's size)
/// wakes this thread, which runs `PASSIVE` checkpoints on a second connection: they copy what
/// is committed without waiting for or blocking the writer.
///
/// The WAL starts over from its beginning only at a write transaction that finds every
/// frame copied, and a busy writer commits while the thread copies, so the thread alone would
/// never catch up and the WAL would grow. The thread therefore runs passes until one leaves
/// at most `catchUpPages` (1/16 of the threshold, 250 at most) of the frames it saw uncopied
/// (usually the first: a reader that blocks copying is what leaves more), then holds the
/// writer's commits back (`enterWriterCommit` answers false, or waits) for one last pass, which copies what
/// the writer committed meanwhile and syncs the database file. The file is synced before
/// that, too (`syncCopiedPages`), so the last pass syncs little. The writer's loop keeps
/// working meanwhile: it keeps the turns it could not commit and commits them together
/// afterwards. Were the writer to copy that last stretch itself, in its commit, the loop
/// would stop for milliseconds every few seconds of a storm, most of it the database file's
/// sync. A thread that does not get that close (a disk slower
/// than the writer) holds the writer back anyway once the WAL is twice the threshold; if the
/// WAL still reaches `writerLimitPages` (4 times the threshold), the writer waits for the
/// thread's pass and checkpoints too: the WAL stays bounded. Ordinary passes run in the
/// background (`PassPriorities`); at 1.5 times the threshold the writer raises the running
/// cycle to the loop's own priority, so a loop that never sleeps cannot starve it.
final class WALCheckpointer: @unchecked Sendable {
    /// WAL size, in pages, that wakes the thread (SQLite's automatic checkpoint uses 1000).
    let thresholdPages: Int32
    /// How many of the frames a pass saw it may leave uncopied for the thread to hold the
    /// writer back for its last pass. A pass reports the WAL as it was when the pass began,
    /// not what the writer added during it.
    let catchUpPages: Int32
    /// WAL size at which the writer checkpoints itself.
    let writerLimitPages: Int32

    private let connection: Database
    private var mutex = pthread_mutex_t()
    private var wakeUp = pthread_cond_t()
    private var idle = pthread_cond_t()
    /// Signalled when the writer leaves a commit (or a pause starts): the thread waits on it
    /// before its last pass.
    private var writerLeft = pthread_cond_t()
    /// Signalled when the last pass ends: a writer waiting in `enterWriterCommit` goes on.
    private var writerReleased = pthread_cond_t()
    private var thread = pthread_t()
    private var started = false
    // Guarded by `mutex`.
    private var requested = false
    private var running = false
    private var paused = false
    private var stopping = false
    /// The writer is inside a commit (between `enterWriterCommit` and `leaveWriterCommit`).
    private var writerCommitting = false
    /// The thread's last pass holds the writer's commits back.
    private var holdingWriter = false
    /// The thread's id and the nice value its passes catch up at (`PassPriorities.catchUp`),
    /// set by the thread when it starts; nil: it cannot switch.
    private var threadID: pid_t = 0
    private var catchUpNice: Int32?
    /// The writer raised this cycle's passes to `catchUpNice`.
    private var caughtUp = false
    private var counts = Counts()

    /// What the thread has done.
    struct Counts {
        /// Passes that copied what was committed.
        var passes: Int64 = 0
        /// Passes refused (another checkpoint was running) or failed; the next call retries.
        var failures: Int64 = 0
        /// Of the passes, the last ones of a cycle, run while the writer's commits were held back.
        var passesHoldingWriter: Int64 = 0
        /// Cycles whose passes the writer raised from the background to the loop's priority:
        /// the WAL reached 1.5 times the threshold while they ran.
        var catchUps: Int64 = 0
        /// Commits that found the writer held back and were refused (`enterWriterCommit(wait: false)`).
        var commitsRefused: Int64 = 0
        /// Checkpoints the writer ran itself: the WAL reached `writerLimitPages`.
        var writerCheckpoints: Int64 = 0
        /// Cycles asked for by `requestCycle` (a commit refused for a full disk).
        var requestedCycles: Int64 = 0
        /// The longest time the writer's commits were held back by one last pass (its copy
        /// and the database file's `fdatasync`): the daemon answers no change meanwhile.
        var longestHoldNanoseconds: Int64 = 0
    }

    /// Opens the second connection and starts the thread.
    init(path: String, synchronous: String, thresholdPages: Int32 = 16_000) throws(StoreError) {
        self.thresholdPages = thresholdPages
        // At most 250 frames, whatever the threshold: what is left is what the last pass copies
        // and syncs while the writer waits.
        catchUpPages = max(1, min(thresholdPages / 16, Self.largestCatchUpPages))
        writerLimitPages = thresholdPages * 4
        connection = try Database(path: path, mode: .readWrite)
        try connection.execute("PRAGMA synchronous = \(synchronous)")
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&wakeUp, nil)
        pthread_cond_init(&idle, nil)
        pthread_cond_init(&writerLeft, nil)
        pthread_cond_init(&writerReleased, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        guard
            pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<WALCheckpointer>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context) == 0
        else {
            Unmanaged<WALCheckpointer>.fromOpaque(context).release()
            try? connection.close()
            throw StoreError.check(
                .other, code: SQLITE_ERROR, operation: "start the WAL checkpoint thread",
                message: "pthread_create failed")
        }
        started = true
    }

    deinit {
        pthread_cond_destroy(&writerReleased)
        pthread_cond_destroy(&writerLeft)
        pthread_cond_destroy(&idle)
        pthread_cond_destroy(&wakeUp)
        pthread_mutex_destroy(&mutex)
    }

    /// Installs the hook on the writer's connection; `uninstall` before closing either.
    func install(on writer: Database) {
        sqlite3_wal_hook(
            writer.handle,
            { context, handle, _, pages in
                Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue().committed(
                    walPages: pages, writer: handle)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    func uninstall(from writer: Database) {
        sqlite3_wal_hook(writer.handle, nil, nil)
    }

    /// Whether the writer can raise a falling-behind cycle's passes (the thread may switch
    /// nice values); false until the thread has started.
    var raisesFallingBehindPasses: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return catchUpNice != nil
    }

    /// What the thread has done so far.
    var statistics: Counts {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return counts
    }

    /// Runs `body` (on the caller's thread) while no pass runs and none starts.
    func pause<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        pthread_mutex_lock(&mutex)
        paused = true
        // A thread waiting for the writer to leave its commit gives its last pass up: the
        // writer may be the caller, inside its commit.
        pthread_cond_signal(&writerLeft)
        while running { pthread_cond_wait(&idle, &mutex) }
        pthread_mutex_unlock(&mutex)
        defer {
            pthread_mutex_lock(&mutex)
            paused = false
            pthread_cond_signal(&wakeUp)
            pthread_mutex_unlock(&mutex)
        }
        return try body()
    }

    /// Stops the thread (after its current pass) and closes its connection. Idempotent.
    func stop() {
        pthread_mutex_lock(&mutex)
        let wasStarted = started && !stopping
        stopping = true
        pthread_cond_signal(&wakeUp)
        pthread_cond_signal(&writerLeft)
        pthread_mutex_unlock(&mutex)
        guard wasStarted else { return }
        pthread_join(thread, nil)
        try? connection.close()
    }

    /// Called by the writer before each commit. False (with `wait` false) while the thread's
    /// last pass holds commits back: the caller commits later. With `wait` true it waits for
    /// that pass to end (tens of ms at worst: for rare commits, not the loop's turns).
    /// A true answer must be followed by `leaveWriterCommit()`.
    func enterWriterCommit(wait: Bool) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if holdingWriter, !wait {
            counts.commitsRefused += 1
            return false
        }
        while holdingWriter { pthread_cond_wait(&writerReleased, &mutex) }
        writerCommitting = true
        return true
    }

    func leaveWriterCommit() {
        pthread_mutex_lock(&mutex)
        writerCommitting = false
        pthread_cond_signal(&writerLeft)
        pthread_mutex_unlock(&mutex)
    }

    /// Runs `body` with the writer's commits held back, as the thread's last pass holds them
    /// (tests, with a threshold the thread never reaches).
    func holdingWriterForTesting<T>(_ body: () throws -> T) rethrows -> T {
        _ = holdWriter()
        defer { releaseWriter() }
        return try body()
    }

    /// Holds the writer's commits back once it has left the commit it is in; false (still
    /// holding: call `releaseWriter()`) if a pause or a stop came first.
    private func holdWriter() -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        holdingWriter = true
        while writerCommitting && !paused && !stopping { pthread_cond_wait(&writerLeft, &mutex) }
        return !paused && !stopping
    }

    private func releaseWriter() {
        pthread_mutex_lock(&mutex)
        holdingWriter = false
        pthread_cond_broadcast(&writerReleased)
        pthread_mutex_unlock(&mutex)
    }

    // Called on the writer's thread after each commit, with the writer's connection.
    private func committed(walPages: Int32, writer: OpaquePointer?) {
        guard walPages >= thresholdPages, let writer else { return }
        pthread_mutex_lock(&mutex)
        if walPages < writerLimitPages, !requested {
            requested = true
            pthread_cond_signal(&wakeUp)
        }
        // A loop that never sleeps (normal durability at full load) leaves a nice-19 thread
        // almost none of its core: the WAL would outgrow the cycle and the last pass hold the
        // writer for tens of milliseconds. Past 1.5 times the threshold the cycle's passes
        // share the core evenly.
        // Under the lock: the thread cannot start its next cycle (in the background) between.
        if walPages >= Self.raisePages(threshold: thresholdPages), running, !caughtUp, let catchUpNice {
            caughtUp = true
            counts.catchUps += 1
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(threadID), catchUpNice)
        }
        pthread_mutex_unlock(&mutex)
        if walPages >= writerLimitPages {
            // The thread cannot keep up: bound the WAL as SQLite's own checkpoint would.
            _ = try? pause { () throws(StoreError) in checkpointOnWriter(writer) }
        }
    }

    /// Asks for a cycle whatever the WAL's size (after a commit refused for a full disk:
    /// `SQLiteSceneStore.commitNow`). Like the writer's request, it waits while paused.
    func requestCycle() {
        pthread_mutex_lock(&mutex)
        if !requested {
            requested = true
            counts.requestedCycles += 1
            pthread_cond_signal(&wakeUp)
        }
        pthread_mutex_unlock(&mutex)
    }

    private func checkpointOnWriter(_ writer: OpaquePointer) {
        var frames: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
        pthread_mutex_lock(&mutex)
        if code == SQLITE_OK { counts.writerCheckpoints += 1 } else { counts.failures += 1 }
        pthread_mutex_unlock(&mutex)
    }

    /// The most frames a cycle leaves to the pass that holds the writer back.
    static let largestCatchUpPages: Int32 = 250

    /// The WAL size, in pages, at which the writer raises a running cycle (1.5 times the
    /// threshold): under full load the WAL grows about this far before a cycle ends, which is
    /// why the daemon zero-fills the WAL to it (`StoreOptions.preallocatedWALBytes`).
    static func raisePages(threshold: Int32) -> Int32 {
        threshold + threshold / 2
    }

    /// How many passes chase a writer that keeps committing before waiting for the next call.
    private static let passesPerWakeUp = 8

    /// The thread's nice values. Its ordinary passes copy megabytes through the page cache:
    /// on the loop's core (a daemon pinned to one CPU) they take milliseconds of CPU at a
    /// time from the loop, which then answers late; in the background they use what the loop
    /// leaves, unless that is too little to keep up (`catchUp`, raised by the writer). The
    /// last pass holds the writer's commits back, so it runs ahead of the loop.
    /// Switching needs CAP_SYS_NICE or an RLIMIT_NICE down to `urgent` (systemd/splitd.service:
    /// LimitNICE=-10); without them the thread keeps one priority throughout.
    private struct PassPriorities {
        static let background: Int32 = 19
        /// The last pass's nice value, nil when the thread cannot come back from `background`.
        var urgent: Int32?
        /// The nice value the thread started with (the loop's), for passes that fall behind;
        /// nil when the thread cannot come back from `background`.
        var catchUp: Int32?

        /// Decides, on the thread, which values it may switch between: -10 when allowed, else
        /// the nice value the thread started with (the loop's) if RLIMIT_NICE lets it return
        /// there from `background`.
        static func probe() -> PassPriorities {
            errno = 0
            var start = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            if errno != 0 { start = 0 }
            if setNice(-10) { return PassPriorities(urgent: -10, catchUp: start) }
            var limit = rlimit()
            // RLIMIT_NICE allows nice values down to 20 - rlim_cur (rlim_cur may be RLIM_INFINITY).
            if getrlimit(__rlimit_resource_t(__RLIMIT_NICE.rawValue), &limit) == 0,
                limit.rlim_cur >= rlim_t(max(0, 20 - Int(start)))
            {
                return PassPriorities(urgent: start, catchUp: start)
            }
            return PassPriorities(urgent: nil, catchUp: nil)
        }

        func enterBackground() { if urgent != nil { _ = Self.setNice(Self.background) } }
        func enterUrgent() { if let urgent { _ = Self.setNice(urgent) } }

        /// Sets the calling thread's nice value (Linux: who = 0 is the thread, not the process).
        private static func setNice(_ value: Int32) -> Bool {
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value) == 0
        }
    }

    private func run() {
        let priorities = PassPriorities.probe()
        pthread_mutex_lock(&mutex)
        threadID = splitd_thread_id()
        catchUpNice = priorities.catchUp
        while true {
            while !stopping && (!requested || paused) { pthread_cond_wait(&wakeUp, &mutex) }
            if stopping { break }
            // In the background before the writer may raise it (under the lock: no raise is undone).
            priorities.enterBackground()
            caughtUp = false
            running = true
            pthread_mutex_unlock(&mutex)
            var passes = 0
            var outcome = (code: SQLITE_OK, frames: Int32(0), copied: Int32(0))
            repeat {
                outcome = pass()
                passes += 1
            } while outcome.code == SQLITE_OK && outcome.frames - outcome.copied > catchUpPages
                && passes < Self.passesPerWakeUp && !isPausedOrStopping()
            // Twice the threshold: the thread does not catch up (a slow disk, a busy core).
            // Holding the writer back for a longer pass keeps the loop working, where the
            // writer's own checkpoint at `writerLimitPages` stops it.
            let closeEnough = outcome.frames - outcome.copied <= catchUpPages
            let fallingBehind = outcome.frames >= thresholdPages * 2
            if outcome.code == SQLITE_OK, closeEnough || fallingBehind {
                syncCopiedPages(after: outcome.frames)
                priorities.enterUrgent()
                passHoldingWriter()
            }
            pthread_mutex_lock(&mutex)
            requested = false
            running = false
            pthread_cond_broadcast(&idle)
        }
        pthread_mutex_unlock(&mutex)
    }

    /// Before the last pass, with the writer still committing: syncs the database file, then
    /// copies what the writer added during that sync and syncs again, while that is more than
    /// `catchUpPages`. A storm adds many frames during the first sync; left to the last
    /// pass, their copy and sync would hold the writer back that much longer.
    private func syncCopiedPages(after frames: Int32) {
        var seen = frames
        for _ in 0..<Self.syncRoundsBeforeHold {
            // A pause or a stop waits for this thread: no sync it would wait for too.
            guard !isPausedOrStopping() else { return }
            syncDatabaseFile()
            let next = pass()
            guard next.code == SQLITE_OK, next.frames - seen > catchUpPages else { return }
            seen = next.frames
        }
    }

    /// At most this many syncs (each followed by a pass) before the last pass.
    private static let syncRoundsBeforeHold = 3

    /// Syncs the database file before the last pass, with the writer still committing. The
    /// passes before wrote every page the cycle's commits touched into it and would leave
    /// them to the last pass's sync, which the writer waits for: most of the hold. Synced
    /// here, the last pass syncs only what it copies itself. Through SQLite's own file handle: closing a descriptor of our own
    /// on the file would drop the process's POSIX locks on it. A failure is left to the last
    /// pass's own sync, which reports it.
    private func syncDatabaseFile() {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection.handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let file, let sync = file.pointee.pMethods?.pointee.xSync
        else { return }
        _ = sync(file, SQLITE_SYNC_NORMAL)
    }

    /// The cycle's last pass: with the writer's commits held back it reaches the WAL's end,
    /// and the writer's next transaction starts the WAL over. Given up if a pause or a stop
    /// comes first (the writer may be waiting inside its commit).
    private func passHoldingWriter() {
        let began = monotonicNanoseconds()
        let outcome = holdWriter() ? pass() : nil
        releaseWriter()
        let held = monotonicNanoseconds() - began
        pthread_mutex_lock(&mutex)
        if outcome?.code == SQLITE_OK { counts.passesHoldingWriter += 1 }
        counts.longestHoldNanoseconds = max(counts.longestHoldNanoseconds, held)
        pthread_mutex_unlock(&mutex)
    }

    private func isPausedOrStopping() -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return paused || stopping
    }

    private func pass() -> (code: Int32, frames: Int32, copied: Int32) {
        var frames: Int32 = 0
        var copied: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
        pthread_mutex_lock(&mutex)
        if code == SQLITE_OK {
            counts.passes += 1
        } else {
            counts.failures += 1
        }
        pthread_mutex_unlock(&mutex)
        return (code, frames, copied)
    }
}
