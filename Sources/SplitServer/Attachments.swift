import SplitCore

// Which connections are attached to which scenes (tmux's client <-> session links).
extension Server {
    /// Forgets `session`'s attachment to `scene` (no size recomputation).
    @discardableResult
    func removeAttachment(of session: ClientSession, from scene: String) -> Attachment? {
        session.attachments.removeValue(forKey: scene)
        let removed = attachments[scene]?.removeValue(forKey: session.id)
        if attachments[scene]?.isEmpty == true { attachments.removeValue(forKey: scene) }
        if latestSizeSource[scene] == session.id { latestSizeSource.removeValue(forKey: scene) }
        return removed
    }

    /// A client went away: every attachment goes, and scenes it was a window of recompute
    /// their size.
    func detachAll(_ session: ClientSession) {
        for scene in session.attachments.keys.sorted() {
            let wasLatest = latestSizeSource[scene] == session.id
            guard let removed = removeAttachment(of: session, from: scene) else { continue }
            if removed.role == .window {
                windowLeft(scene: scene, wasLatestSource: wasLatest)
            }
        }
    }

    /// Recomputes a scene's size after a window left (filled in with the size policies).
    func windowLeft(scene: String, wasLatestSource: Bool) {}
}
