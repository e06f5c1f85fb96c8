// Read backpressure (Redis's client output buffer, but throttling instead of dropping): a
// client whose unwritten answers pass the soft output limit is not read until they drain
// below half of it, so a client that pipelines faster than it reads is slowed down, never
// disconnected for its own responses. Pushes keep their own rules (coalesced past the soft
// limit, hard limit disconnects). And fairness: a client is read for at most
// `linesPerTurn` lines per turn, so a flood of tiny lines cannot delay the other clients'
// turn by more than that.
extension Server {
    /// Lines one client may send per turn before it waits for the next one.
    static let linesPerTurn = 1024

    /// Bytes of unwritten output (queued in libuv plus staged this turn) of `session`.
    func unwrittenOutput(of session: ClientSession) -> Int {
        session.connection.queuedBytes + session.stagedBytes
    }

    /// Pauses reading `session` once its unwritten output passes the soft limit; the rest of
    /// the chunk being framed waits in the connection until reading resumes.
    func throttleIfBehind(_ session: ClientSession) {
        // While a stop drains what clients already sent, everything read is answered.
        session.linesThisTurn += 1
        guard !session.isThrottled, !session.isClosing, !session.connection.isDraining,
              session.linesThisTurn >= Self.linesPerTurn || unwrittenOutput(of: session) > settings.outputSoftLimit
        else { return }
        session.isThrottled = true
        session.connection.pauseReading()
    }

    /// Resumes reading a throttled `session` once its output fell below half the soft limit
    /// and it has lines left in this turn.
    func resumeIfCaughtUp(_ session: ClientSession) {
        guard session.isThrottled, session.linesThisTurn < Self.linesPerTurn,
              unwrittenOutput(of: session) <= settings.outputSoftLimit / 2 else { return }
        session.isThrottled = false
        guard phase == .running, !session.isClosing else { return }
        session.connection.startReading()
    }
}
