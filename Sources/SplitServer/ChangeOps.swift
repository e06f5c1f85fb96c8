import SplitCore
import SplitLoop
import SplitStore
import SplitWire

// resize / intent (their entries: `Op.table`), and the path every accepted change takes:
// engine -> memory -> turn -> response -> pushes.
extension Server {
    /// `interfaceOrientation`: stated by the request (revision 2), else by the rule.
    func resize(
        id: RequestID, scene: String, size: Size, interfaceOrientation: Orientation? = nil, baseRevision: Int?,
        from session: ClientSession
    ) throws(WireError) {
        // Reads only the revision and policy: `apply` is the one place that takes the scene.
        let (index, policy) = try currentPolicy(of: scene, baseRevision: baseRevision)
        // One lookup: whether anyone is attached spares `change` hashing the id again. The
        // scene's attachments are not held past this line (the window's update below would copy them).
        let (attachment, anyoneAttached) =
            sessions.attachments[scene].map { ($0[session.id], !$0.isEmpty) } ?? (nil, false)
        guard SceneSizing.acceptsResize(policy, from: attachment?.role) else {
            throw WireError(
                .badRequest,
                "scene '\(scene)' follows sizePolicy \(policy.rawValue): only a client attached as a window may resize it"
            )
        }
        var target = size
        // What the resize changes besides the scene is put back if the change is refused, and
        // kept for the turn's rollback (`storage`): it must not count as the window's size.
        let latestBefore = sessions.latestSizeSource[scene]
        if attachment?.role == .window {
            noteAttachmentsBeforeChange(of: scene)
            sessions.attachments[scene]?[session.id]?.size = size
            sessions.attachments[scene]?[session.id]?.reportedAt = nextSizeReport()
            if let aggregate = SceneSizing.aggregate(policy, windows: sessions.windows(of: scene)) {
                target = aggregate
            }
        }
        // Looked up before written: the same client resizing again is the common case.
        if policy == .latest, latestBefore != session.id {
            noteAttachmentsBeforeChange(of: scene)
            sessions.latestSizeSource[scene] = session.id
        }
        do {
            let command: SceneCommand =
                interfaceOrientation.map { .resize(target, interfaceOrientation: $0) } ?? .change(.resize(target))
            try change(scene, at: index, by: command, id: id, from: session, mayHaveAttachments: anyoneAttached)
        } catch {
            if attachment?.role == .window { sessions.attachments[scene]?[session.id] = attachment }
            sessions.latestSizeSource[scene] = latestBefore
            throw error
        }
    }

    func applyIntent(
        id: RequestID, scene: String, intent: Intent, baseRevision: Int?,
        from session: ClientSession
    ) throws(WireError) {
        let (index, policy) = try currentPolicy(of: scene, baseRevision: baseRevision)
        try checkViewControllerIDs(of: intent)
        // A new sizePolicy takes effect now (SEMANTICS 9), in the same change: the answer
        // already has the size of the attached windows under it, one revision later.
        var sceneChange = SceneChange.intent(intent)
        if case .setConfig(let patch) = intent, let after = patch.sizePolicy, after != policy,
            let target = SceneSizing.aggregate(after, windows: sessions.windows(of: scene)),
            target != scenes.size(at: index)
        {
            sceneChange = .reconfigure(patch, size: target)
        }
        try change(scene, at: index, by: .change(sceneChange), id: id, from: session)
    }

    /// A `resize` or `intent` of revision 2's forms (`Request.Operation.command`).
    func applyCommand(
        id: RequestID, scene: String, command: SceneCommand, baseRevision: Int?,
        from session: ClientSession
    ) throws(WireError) {
        switch command {
        case .resize(let size, let held):
            try resize(
                id: id, scene: scene, size: size, interfaceOrientation: held, baseRevision: baseRevision,
                from: session)
        case .change(.intent(let intent)):
            try applyIntent(id: id, scene: scene, intent: intent, baseRevision: baseRevision, from: session)
        case .change(.resize(let size)):
            try resize(id: id, scene: scene, size: size, baseRevision: baseRevision, from: session)
        default:
            let (index, _) = try currentPolicy(of: scene, baseRevision: baseRevision)
            if case .present(let request) = command {
                try checkViewControllerIDs(of: .present(vc: request.vc, style: .pageSheet))
            }
            if case .inspector(.push(let vc)) = command {
                try checkViewControllerIDs(of: .push(column: .primary, vc: vc))
            }
            try change(scene, at: index, by: command, id: id, from: session)
        }
    }

