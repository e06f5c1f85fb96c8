import SplitCore
import SplitStore
import SplitWire

// Cluster mode on the loop: which node serves a request's scene, the local copy of a scene
// another node changed, `owner` in replies and `stats.cluster`.
extension Server {
    /// Where a request on a scene runs in cluster mode.
    enum ClusterRoute {
        /// Here: this node owns the scene, or the request only reads it.
        case local
        /// On the owning node, forwarded to it (`Forwarding.swift`).
        case forward(owner: String)
    }

    /// Before a request of `entry` on `scene` runs: a change needs this node to own the scene
    /// (it takes it when nobody does, replacing its local copy with what etcd holds) or is
    /// forwarded to the node that does; a read of a scene owned elsewhere is answered from
    /// etcd's current copy. `unavailable` when etcd does not answer.
    func claimInCluster(
        _ scene: String, for entry: OpEntry, from session: ClientSession
    ) throws(WireError) -> ClusterRoute {
        guard let cluster else { return .local }
        let take: Bool
        switch entry.reply {
        case .readsScene, .fixed, .perRequest: take = false
        case .changesScene, .records, .attachesScene: take = true
        }
        // A scene followed here whose owner is known (the watch says when it goes): no etcd
        // read before forwarding.
        if take, entry.reply != .attachesScene, session.answering == nil, scenes[scene] != nil,
            let owner = knownOwners[scene]
        {
            return .forward(owner: owner)
        }
        switch cluster.claim(scene, take: take) {
        case .owned:
            return .local
        case .acquired(let record):
            adopt(scene, record, owned: true)
            logger.info(
                "cluster: node \(cluster.node) now owns scene '\(scene)' at revision \(scenes[scene]?.state.revision ?? 0)"
            )
            runForwarded(record.forwarded, scene: scene)
            claimedByRequest = scene
            return .local
        case .ownedElsewhere(let node, let record):
            // A copy followed here is kept: the watch brings each revision in order, and
            // replacing it with etcd's newer one would skip the pushes in between.
            if scenes[scene] == nil { adopt(scene, record, owned: false) }
            knownOwners[scene] = node
            // An attach changes the scene only with a window's size: one that changes
            // nothing follows the owner's revisions here (a change it makes is refused at
            // commit, `unavailable`).
            guard !take || entry.reply == .attachesScene else {
                // A request forwarded to this node, which lost the scene since, is not sent on:
                // its sender takes it back when nobody answers.
                if let node, session.answering == nil { return .forward(owner: node) }
                stats.count(error: .unavailable)
                throw WireError(
                    .unavailable,
                    node.map {
                        "scene '\(scene)' is owned by node '\($0)', which this node could not forward it to; retry"
                    } ?? "scene '\(scene)' has no owner right now; retry")
            }
            return .local
        case .unreachable(let why):
            stats.count(error: .unavailable)
            throw WireError(.unavailable, "etcd cannot be reached (\(why)); nothing was applied, retry")
        }
    }

    /// Runs the forwarded requests a taking read found in the scene's inbox, oldest first.
    private func runForwarded(_ pending: [ForwardedRequest], scene: String) {
        for forwarded in pending { runForwarded(forwarded, scene: scene) }
    }

    /// Replaces the local copy of `scene` with what etcd holds (checkpoint + journal
    /// replayed, layout digests checked), or removes it when etcd holds none; clients
    /// attached here get the full layout when the revision moved. A copy already at etcd's
    /// revision is kept. A scene this node does not own is never checkpointed by it.
    @discardableResult
    func adopt(_ scene: String, _ record: ClusterSceneRecord, owned: Bool) -> Bool {
        guard let checkpoint = record.checkpoint else {
            if record.journal.isEmpty, scenes[scene] != nil, !turn.changedSceneIDs.contains(scene) {
                removeFollowedScene(scene)
            }
            return false
        }
        let head = record.journal.last.map { Int($0.revision) } ?? Int(checkpoint.revision)
        if var live = scenes[scene], live.state.revision == head {
            live.checkpointRevision = owned ? Int(checkpoint.revision) : head
            scenes[scene] = live
            return false
        }
        switch SceneRestore.restore(
            checkpoint, tail: ArraySlice(record.journal), engine: SceneRestore.permissive(engine))
        {
        case .success(let restored):
            var live = restored.live
            if !owned { live.checkpointRevision = live.state.revision }
            scenes[scene] = live
            broadcast(
                scene: scene, fields: ChangeFields(revision: live.state.revision, layout: live.layout, events: []))
            return true
        case .failure(let error):
            logger.error("cluster: scene '\(scene)' in etcd cannot be replayed, local copy kept: \(error)")
            return false
        }
    }

