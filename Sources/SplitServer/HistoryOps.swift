import SplitCore
import SplitStore
import SplitWire

// `scene.at` (WIRE.md "Explain and sweep"): a scene as it was at a past revision, rebuilt
// from the store's history (the newest checkpoint at or below it and the journal entries
// above that, replayed by the engine as a restart would, each layout checked against the
// digest acknowledged with it). Reads only: no revision, no event, nothing stored. The
// replay's work is bounded by the history the store keeps (`database.historyRevisions` plus
// a checkpoint interval).
extension Server {
    func sceneAt(_ scene: String, revision: Int) throws(WireError) -> Reply {
        let live = try liveScene(scene)
        let current = live.state.revision
        guard revision <= current else {
            throw WireError.badRequest(
                "field 'revision': scene '\(scene)' is at revision \(current); \(revision) has not happened")
        }
        if revision == current { return try Self.sceneDetail(scene, state: live.state, layout: live.layout) }
        guard cluster == nil, store.keepsHistory else {
            throw WireError.badRequest(
                "scene.at is not supported in cluster mode (the cluster's store keeps no history); "
                    + "only the current revision \(current) can be read")
        }
        let history: SceneHistory
        do {
            history = try store.history(scene: scene, revision: Int64(revision))
        } catch {
            throw WireError(.storage, "cannot read the history of scene '\(scene)': \(error)")
        }
        switch history {
        case .unknownScene:
            throw WireError.badRequest("scene '\(scene)' at revision \(revision) is not stored yet; retry")
        case .pruned(let oldest):
            throw WireError.badRequest(
                "field 'revision': revision \(revision) of scene '\(scene)' is no longer kept; "
                    + "the oldest kept is \(oldest) (database.historyRevisions)")
        case .replay(let checkpoint, let entries):
            guard entries.last.map({ $0.revision == Int64(revision) }) ?? (checkpoint.revision == Int64(revision))
            else {
                throw WireError.badRequest("scene '\(scene)' at revision \(revision) is not stored yet; retry")
            }
            switch SceneRestore.restore(checkpoint, tail: entries[...], engine: SceneRestore.permissive(engine)) {
            case .success(let restored) where restored.live.state.revision == revision:
                return try Self.sceneDetail(scene, state: restored.live.state, layout: restored.live.layout)
            case .success(let restored):
                throw WireError(
                    .internal,
                    "rebuilding scene '\(scene)' at revision \(revision) gave revision \(restored.live.state.revision)")
            case .failure(let error):
                throw WireError(.internal, "cannot rebuild scene '\(scene)' at revision \(revision): \(error)")
            }
        }
    }

    /// `scene.get`'s fields for a state and its layout.
    static func sceneDetail(_ scene: String, state: SceneState, layout: Layout) throws(WireError) -> Reply {
        let encoded: JSONValue
        do {
            encoded = try JSONParser.parse(SceneBlob.encode(state))
        } catch {
            throw WireError(.internal, "cannot encode scene '\(scene)': \(error)")
        }
        return .sceneDetail(scene: scene, revision: state.revision, layout: layout, state: encoded)
    }
}
