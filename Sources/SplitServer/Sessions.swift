import SplitLoop
import SplitCore

/// The connected clients and what links them to scenes (tmux's client <-> session links):
/// the sessions by connection, each scene's attachments and `latest` size source, and the
/// count of the clients' unwritten output that `output.totalLimitBytes` chooses from.
struct Sessions {
    private var byID: [Connection.ID: ClientSession] = [:]
    private var nextID: Connection.ID = 1
    /// scene -> attached connections.
    var attachments: [String: [Connection.ID: Attachment]] = [:]
    /// scene -> the connection whose size the scene shows under the `latest` policy.
    var latestSizeSource: [String: Connection.ID] = [:]
    /// Unwritten output of all clients, as last counted per client (`accountOutput`), and the
    /// clients that have some.
    private(set) var queuedOutputTotal = 0
    private var withQueuedOutput: [Connection.ID: ClientSession] = [:]
    /// Output dropped with closed connections since the allocator last returned memory.
    var droppedOutputSinceTrim = 0
    /// Scenes a window left during a turn whose commit failed, and whether that window was
    /// the scene's `latest` size source: the window is gone whatever the commit did, so the
    /// scene's size is recomputed later (`Server.retryWindowLeftResizes`).
    private var windowLeftResizesToRetry: [String: Bool] = [:]

    subscript(id: Connection.ID) -> ClientSession? { byID[id] }

    var count: Int { byID.count }

    var isEmpty: Bool { byID.isEmpty }

    var all: Dictionary<Connection.ID, ClientSession>.Values { byID.values }

    /// The id of the next connection accepted.
    mutating func takeNextID() -> Connection.ID {
        defer { nextID += 1 }
        return nextID
    }

    mutating func add(_ session: ClientSession) { byID[session.id] = session }

    /// Forgets a closed connection's session (its attachments stay: `Server.detachAll`).
    mutating func remove(_ id: Connection.ID) -> ClientSession? { byID.removeValue(forKey: id) }

    // MARK: Attachments

    var attachmentCount: Int { attachments.values.reduce(0) { $0 + $1.count } }

    /// The attached windows of `scene` that reported a size.
    func windows(of scene: String) -> [SceneSizing.Window] {
        (attachments[scene] ?? [:]).values.compactMap { attachment in
            guard attachment.role == .window, let size = attachment.size else { return nil }
            return SceneSizing.Window(size: size, reportedAt: attachment.reportedAt)
        }
    }

    /// The scene's attachments as they are now, for a rollback.
    func snapshot(of scene: String) -> AttachmentSnapshot {
        AttachmentSnapshot(attachments: attachments[scene] ?? [:], latestSizeSource: latestSizeSource[scene])
    }

    /// Puts a scene's attachments back as they were (a failed commit): for the clients still
    /// connected, and none at all if the scene itself was rolled back out of existence.
    mutating func restore(attachmentsOf scene: String, to before: AttachmentSnapshot, sceneExists: Bool) {
        let kept = sceneExists ? before.attachments.filter { byID[$0.key] != nil } : [:]
        for id in (attachments[scene] ?? [:]).keys where kept[id] == nil {
            byID[id]?.attachments.removeValue(forKey: scene)
        }
        for (id, attachment) in kept { byID[id]?.attachments[scene] = attachment.role }
        attachments[scene] = kept.isEmpty ? nil : kept
        latestSizeSource[scene] = before.latestSizeSource.flatMap { kept[$0] != nil ? $0 : nil }
    }

    /// Forgets `session`'s attachment to `scene` (no size recomputation).
    @discardableResult
    mutating func removeAttachment(of session: ClientSession, from scene: String) -> Attachment? {
        session.attachments.removeValue(forKey: scene)
        let removed = attachments[scene]?.removeValue(forKey: session.id)
        if attachments[scene]?.isEmpty == true { attachments.removeValue(forKey: scene) }
        if latestSizeSource[scene] == session.id { latestSizeSource.removeValue(forKey: scene) }
        return removed
    }

    /// Keeps a scene whose window left in a turn whose commit failed, for a later resize.
    mutating func retryWindowLeftResize(of scene: String, leaverWasLatest: Bool) {
        windowLeftResizesToRetry[scene] = (windowLeftResizesToRetry[scene] ?? false) || leaverWasLatest
    }

    var hasWindowLeftResizesToRetry: Bool { !windowLeftResizesToRetry.isEmpty }

    /// The scenes kept by `retryWindowLeftResize`, in id order, forgotten here: a retry that
    /// fails again keeps its scene anew.
    mutating func takeWindowLeftResizesToRetry() -> [(scene: String, leaverWasLatest: Bool)] {
        defer { windowLeftResizesToRetry.removeAll() }
        return windowLeftResizesToRetry.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    // MARK: Output

    /// Brings `queuedOutputTotal` up to date with `session`'s unwritten output: after a write
    /// queued some, after libuv finished one, and when the connection closed (then 0).
    mutating func accountOutput(of session: ClientSession) {
        let queued = session.connection.queuedBytes
        guard queued != session.accountedOutput else { return }
        queuedOutputTotal += queued - session.accountedOutput
        session.accountedOutput = queued
        if queued == 0 {
            withQueuedOutput.removeValue(forKey: session.id)
        } else {
            withQueuedOutput[session.id] = session
        }
    }

    /// Counts every client with unwritten output afresh: libuv shrinks a queue on partial
    /// writes without a callback.
    mutating func recountQueuedOutput() {
        for session in Array(withQueuedOutput.values) { accountOutput(of: session) }
    }

    /// The client holding the most unwritten output (the lowest id among equals), if any.
    func holdingMostOutput() -> ClientSession? {
        withQueuedOutput.values.max(by: { ($0.accountedOutput, $1.id) < ($1.accountedOutput, $0.id) })
    }

    /// Whether `id` is still counted with unwritten output.
    func countsQueuedOutput(of id: Connection.ID) -> Bool { withQueuedOutput[id] != nil }
}
