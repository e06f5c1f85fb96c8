import SplitCore
import SplitWire

// Request line -> op entry (`Op.table`) -> its handler. Every request gets exactly one reply,
// staged in the turn in request order; replies that depend on the turn's commit wait for it
// (see `Turn.Reply`).
extension Server {
    func handle(line: UnsafeRawBufferPointer, from session: ClientSession) {
        let request: Request
        do {
            request = try requestDecoder.decode(line)
        } catch {
            reply(error: error.error, id: error.id, to: session)
            return
        }
        // The op's route, not its whole entry (`OpRoute`); the entry only for a cluster claim.
        let op = Op(request.op)
        let route = op.route
        do {
            if cluster != nil, let scene = request.op.scene,
                case .forward(let owner) = try claimInCluster(scene, for: op.entry, from: session)
            {
                return forward(line, scene: scene, owner: owner, id: request.id, from: session)
            }
            switch try route.handle(self, request, session) {
            case .staged:
                break
            case .reply(let reply):
                respond(reply, id: request.id, to: session, as: replyKind(op, route.reply, of: request))
            case .replyAs(let reply, let kind):
                respond(reply, id: request.id, to: session, as: kind)
            }
        } catch {
            reply(error: error, id: request.id, to: session)
            // A scene taken for a request that failed and left no scene (a refused
            // `scene.create`) is given up, not held until the node's lease ends.
            if let claimed = claimedByRequest, scenes[claimed] == nil, !turn.changedSceneIDs.contains(claimed) {
                cluster?.release(claimed)
            }
        }
        claimedByRequest = nil
    }

    /// The kind `op`'s entry declares (`declared`), for this request's scene. Only an entry
    /// whose kind names a scene may answer `.reply(_)` for an op with a scene, and a
    /// `.perRequest` one never does.
    private func replyKind(_ op: Op, _ declared: OpReplyKind, of request: Request) -> ReplyKind {
        let scene = request.op.scene
        switch declared {
        case .fixed: return .fixed
        case .records: return .change(nil)
        case .changesScene: return .change(scene)
        case .readsScene: if let scene { return .read(scene) }
        case .attachesScene: if let scene { return .attach(scene) }
        case .perRequest: break
        }
        preconditionFailure("op table: the reply of '\(op.entry.name)' has no kind")
    }

    /// How a reply depends on the turn's commit.
    enum ReplyKind {
        /// Stands whatever happens (no scene read, or an error).
        case fixed
        /// Reads this scene: refused if a change to it this turn is rolled back.
        case read(String)
        /// Reports a change: refused if the commit fails.
        case change(String?)
        /// Attaches to this scene: like `read`, and undone on failure.
        case attach(String)
        /// Reads `what` as this turn staged it (uncommitted): refused if the commit fails.
        case readStaged(String)
    }

    func respond(_ reply: Reply, id: RequestID, to session: ClientSession, as kind: ReplyKind) {
        var bytes: [UInt8] = []
        WireEncoder.appendResponse(id: id, reply: reply, to: &bytes)
        stage(bytes, id: id, to: session, as: kind)
    }

    func stage(_ bytes: [UInt8], id: RequestID, to session: ClientSession, as kind: ReplyKind) {
        switch kind {
        case .fixed: stage(.fixed(bytes), for: session)
        case .read(let scene): stage(.read(bytes, id: id, scene: scene), for: session)
        case .change(let scene):
            let range = bytes.withUnsafeBytes { turn.appendChangeReply($0) }
            stage(.change(range, id: id, scene: scene), for: session)
        case .attach(let scene): stage(.attach(bytes, id: id, scene: scene), for: session)
        case .readStaged(let what): stage(.readStaged(bytes, id: id, what: what), for: session)
        }
    }

    func reply(error: WireError, id: RequestID?, to session: ClientSession) {
        stats.count(error: error.code)
        stage(.fixed(Notices.error(id: id, code: error.code, message: error.message)), for: session)
    }

    /// The live scene `id`, or `unknown_scene`.
    func liveScene(_ id: String) throws(WireError) -> LiveScene {
        guard let live = scenes[id] else { throw WireError(.unknownScene, "no scene '\(id)'") }
        return live
    }
}

extension AttachRole {
    init(_ role: ClientRole) {
        switch role {
        case .window: self = .window
        case .viewer: self = .viewer
        }
    }
}