    /// Another node's changes, from the watch (on the loop): each journal record of a scene
    /// this node has a copy of and does not own is applied with the engine (its layout
    /// digest checked) and pushed to the clients attached here with the owner's revision; a
    /// gap or a record that does not replay reads the scene again. When an owner is gone, a
    /// node with clients of the scene takes it.
    func applyClusterEvents(_ events: [ClusterEvent]) {
        guard let cluster else { return }
        // Answers first, as a local change's reply is staged before its pushes; their clients
        // are read again only once the records of the same response are applied (below), so
        // that nothing they send next sees an older copy.
        var answered: [ClientSession] = []
        for case .answered(let request, let reply) in events {
            if let session = stageAnswer(to: request, reply) { answered.append(session) }
        }
        defer { for session in answered { resumeParked(session) } }
        // A stop waits for the answers to requests forwarded from here, and takes nothing else.
        guard phase == .running else { return }
        for event in events {
            switch event {
            case .journal(let entry):
                guard !cluster.holds(entry.scene), let live = scenes[entry.scene] else { continue }
                let revision = Int(entry.revision)
                if revision <= live.state.revision { continue }
                guard revision == live.state.revision + 1,
                    case .success(let transition) = SceneRestore.replay(
                        entry, on: live.state, engine: SceneRestore.permissive(engine))
                else {
                    resyncFollowedScene(entry.scene)
                    continue
                }
                var next = live
                next.state = transition.state
                next.layout = transition.layout
                next.checkpointRevision = transition.state.revision
                next.revisionAtLastSweep = transition.state.revision
                scenes[entry.scene] = next
                stats.clusterChangesFollowed += 1
                broadcast(
                    scene: entry.scene,
                    fields: ChangeFields(
                        revision: transition.state.revision, layout: transition.layout, events: transition.events))
            case .checkpoint(let stored):
                guard !cluster.holds(stored.id) else { continue }
                if let live = scenes[stored.id], live.state.revision >= Int(stored.revision) { continue }
                _ = adopt(stored.id, ClusterSceneRecord(checkpoint: stored, journal: []), owned: false)
            case .sceneDeleted(let scene):
                knownOwners[scene] = nil
                guard !cluster.holds(scene), scenes[scene] != nil, !turn.changedSceneIDs.contains(scene) else {
                    continue
                }
                removeFollowedScene(scene)
            case .ownerGone(let scene):
                knownOwners[scene] = nil
                guard !cluster.holds(scene), sessions.attachments[scene]?.isEmpty == false else { continue }
                takeOver(scene)
            case .resync:
                for scene in sessions.attachments.keys.sorted() where !cluster.holds(scene) {
                    resyncFollowedScene(scene)
                }
            case .forwarded(let scene, let forwarded, let at):
                // One put before this node took the scene was consumed by an earlier owner or
                // came with the record it read then.
                guard let since = cluster.ownedSince(scene), at > since else { continue }
                runForwarded(forwarded, scene: scene)
            case .answered:
                continue
            }
        }
    }

    /// Reads a followed scene again from etcd (a gap, a compaction, a record that did not
    /// replay) and resends its full layout when it moved.
    private func resyncFollowedScene(_ scene: String) {
        guard let cluster else { return }
        stats.clusterResyncs += 1
        switch cluster.claim(scene, take: false) {
        case .owned: return
        case .acquired(let record), .ownedElsewhere(_, let record): adopt(scene, record, owned: cluster.holds(scene))
        case .unreachable(let why): logger.warning("cluster: cannot read scene '\(scene)' again: \(why)")
        }
    }

    /// The owner of a scene with clients here is gone: take it, replay checkpoint + journal,
    /// continue at the next revision.
    private func takeOver(_ scene: String) {
        guard let cluster else { return }
        switch cluster.claim(scene, take: true) {
        case .owned:
            return
        case .acquired(let record):
            adopt(scene, record, owned: true)
            stats.clusterTakeovers += 1
            runForwarded(record.forwarded, scene: scene)
            logger.notice(
                "cluster: the owner of scene '\(scene)' is gone; node \(cluster.node) took it over at revision \(scenes[scene]?.state.revision ?? 0)"
            )
        case .ownedElsewhere(_, let record):
            adopt(scene, record, owned: false)
        case .unreachable(let why):
            logger.warning("cluster: cannot take over scene '\(scene)': \(why)")
        }
    }

    /// A scene deleted by another node: the local copy goes, its clients are detached
    /// (with the `deleted` notice when they asked for it).
    private func removeFollowedScene(_ scene: String) {
        guard let live = scenes.remove(scene) else { return }
        detachAll(from: scene, notice: Notices.deleted(scene: scene, revision: live.state.revision))
    }

    /// A scene's `owner` member in cluster mode.
    func ownerMember(of scene: String) -> Owner {
        guard let cluster else { return .notClustered }
        return .node(cluster.owner(of: scene))
    }

    /// `stats.cluster`: the node, its etcd endpoints and watch, and counters of its work.
    func clusterStats() -> JSONValue? {
        guard let cluster else { return nil }
        let watch = cluster.watchStatus
        return .object(
            JSONObject([
                JSONMember(key: "node", value: .string(cluster.node)),
                JSONMember(key: "endpoints", value: .array(cluster.endpoints.map { .string($0) })),
                JSONMember(key: "ownedScenes", value: .int(Int64(cluster.ownedScenes))),
                JSONMember(key: "leaderReachable", value: .bool(cluster.leaderReachable())),
                JSONMember(key: "watching", value: .bool(watch.open)),
                JSONMember(key: "watchReopened", value: .int(Int64(watch.reopened))),
                JSONMember(key: "changesFollowed", value: .int(Int64(stats.clusterChangesFollowed))),
                JSONMember(key: "resyncs", value: .int(Int64(stats.clusterResyncs))),
                JSONMember(key: "takeovers", value: .int(Int64(stats.clusterTakeovers))),
                JSONMember(key: "forwarded", value: .int(Int64(stats.clusterForwarded))),
                JSONMember(key: "forwardsRun", value: .int(Int64(stats.clusterForwardsRun))),
                JSONMember(key: "forwardsWithdrawn", value: .int(Int64(stats.clusterForwardsWithdrawn))),
            ]))
    }
}
