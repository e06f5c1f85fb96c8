import SplitLoop
import SplitWire

// Writing a settled turn's output: each connection's replies and pushes in one write, what
// a refused commit leaves of them (`storage` errors), held pushes of slow readers, and the
// output limits. Called only for turns `TurnCommitter` released (EndOfTurn.swift).
extension Server {
    /// Writes a turn's replies and pushes, one write per connection.
    func answer(_ work: Turn, committed: Bool, rolledBack: Set<String>, failed: [String: SceneFailure] = [:]) {
        turnMemory.noteAnswered(replyBytes: work.changeReplyByteCount)
        for (slot, id) in work.connectionOrder.enumerated() {
            guard let session = sessions[id] else { continue }
            let replies = work.replies(of: slot)
            session.stagedBytes = max(0, session.stagedBytes - replies.reduce(0) { $0 + $1.stagedByteCount })
            flushPeers.update(&session.flushPeer, stagedBytes: session.stagedBytes)
            if failed.isEmpty {
                deliver(replies, to: session, committed: committed, rolledBack: rolledBack)
            } else {
                deliver(replies, to: session, failed: failed)
            }
            resumeIfCaughtUp(session)
        }
    }

    private func deliver(
        _ replies: Turn.ConnectionReplies, to session: ClientSession, committed: Bool, rolledBack: Set<String>
    ) {
        // Depth 1, the common case: one reply that stands is written from its own bytes.
        if let only = replies.single {
            if case .change(let range, _, _) = only, committed {
                replies.changeReplyBytes.withUnsafeBytes {
                    write(UnsafeRawBufferPointer(rebasing: $0[range]), to: session)
                }
                return
            }
            if let bytes = standing(only, committed: committed, rolledBack: rolledBack) {
                if case .attach(_, _, let scene) = only { session.dropHeldPush(of: scene) }
                write(bytes, to: session)
                return
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(byteCount(of: replies))
        for reply in replies {
            switch reply {
            case .fixed(let bytes):
                output += bytes
            case .read(let bytes, let id, let scene):
                output += rolledBack.contains(scene) ? unansweredRead(id: id, scene: scene) : bytes
            case .change(let range, let id, _):
                if committed { output += replies.changeReplyBytes[range] } else { output += storageFailure(id: id) }
            case .readStaged(let bytes, let id, let what):
                output += committed ? bytes : unansweredStagedRead(id: id, what: what)
            case .attach(let bytes, let id, let scene):
                // A rolled-back attach was undone with the turn (`rollBack`).
                if rolledBack.contains(scene) {
                    output += unansweredRead(id: id, scene: scene)
                } else {
                    // The answer supersedes a push of its scene held back for this client
                    // (coalescing): released after it, that older push would go back a revision.
                    session.dropHeldPush(of: scene)
                    output += bytes
                }
            case .push(let scene, let revision, let bytes):
                guard committed, session.attachments[scene] != nil else { continue }
                stats.pushes += 1
                // Held while earlier ones are (a reload may have switched to `queue`): in order.
                if !session.heldPushes.isEmpty
                    || (settings.coalescesSlowReaderPushes
                        && session.connection.queuedBytes + output.count > settings.outputSoftLimit)
                {
                    if session.heldPushes[scene] != nil { stats.coalescedPushes += 1 }
                    session.hold(scene: scene, push: PendingPush(revision: revision, bytes: bytes))
                } else {
                    output += bytes
                }
            case .notice(let bytes):
                if committed { output += bytes }
            case .close(let reason):
                write(output, to: session)
                output = []
                session.connection.closeAfterWrites(reason: reason)
                return
            }
        }
        write(output, to: session)
    }

    /// Cluster mode: a turn whose commit stored every scene but those of `failed`. A change
    /// of a scene certainly not applied is answered `unavailable`, a read of it is not
    /// answered either (its state was rolled back), and its pushes are dropped; a change
    /// whose outcome is unknown is neither acknowledged nor failed: the connection closes
    /// without its answer (the client reads the scene again on reconnecting).
    private func deliver(_ replies: Turn.ConnectionReplies, to session: ClientSession, failed: [String: SceneFailure]) {
        var output: [UInt8] = []
        func unavailable(_ id: RequestID, _ scene: String, _ why: String) -> [UInt8] {
            stats.count(error: .unavailable)
            return Notices.error(
                id: id, code: .unavailable,
                message: "scene '\(scene)' could not be stored in etcd (\(why)); not applied, retry")
        }
        for reply in replies {
            switch reply {
            case .fixed(let bytes), .notice(let bytes):
                output += bytes
            case .readStaged(let bytes, let id, let what):
                if let first = failed.first, case .unavailable(let why) = first.value {
                    stats.count(error: .unavailable)
                    output += Notices.error(
                        id: id, code: .unavailable,
                        message:
                            "\(what) could not be read consistently: scene '\(first.key)' could not be stored (\(why)); retry"
                    )
                } else {
                    output += bytes
                }
            case .read(let bytes, let id, let scene), .attach(let bytes, let id, let scene):
                switch failed[scene] {
                case nil:
                    if case .attach = reply { session.dropHeldPush(of: scene) }
                    output += bytes
                case .unavailable(let why)?: output += unavailable(id, scene, why)
                case .indeterminate?:
                    write(output, to: session)
                    session.connection.closeAfterWrites(reason: "outcome of a change to '\(scene)' unknown")
                    return
                }
            case .change(let range, let id, let scene):
                switch scene.flatMap({ failed[$0] }) {
                case nil: output += replies.changeReplyBytes[range]
                case .unavailable(let why)?: output += unavailable(id, scene ?? "", why)
                case .indeterminate?:
                    write(output, to: session)
                    session.connection.closeAfterWrites(reason: "outcome of a change to '\(scene ?? "")' unknown")
                    return
                }
            case .push(let scene, let revision, let bytes):
                guard failed[scene] == nil, session.attachments[scene] != nil else { continue }
                stats.pushes += 1
                if !session.heldPushes.isEmpty {
                    session.hold(scene: scene, push: PendingPush(revision: revision, bytes: bytes))
                } else {
                    output += bytes
                }
            case .close(let reason):
                write(output, to: session)
                session.connection.closeAfterWrites(reason: reason)
                return
            }
        }
        write(output, to: session)
    }

    /// The bytes of a reply written as staged whatever the client's state, or nil if it
    /// needs `deliver`'s rules (pushes, notices, closes, refused reads and changes).
    private func standing(_ reply: Turn.Reply, committed: Bool, rolledBack: Set<String>) -> [UInt8]? {
        switch reply {
        case .fixed(let bytes): bytes
        case .readStaged(let bytes, _, _): committed ? bytes : nil
        // Written from the turn's buffer by the caller.
        case .change: nil
        case .read(let bytes, _, let scene), .attach(let bytes, _, let scene): rolledBack.contains(scene) ? nil : bytes
        case .push, .notice, .close: nil
        }
    }

    /// Bytes `replies` hold as staged: the capacity of the turn's output for one client.
    private func byteCount(of replies: Turn.ConnectionReplies) -> Int {
        var total = 0
        for reply in replies {
            switch reply {
            case .fixed(let bytes), .read(let bytes, _, _), .attach(let bytes, _, _),
                .readStaged(let bytes, _, _), .push(_, _, let bytes), .notice(let bytes):
                total += bytes.count
            case .change(let range, _, _):
                total += range.count
            case .close:
                break
            }
        }
        return total
    }

    private func storageFailure(id: RequestID) -> [UInt8] {
        stats.count(error: .storage)
        return Notices.error(
            id: id, code: .storage,
            message: "the database refused the change (\(lastStorageError ?? "unknown error")); it was not applied")
    }

    private func unansweredRead(id: RequestID, scene: String) -> [UInt8] {
        stats.count(error: .storage)
        return Notices.error(
            id: id, code: .storage,
            message: "scene '\(scene)' changed in the same turn and that change could not be stored; retry")
    }

    private func unansweredStagedRead(id: RequestID, what: String) -> [UInt8] {
        stats.count(error: .storage)
        return Notices.error(
            id: id, code: .storage,
            message:
                "\(what) could not be read consistently: a change in the same turn could not be stored (\(lastStorageError ?? "unknown error")); nothing was changed; retry"
        )
    }

    /// Writes one turn's output with one write; a client past the hard limit is dropped.
    func write(_ bytes: [UInt8], to session: ClientSession) {
        bytes.withUnsafeBytes { write($0, to: session) }
    }

    func write(_ bytes: UnsafeRawBufferPointer, to session: ClientSession) {
        guard !bytes.isEmpty, session.connection.isOpen else { return }
        session.connection.write(bytes)
        stats.bytesOut += bytes.count
        let queued = session.connection.queuedBytes
        if queued > settings.outputHardLimit {
            stats.slowClientsDisconnected += 1
            logger.warning(
                "connection \(session.id): \(queued) bytes of output not read (limit \(settings.outputHardLimit)); disconnecting the slow client"
            )
            session.connection.close(reason: "output limit exceeded: client does not read")
            return
        }
        // Only a write that queued something can take the total past its limit.
        if queued > 0 || session.accountedOutput > 0 {
            sessions.accountOutput(of: session)
            enforceTotalOutputLimit()
        }
    }

    /// A slow client caught up: write the newest held push of each scene.
    func releaseHeldPushes(of session: ClientSession) {
        let held = session.takeHeldPushes()
        write(held.flatMap(\.bytes), to: session)
    }
}