    /// Where the scene is in `scenes` and its sizePolicy, once it is known to exist
    /// (`unknown_scene`) at `baseRevision` when one is given (`conflict`), without copying
    /// the scene. The index stays valid until a scene is added or removed: the change passes
    /// it on rather than hashing the id again.
    private func currentPolicy(of scene: String, baseRevision: Int?) throws(WireError) -> (Scenes.Index, SizePolicy) {
        guard let index = scenes.index(of: scene) else { throw WireError(.unknownScene, "no scene '\(scene)'") }
        let (revision, policy) = scenes.revisionAndPolicy(at: index)
        if let baseRevision, baseRevision != revision {
            // A revision ahead of the scene is not stale: it names one that does not exist yet.
            let what = baseRevision < revision ? "is stale" : "is ahead of the scene"
            throw WireError(
                .conflict, "baseRevision \(baseRevision) \(what): scene '\(scene)' is at revision \(revision)")
        }
        return (index, policy)
    }

    /// Applies `change` and answers `revision`, `layout`, `events`; a no-op answers the
    /// current revision with no events and stores nothing.
    private func change(
        _ scene: String, at index: Scenes.Index, by change: SceneCommand, id: RequestID,
        from session: ClientSession, mayHaveAttachments: Bool = true
    ) throws(WireError) {
        var transition = try scenes.transition(change, of: scene, at: index)
        var journaled = change
        if let session = recordBackgroundSession(of: &transition, scene: scene),
            case .activation(let state, _) = change
        {
            journaled = .activation(state, backgroundSession: session)
        }
        // The response is written once, into the turn's reply buffer; a push copies its fields
        // only if someone is attached. Both before `recordChange` reuses the writer.
        let fields = WireEncoder.writeChangeResponse(
            id: id, revision: transition.state.revision,
            layout: transition.layout, events: transition.events, revision2Events: transition.revision2Events,
            into: &scratchWriter)
        guard transition.changed else {
            stage(scratchWriter.bytes, id: id, to: session, as: .read(scene))
            return
        }
        let range = scratchWriter.withBytes { turn.appendChangeReply($0) }
        var push: ChangeFields?
        if mayHaveAttachments, let attached = sessions.attachments[scene], !attached.isEmpty {
            push = scratchWriter.withBytes { ChangeFields(encoded: UnsafeRawBufferPointer(rebasing: $0[fields])) }
        }
        recordChange(consume transition, as: JournalRecord(journaled), at: index)
        stage(.change(range, id: id, scene: scene), for: session)
        if let push { broadcast(scene: scene, fields: push) }
    }

    /// The app-switcher session a change entering `background` ran (SEMANTICS 10) is
    /// recorded in this turn like a `snapshot` op's, under the next session id, which its
    /// `snapshotTaken` event then names. Answers that id; nil for any other change.
    private func recordBackgroundSession(of transition: inout Transition, scene: String) -> String? {
        guard let result = transition.backgroundSnapshot else { return nil }
        let sessionID = recordSession(result, of: scene).session
        for index in transition.revision2Events.indices {
            if case .snapshotTaken = transition.revision2Events[index].event {
                transition.revision2Events[index].event = .snapshotTaken(session: sessionID)
            }
        }
        return sessionID
    }

    /// Runs the engine on the live scene; an accepted change is recorded in the turn (the
    /// change as applied is what the journal keeps).
    func apply(_ change: SceneChange, to scene: String) throws(WireError) -> (fields: ChangeFields, changed: Bool) {
        let transition = try scenes.transition(.change(change), of: scene)
        let fields = ChangeFields(
            revision: transition.state.revision, layout: transition.layout, events: transition.events,
            revision2Events: transition.revision2Events)
        let changed = transition.changed
        if changed { recordChange(consume transition, as: .change(change)) }
        return (fields, changed)
    }

    /// Stages the layout push of a new revision for every client attached to `scene`.
    func broadcast(scene: String, fields: ChangeFields, excluding excluded: Connection.ID? = nil) {
        guard let attached = sessions.attachments[scene], !attached.isEmpty else { return }
        var push: [UInt8] = []
        WireEncoder.appendLayoutPush(scene: scene, change: fields, to: &push)
        let revision = scenes[scene]?.state.revision ?? 0
        for connection in attached.keys where connection != excluded {
            guard let client = sessions[connection], !client.isClosing else { continue }
            stage(.push(scene: scene, revision: revision, bytes: push), for: client)
        }
    }
}
