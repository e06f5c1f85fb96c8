import SplitLoop
import SplitWire

/// A request this node forwarded to its scene's owner, waiting for the answer.
struct PendingForward {
    var session: Connection.ID
    var requestID: RequestID
    var scene: String
    var owner: String
    /// Loop time (ms) it was sent, or when the owner was found to have consumed it.
    var since: UInt64
    /// The owner consumed it (`withdraw` failed): its answer exists and is only awaited.
    var consumed = false
}

/// What the owner's session for forwarded requests is answering now.
struct ForwardedTarget {
    var scene: String
    var request: String
}

// Cluster mode: a change to a scene another node owns is forwarded to that owner through
// etcd (docs/CLUSTER.md, "Forwarding"). The sender puts the request line in the scene's inbox
// and parks the client's connection: nothing more is read from it until the answer comes,
// so its replies stay in request order. The owner runs the line as if a client of its own
// had sent it, and its commit consumes the inbox key and puts the answer in one transaction:
// the request is applied and answered exactly once. The sender writes the owner's answer (the
// client's own `id` in it) once its watch brings it, with the scene's records of the same
// transaction: the reply first, then the pushes, as for a change made here.
extension Server {
    /// How long a forwarded request waits for its owner before the sender takes it back (an
    /// owner that died lets its lease expire first, and another node takes the scene).
    static let forwardPatienceMilliseconds: UInt64 = 5000

    /// Parks `session` until the owner of `scene` answers `line`, which goes to it with the
    /// turn's other forwards (`sendForwards`, one etcd transaction).
    func forward(
        _ line: UnsafeRawBufferPointer, scene: String, owner: String, id: RequestID, from session: ClientSession
    ) {
        let pending = PendingForward(session: session.id, requestID: id, scene: scene, owner: owner, since: loop.now)
        unsentForwards.append((pending, Array(line)))
        session.awaitingForward = ""
        session.isThrottled = true
        session.connection.pauseReading()
        scheduleTurn()
    }

    /// Most forwards in one transaction: under etcd's 128 operations, with room for
    /// deleting answers already read.
    static let forwardsPerTransaction = 96

    /// At the end of a turn: sends the turn's forwards, one transaction per
    /// `forwardsPerTransaction`; those etcd did not take are answered `unavailable`.
    func sendForwards() {
        guard let cluster, !unsentForwards.isEmpty else { return }
        let unsent = unsentForwards
        unsentForwards.removeAll(keepingCapacity: true)
        for start in stride(from: 0, to: unsent.count, by: Self.forwardsPerTransaction) {
            let chunk = unsent[start..<min(unsent.count, start + Self.forwardsPerTransaction)]
            let ids = cluster.forward(chunk.map { ($0.line, $0.pending.scene) })
            for (offset, entry) in chunk.enumerated() {
                guard let session = sessions[entry.pending.session] else { continue }
                guard let ids else {
                    session.awaitingForward = nil
                    stats.count(error: .unavailable)
                    reply(
                        error: WireError(
                            .unavailable,
                            "scene '\(entry.pending.scene)' is owned by node '\(entry.pending.owner)' and etcd did not take the request for it; nothing was applied, retry"
                        ), id: entry.pending.requestID, to: session)
                    resumeParked(session)
                    continue
                }
                stats.clusterForwarded += 1
                var pending = entry.pending
                pending.since = loop.now
                forwards[ids[offset]] = pending
                session.awaitingForward = ids[offset]
            }
        }
        if !forwards.isEmpty { startForwardTimer() }
    }

    /// The owner's answer to a request forwarded from here: written to its client, whose
    /// connection is read again.
    func deliverAnswer(to request: String, _ reply: [UInt8]) {
        if let session = stageAnswer(to: request, reply) { resumeParked(session) }
    }

    /// Stages the owner's answer for its client; the client, to be read again
    /// (`resumeAfterForward`) once the scene's records that came with the answer are applied.
    func stageAnswer(to request: String, _ reply: [UInt8]) -> ClientSession? {
        guard let pending = forwards.removeValue(forKey: request) else { return nil }
        cluster?.discardAnswers([request])
        if forwards.isEmpty { stopForwardTimer() }
        guard let session = sessions[pending.session] else { return nil }
        session.awaitingForward = nil
        var bytes = reply
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        stage(.fixed(bytes), for: session)
        return session
    }

