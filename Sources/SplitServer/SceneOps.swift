import SplitCore
import SplitWire

// scene.create / scene.get / scene.list / scene.delete (their entries: `Op.table`).
extension Server {
    func createScene(_ scene: String, device: String, size: Size?, config: SplitConfigPatch?) throws(WireError) -> Reply
    {
        try checkNewSceneID(scene)
        try checkViewControllerIDs(of: config)
        guard scenes[scene] == nil else { throw WireError(.sceneExists, "scene '\(scene)' already exists") }
        guard scenes.count < settings.maxScenes else {
            throw WireError(.limitExceeded, "too many scenes (limit \(settings.maxScenes))")
        }
        let state: SceneState
        do {
            state = try engine.createScene(id: scene, device: device, size: size, config: config)
        } catch {
            throw WireError(error)
        }
        let layout = engine.layout(of: state)
        record(state, layout: layout, as: .created)
        return .scene(scene: scene, revision: state.revision, layout: layout)
    }

    func getScene(_ scene: String) throws(WireError) -> Reply {
        let live = try liveScene(scene)
        // In the declaration order of SceneState's Codable conformance (Foundation's encoder
        // orders members by hash, differently in each process).
        let state: JSONValue
        do {
            state = try JSONParser.parse(SceneBlob.encode(live.state))
        } catch {
            throw WireError(.internal, "cannot encode scene '\(scene)': \(error)")
        }
        return .sceneDetail(
            scene: scene, revision: live.state.revision, layout: live.layout, state: state,
            owner: ownerMember(of: scene))
    }

    func listScenes() -> (Reply, ReplyKind) {
        let owners = cluster.map { $0.owners() ?? [:] }
        let listings = scenes.ids.sorted().map { key in
            let state = scenes[key]!.state
            return SceneListing(
                scene: key, revision: state.revision, device: state.device,
                owner: owners.map { .node($0[key]) } ?? .notClustered)
        }
        // Depends on every scene changed this turn: answered once they are stored.
        return (.sceneList(listings), !turn.changedScenesVisibly ? .fixed : .readStaged("the scene list"))
    }

    func deleteScene(id: RequestID, scene: String, from session: ClientSession) throws(WireError) {
        let live = try liveScene(scene)
        turn.remember(scene: scene, before: live)
        scenes.remove(scene)
        turn.batch.deleteScene(id: scene)
        stats.changes += 1
        respond(.empty, id: id, to: session, as: .change(scene))
        // Attached clients are detached; those that asked for the notice learn it after the
        // deleter's response.
        let notice = Notices.deleted(scene: scene, revision: live.state.revision)
        if sessions.attachments[scene] != nil || sessions.latestSizeSource[scene] != nil {
            noteAttachmentsBeforeChange(of: scene)
        }
        detachAll(from: scene, notice: notice)
    }

    /// Detaches every client of a deleted scene; those that asked for the `deleted` notice are
    /// staged `notice`.
    func detachAll(from scene: String, notice: [UInt8]) {
        let attached = sessions.attachments.removeValue(forKey: scene) ?? [:]
        sessions.latestSizeSource.removeValue(forKey: scene)
        for connection in attached.keys.sorted() {
            guard let client = sessions[connection] else { continue }
            client.attachments.removeValue(forKey: scene)
            client.heldPushes.removeValue(forKey: scene)
            if attached[connection]?.notices.contains(.deleted) == true { stage(.notice(notice), for: client) }
        }
    }
}
