import SplitCore
import SplitWire

// scene.attach / scene.detach (their entries: `Op.table`) and disconnects: which clients see
// which scenes, and how their windows size the scene (tmux's client <-> session links and
// resize.c).
extension Server {
    /// Attaches `session`; returns its reply, which the dispatcher stages after the pushes
    /// staged here for the other clients (the attacher is not pushed its own new revision).
    func attachScene(
        _ scene: String, role: AttachRole, size: Size?, notices: AttachNotices = [],
        from session: ClientSession
    ) throws(WireError) -> Reply {
        let live = try liveScene(scene)
        let reportedAt = size == nil ? 0 : nextSizeReport()
        noteAttachmentsBeforeChange(of: scene)
        let previous = sessions.attachments[scene]?[session.id]
        let keptSize = size == nil ? previous?.size : size
        sessions.attachments[scene, default: [:]][session.id] = Attachment(
            role: role, size: keptSize,
            reportedAt: size == nil ? previous?.reportedAt ?? 0 : reportedAt,
            notices: notices)
        session.attachments[scene] = role

        var target: Size?
        let policy = live.state.config.sizePolicy
        if role == .viewer, previous?.role == .window {
            // A window that became a viewer no longer counts.
            target = SceneSizing.aggregate(policy, windows: sessions.windows(of: scene))
        } else if role == .window {
            switch policy {
            case .latest:
                if let size {
                    target = size
                    sessions.latestSizeSource[scene] = session.id
                }
            case .largest, .smallest:
                target = SceneSizing.aggregate(policy, windows: sessions.windows(of: scene))
            case .manual:
                break
            }
        }
        var fields: ChangeFields?
        if let target, target != live.state.size {
            do {
                let outcome = try apply(.resize(target), to: scene)
                if outcome.changed { fields = outcome.fields }
            } catch {
                restoreAttachment(previous, of: session, to: scene)
                throw error
            }
        }
        let current = scenes[scene]!
        let reply: Reply =
            fields.map { .attachedChange(scene: scene, change: $0) }
            ?? .attached(scene: scene, revision: current.state.revision, layout: current.layout)
        // The attaching client gets this revision in its response: pushes start after it.
        if let fields { broadcast(scene: scene, fields: fields, excluding: session.id) }
        return reply
    }

    /// Detaches `session`; returns how its reply (empty) depends on the commit.
    func detachScene(_ scene: String, from session: ClientSession) throws(WireError) -> ReplyKind {
        _ = try liveScene(scene)
        let wasLatest = sessions.latestSizeSource[scene] == session.id
        guard session.attachments[scene] != nil else { return .fixed }
        noteAttachmentsBeforeChange(of: scene)
        let removed = sessions.removeAttachment(of: session, from: scene)
        session.heldPushes.removeValue(forKey: scene)
        let changed = removed?.role == .window && windowLeft(scene: scene, wasLatestSource: wasLatest)
        // Unchanged, it still reads the scene's attachments: if another change of the scene
        // this turn is rolled back, so is the detach (and it is answered as not done).
        return changed ? .change(scene) : .read(scene)
    }

    /// Keeps the scene's attachments as they are now for a rollback of this turn, unless the
    /// turn kept them already (the earliest state is the one to put back).
    func noteAttachmentsBeforeChange(of scene: String) {
        guard turn.attachmentsBefore[scene] == nil else { return }
        turn.attachmentsBefore[scene] = sessions.snapshot(of: scene)
    }

    /// Retries the resizes of scenes whose window left during a turn whose commit failed
    /// (once a second, so that a store still failing is not retried in a busy loop).
    func retryWindowLeftResizes() {
        guard phase == .running, sessions.hasWindowLeftResizesToRetry else { return }
        for (scene, leaverWasLatest) in sessions.takeWindowLeftResizesToRetry() {
            windowLeft(scene: scene, wasLatestSource: leaverWasLatest)
        }
    }

    private func restoreAttachment(_ previous: Attachment?, of session: ClientSession, to scene: String) {
        if let previous {
            sessions.attachments[scene, default: [:]][session.id] = previous
            session.attachments[scene] = previous.role
        } else {
            sessions.removeAttachment(of: session, from: scene)
        }
    }

    /// A client went away: every attachment goes, and scenes it was a window of recompute
    /// their size, unless the daemon is stopping: the clients it closes then leave every
    /// scene at the last revision they were told about (WIRE: a restart is back at the last
    /// acknowledged revision), not at a resize nobody would hear of.
    func detachAll(_ session: ClientSession) {
        for scene in session.attachments.keys.sorted() {
            let wasLatest = sessions.latestSizeSource[scene] == session.id
            noteAttachmentsBeforeChange(of: scene)
            guard let removed = sessions.removeAttachment(of: session, from: scene) else { continue }
            if removed.role == .window, phase == .running {
                windowLeft(scene: scene, wasLatestSource: wasLatest)
            }
        }
    }

    /// Recomputes a scene's size after one of its windows left; true if the size changed
    /// (a new revision, stored and pushed like any change).
    @discardableResult
    func windowLeft(scene: String, wasLatestSource: Bool) -> Bool {
        guard let live = scenes[scene] else { return false }
        let remaining = sessions.windows(of: scene)
        guard
            let target = SceneSizing.afterWindowLeft(
                live.state.config.sizePolicy, remaining: remaining,
                leaverWasLatest: wasLatestSource),
            target != live.state.size
        else { return false }
        noteAttachmentsBeforeChange(of: scene)
        turn.windowLeftResizes[scene] = (turn.windowLeftResizes[scene] ?? false) || wasLatestSource
        if live.state.config.sizePolicy == .latest,
            let newest = (sessions.attachments[scene] ?? [:]).filter({
                $0.value.role == .window && $0.value.size == target
            })
            .max(by: { $0.value.reportedAt < $1.value.reportedAt })
        {
            sessions.latestSizeSource[scene] = newest.key
        }
        return resizeOnItsOwn(scene: scene, to: target, cause: "windowLeft")
    }

    /// A resize the daemon makes itself: stored, journaled as the resize it applied and
    /// pushed to every attached client like any change.
    private func resizeOnItsOwn(scene: String, to target: Size, cause: String) -> Bool {
        guard let outcome = try? apply(.resize(target), to: scene), outcome.changed else { return false }
        logger.debug("scene '\(scene)' resized to \(target) by the daemon (\(cause))")
        broadcast(scene: scene, fields: outcome.fields)
        return true
    }
}