    /// Answers a parked request without its owner's answer (`unavailable`: it was withdrawn,
    /// never applied), or closes the connection when its outcome cannot be learned.
    private func settleWithoutAnswer(_ request: String, withdrawn: Bool) {
        guard let pending = forwards.removeValue(forKey: request) else { return }
        if forwards.isEmpty { stopForwardTimer() }
        guard let session = sessions[pending.session] else { return }
        session.awaitingForward = nil
        if withdrawn {
            stats.clusterForwardsWithdrawn += 1
            reply(
                error: WireError(
                    .unavailable,
                    "scene '\(pending.scene)': its owner '\(pending.owner)' did not take the request within \(Self.forwardPatienceMilliseconds / 1000) s; nothing was applied, retry"
                ), id: pending.requestID, to: session)
            resumeParked(session)
        } else {
            // Applied or not, nobody can tell: neither acknowledged nor reported failed.
            logger.error(
                "cluster: the answer to a request forwarded for scene '\(pending.scene)' was lost; closing connection \(session.id) without one"
            )
            session.isClosing = true
            stage(.close(reason: "the outcome of a forwarded request could not be learned"), for: session)
        }
    }

    /// Reads a client again whose parked request was answered (or closes it, if it finished
    /// sending meanwhile).
    func resumeParked(_ session: ClientSession) {
        if session.closeAfterAnswer {
            session.isClosing = true
            stage(.close(reason: "peer finished sending"), for: session)
        } else {
            resumeIfCaughtUp(session)
        }
    }

    /// Every `forwardPatienceMilliseconds` without an answer: a request its owner did not
    /// consume is taken back (`unavailable`); one it consumed is read from etcd directly.
    func checkForwards() {
        guard let cluster else { return }
        let now = loop.now
        for (request, pending) in forwards where now >= pending.since + Self.forwardPatienceMilliseconds {
            if pending.consumed {
                if let answer = cluster.answer(to: request) {
                    deliverAnswer(to: request, answer)
                } else {
                    settleWithoutAnswer(request, withdrawn: false)
                }
                continue
            }
            switch cluster.withdraw(request, scene: pending.scene) {
            case true?:
                settleWithoutAnswer(request, withdrawn: true)
            case false?:
                forwards[request]?.consumed = true
                forwards[request]?.since = now
            case nil:
                // etcd did not answer: asked again at the next tick.
                break
            }
        }
    }

    private func startForwardTimer() {
        if forwardTimer == nil {
            forwardTimer = LoopTimer(loop: loop) { [unowned self] in
                self.checkForwards()
                self.closeClientsIfStopped()
            }
        }
        guard !forwardTimerActive else { return }
        forwardTimerActive = true
        forwardTimer?.start(delay: 250, interval: 250)
    }

    private func stopForwardTimer() {
        guard forwardTimerActive else { return }
        forwardTimerActive = false
        forwardTimer?.stop()
    }

    /// On the owner: runs a request another node forwarded for `scene`, once. Its answer goes
    /// into the turn's batch (`stage`), committed with the scene's changes.
    func runForwarded(_ forwarded: ForwardedRequest, scene: String) {
        guard forwardsRun.insert(forwarded.request).inserted else { return }
        forwardsRunOrder.append(forwarded.request)
        if forwardsRunOrder.count > Self.forwardsRemembered {
            forwardsRun.remove(forwardsRunOrder.removeFirst())
        }
        guard let session = forwardedRequestsSession() else { return }
        stats.clusterForwardsRun += 1
        session.answering = ForwardedTarget(scene: scene, request: forwarded.request)
        defer { session.answering = nil }
        forwarded.line.withUnsafeBytes { handle(line: $0, from: session) }
    }

    /// How many forwarded requests the owner remembers having run (a request can reach it
    /// twice: in the record read when it took the scene and from the watch).
    static let forwardsRemembered = 65536

    /// The session forwarded requests run in: it reads and writes nothing; `stage` takes its
    /// replies into the batch.
    private func forwardedRequestsSession() -> ClientSession? {
        if let session = forwardedRequests { return session }
        guard
            let connection = Connection(
                unconnected: sessions.takeNextID(), loop: loop, maxLineLength: settings.maxLineLength,
                readBuffer: readBuffer, delegate: self)
        else {
            logger.error("cluster: no socket pair for the session of forwarded requests")
            return nil
        }
        let session = ClientSession(connection: connection)
        forwardedRequests = session
        return session
    }

    /// `stage` for the session of forwarded requests: the reply becomes the batch's answer
    /// to the sending node (pushes and notices have nobody to go to).
    func stageForwardedAnswer(_ reply: Turn.Reply, _ target: ForwardedTarget) {
        let bytes: [UInt8]
        switch reply {
        case .fixed(let b), .read(let b, _, _), .attach(let b, _, _), .readStaged(let b, _, _): bytes = b
        case .change(let range, _, _): bytes = Array(turn.changeReplyBytes[range])
        case .push, .notice, .close: return
        }
        turn.batch.answerForwarded(scene: target.scene, request: target.request, reply: bytes)
        scheduleTurn()
    }
}
