// Read backpressure (Redis's client output buffer, but throttling instead of dropping): a
// client whose unwritten answers pass the soft output limit is not read until they drain
// below half of it, so a client that pipelines faster than it reads is slowed down, not
// disconnected for its own responses (unless all clients together pass the total limit,
// `enforceTotalOutputLimit`). Pushes keep their own rules (coalesced past the soft
// limit, hard limit disconnects). And fairness: a client is read for at most
// `linesPerTurn` lines per turn, so a flood of tiny lines cannot delay the other clients'
// turn by more than that. And memory: all clients together are read for about
// `linesPerTurnInTotal` lines per turn, so under overload requests wait in the kernel's
// socket buffers instead of piling up in the turn (its staged rows, replies and rollback
// copies, which grow with the backlog). The
// budget is shared fairly: each client may take its share (the budget divided among the
// clients read in the previous turn); once the budget is spent, a client read gets one line.
// Without shares, the clients resumed first in a turn took the whole budget every turn and
// the others starved.
extension Server {
    /// Lines one client may send per turn before it waits for the next one.
    static let linesPerTurn = 1024

    /// Lines all clients together may send per turn before each client read waits for the
    /// next turn (beyond it, at most one line per client). Far above what a turn holds when
    /// the daemon keeps up (one line per connection at depth 1), so it only acts on a backlog.
    /// A smaller budget bounds memory more tightly but pays the per-turn costs (a commit, a
    /// write and a pause per client) more often; docs/PERFORMANCE.md has the measurements.
    static let linesPerTurnInTotal = 16384

    /// Lines one client may send this turn: the total budget divided among the clients read
    /// in the previous turn, at least one, at most `linesPerTurn`.
    var lineShare: Int {
        min(Self.linesPerTurn, max(1, Self.linesPerTurnInTotal / max(1, stats.clientsReadLastTurn)))
    }

    /// Bytes of unwritten output (queued in libuv plus staged this turn) of `session`.
    func unwrittenOutput(of session: ClientSession) -> Int {
        session.connection.queuedBytes + session.stagedBytes
    }

    /// Pauses reading `session` once its unwritten output passes the soft limit, it used its
    /// share of the turn or the turn's budget is spent; the rest of the chunk being framed
    /// waits in the connection until reading resumes.
    func throttleIfBehind(_ session: ClientSession) {
        // While a stop drains what clients already sent, everything read is answered.
        session.linesThisTurn += 1
        stats.linesThisTurn += 1
        if session.linesThisTurn == 1 { stats.clientsReadThisTurn += 1 }
        guard !session.isThrottled, !session.isClosing, !session.connection.isDraining,
            session.linesThisTurn >= lineShare || stats.linesThisTurn >= Self.linesPerTurnInTotal
                || unwrittenOutput(of: session) > settings.outputSoftLimit
        else { return }
        session.isThrottled = true
        session.connection.pauseReading()
    }

    /// Resumes reading a throttled `session` once its output fell below half the soft limit
    /// and it has lines left in this turn. Not held back by the turn-wide budget: a client
    /// paused by it always has a reply in the turn, so `finishTurn` resumes it, and each
    /// resumed client gets at least one line per turn (no client starves).
    func resumeIfCaughtUp(_ session: ClientSession) {
        guard session.isThrottled, !session.isParked, session.linesThisTurn < lineShare,
            unwrittenOutput(of: session) <= settings.outputSoftLimit / 2
        else { return }
        session.isThrottled = false
        guard phase == .running, !session.isClosing else { return }
        session.connection.startReading()
    }

    /// Past `output.totalLimitBytes` for all clients together, disconnects the clients with
    /// the most unwritten output, largest first, until the total is under it again. Memory
    /// stays bounded however many clients stop reading (each may hold up to
    /// `output.hardLimitBytes`); the clients that go are those holding the most, which are
    /// stalled viewers long before a client merely throttled at the soft limit. Like the hard
    /// limit, a client sees its connection close, never a gap in what it read.
    func enforceTotalOutputLimit() {
        guard sessions.queuedOutputTotal > settings.outputTotalLimit else { return }
        sessions.recountQueuedOutput()
        while sessions.queuedOutputTotal > settings.outputTotalLimit, let largest = sessions.holdingMostOutput() {
            stats.slowClientsDisconnected += 1
            warn(
                &totalOutputWarning,
                "connection \(largest.id): \(largest.accountedOutput) bytes of output not read, \(sessions.queuedOutputTotal) for all clients (output.totalLimitBytes \(settings.outputTotalLimit)); disconnecting the client holding the most"
            )
            largest.connection.close(
                reason: "output limit of all clients exceeded: this client held the most unread output")
            // `connectionDidClose` took it out of the count; a connection closed already is
            // taken out here so that the loop ends.
            if sessions.countsQueuedOutput(of: largest.id) { sessions.accountOutput(of: largest) }
        }
    }
}
