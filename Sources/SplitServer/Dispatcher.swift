import SplitCore
import SplitSettings
import SplitWire

// Request line -> op handler. Every request gets exactly one reply, staged in the turn in
// request order; replies that depend on the turn's commit wait for it (see `Turn.Reply`).
extension Server {
    func handle(line: UnsafeRawBufferPointer, from session: ClientSession) {
        let request: Request
        do {
            request = try RequestDecoder.decode(line)
        } catch {
            reply(error: error.error, id: error.id, to: session)
            return
        }
        do {
            try perform(request, from: session)
        } catch {
            reply(error: error, id: request.id, to: session)
        }
    }

    private func perform(_ request: Request, from session: ClientSession) throws(WireError) {
        let id = request.id
        switch request.op {
        case let .hello(version, client):
            try hello(id: id, version: version, client: client, from: session)
        case .ping:
            respond(.fields(["pong": true]), id: id, to: session, as: .fixed)
        case let .sceneCreate(scene, device, size, config):
            try createScene(id: id, scene: scene, device: device, size: size, config: config, from: session)
        case let .sceneGet(scene):
            try getScene(id: id, scene: scene, from: session)
        case .sceneList:
            listScenes(id: id, from: session)
        case let .sceneDelete(scene):
            try deleteScene(id: id, scene: scene, from: session)
        case let .sceneAttach(scene, role, size, notices):
            try attachScene(id: id, scene: scene, role: AttachRole(role), size: size, notices: notices, from: session)
        case let .sceneDetach(scene):
            try detachScene(id: id, scene: scene, from: session)
        case let .resize(scene, size, baseRevision):
            try resize(id: id, scene: scene, size: size, baseRevision: baseRevision, from: session)
        case let .intent(scene, intent, baseRevision):
            try applyIntent(id: id, scene: scene, intent: intent, baseRevision: baseRevision, from: session)
        case let .snapshot(scene, target):
            try snapshot(id: id, scene: scene, target: target, from: session)
        case let .snapshotList(scene):
            try listSnapshots(id: id, scene: scene, from: session)
        case let .snapshotGet(sessionID):
            try getSnapshot(id: id, session: sessionID, from: session)
        case .stats:
            respond(.fields(statsObject()), id: id, to: session, as: .fixed)
        case .devices:
            let listings = engine.catalog.deviceNames.map { DeviceListing(device: $0, catalog: engine.catalog) }
            respond(.devices(listings), id: id, to: session, as: .fixed)
        }
    }

    private func hello(id: RequestID, version: Int, client: String?, from session: ClientSession) throws(WireError) {
        guard version == 1 else {
            throw WireError(.versionMismatch, "protocol \(version) is not supported; this server speaks protocol 1")
        }
        session.announcedProtocol = version
        session.clientName = client
        respond(.hello(protocol: 1, server: "splitd \(SplitdVersion.current)"), id: id, to: session, as: .fixed)
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
