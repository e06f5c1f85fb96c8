import SplitCore
import SplitSettings
import SplitWire

/// The ops of protocol 1 without their parameters: where a request's entry is in `Op.table`.
enum Op: Int, CaseIterable, Sendable {
    case hello, sceneCreate, sceneGet, sceneList, sceneDelete, sceneAttach, sceneDetach
    case resize, intent, snapshot, snapshotList, snapshotGet, stats, ping, devices, explain, sweep
    case sceneAt

    /// `borrowing`: an initializer takes its arguments owned, and the dispatcher would copy
    /// the request's op (its payloads retained, then released) only to read its case.
    init(_ operation: borrowing Request.Operation) {
        switch operation {
        case .hello: self = .hello
        case .sceneCreate: self = .sceneCreate
        case .sceneGet: self = .sceneGet
        case .sceneList: self = .sceneList
        case .sceneDelete: self = .sceneDelete
        case .sceneAttach: self = .sceneAttach
        case .sceneDetach: self = .sceneDetach
        case .resize, .command(_, .resize, _), .command(_, .change(.resize), _): self = .resize
        case .intent, .command: self = .intent
        case .snapshot: self = .snapshot
        case .snapshotList: self = .snapshotList
        case .snapshotGet: self = .snapshotGet
        case .stats: self = .stats
        case .ping: self = .ping
        case .devices: self = .devices
        case .explain: self = .explain
        case .sweep: self = .sweep
        case .sceneAt: self = .sceneAt
        }
    }

    var entry: OpEntry { Op.table[rawValue] }

    /// What the dispatcher reads of the entry for every request (`OpRoute`).
    var route: OpRoute { Op.routes[rawValue] }
}

/// How an op's reply depends on the turn's commit, as its entry declares it
/// (`Server.ReplyKind` once the request's scene is known).
enum OpReplyKind: Sendable {
    /// Stands whatever happens (no scene read).
    case fixed
    /// Reads the request's scene: refused if a change to it this turn is rolled back.
    case readsScene
    /// Changes the request's scene: refused if the commit fails. A change that changed
    /// nothing (a resize to the current size) reads the scene instead.
    case changesScene
    /// Records something besides scenes (a snapshot session): refused if the commit fails.
    case records
    /// Attaches to the request's scene: like `readsScene`, and undone on failure.
    case attachesScene
    /// Chosen per request: the handler returns it with the reply.
    case perRequest
}

/// What an op's handler leaves to the dispatcher. The replies are boxed (`indirect`): the
/// answer of a change, which stages its own reply, is then one word instead of a `Reply`'s
/// size, which each request's answer would be copied at.
enum OpAnswer {
    /// Encoded and staged as the entry's reply kind.
    indirect case reply(Reply)
    /// Encoded and staged as `kind`: the answer of a `.perRequest` entry.
    indirect case replyAs(Reply, Server.ReplyKind)
    /// The handler staged its reply itself, as the entry's kind says: a change writes its
    /// reply once into the turn's reply buffer (`Server.change`), and a deleted scene's
    /// notices follow the deleter's reply.
    case staged
}

/// One op as the daemon runs it, after tmux's `cmd_entry`: its wire name, how its
/// parameters are read, how its reply depends on the turn's commit, and what it does.
struct OpEntry: Sendable {
    typealias Handler = @Sendable (Server, Request, ClientSession) throws(WireError) -> OpAnswer

    let op: Op
    let name: String
    let decoder: OpDecoder
    let reply: OpReplyKind
    /// Runs the request; only ever given a request of `op` (`Op.init` picked the entry).
    let handle: Handler

    init(_ op: Op, _ name: String, decoder: OpDecoder, reply: OpReplyKind, handle: @escaping Handler) {
        self.op = op
        self.name = name
        self.decoder = decoder
        self.reply = reply
        self.handle = handle
    }
}

/// The two fields of an entry that every request reads: how its reply depends on the commit
/// and its handler. A copy of a whole `OpEntry` goes through the entry's value witness and
/// retains each of its references (name, decoder, handler), to release them after; a route
/// is a closure and a byte. A struct rather than an array of bare closures, which would
/// store them at the most general abstraction and call each through a reabstraction thunk.
struct OpRoute: Sendable {
    let reply: OpReplyKind
    let handle: OpEntry.Handler
}

/// A request given to another op's entry: `Op.init` makes this impossible.
private func misrouted(_ request: Request, to op: Op) -> WireError {
    WireError(.internal, "op '\(request.op.name)' was routed to the entry of \(op)")
}

extension Op {
    /// Every op of the daemon, each at its `rawValue`, in the order the unknown-op error lists
    /// them. The request decoder is built from it (`Server.requestDecoder`).
    static let table: [OpEntry] = [
        OpEntry(.hello, "hello", decoder: .hello, reply: .fixed) { server, request, session throws(WireError) in
            guard case let .hello(version, client) = request.op else { throw misrouted(request, to: .hello) }
            guard version == 1 else {
                throw WireError(.versionMismatch, "protocol \(version) is not supported; this server speaks protocol 1")
            }
            session.announcedProtocol = version
            session.clientName = client
            return .reply(
                .hello(protocol: 1, server: "splitd \(SplitdVersion.current)", features: server.features))
        },
        OpEntry(.sceneCreate, "scene.create", decoder: .sceneCreate, reply: .changesScene) {
            server, request, session throws(WireError) in
            guard case let .sceneCreate(scene, device, size, config) = request.op else {
                throw misrouted(request, to: .sceneCreate)
            }
            return .reply(try server.createScene(scene, device: device, size: size, config: config))
        },
        OpEntry(.sceneGet, "scene.get", decoder: .sceneGet, reply: .readsScene) {
            server, request, _ throws(WireError) in
            guard case let .sceneGet(scene) = request.op else { throw misrouted(request, to: .sceneGet) }
            return .reply(try server.getScene(scene))
        },
        OpEntry(.sceneList, "scene.list", decoder: .sceneList, reply: .perRequest) { server, _, _ throws(WireError) in
            let (reply, kind) = server.listScenes()
            return .replyAs(reply, kind)
        },
        OpEntry(.sceneDelete, "scene.delete", decoder: .sceneDelete, reply: .changesScene) {
            server, request, session throws(WireError) in
            guard case let .sceneDelete(scene) = request.op else { throw misrouted(request, to: .sceneDelete) }
            try server.deleteScene(id: request.id, scene: scene, from: session)
            return .staged
        },
        OpEntry(.sceneAttach, "scene.attach", decoder: .sceneAttach, reply: .attachesScene) {
            server, request, session throws(WireError) in
            guard case let .sceneAttach(scene, role, size, notices) = request.op else {
                throw misrouted(request, to: .sceneAttach)
            }
            let attachRole = AttachRole(role)
            return .reply(try server.attachScene(scene, role: attachRole, size: size, notices: notices, from: session))
        },
        OpEntry(.sceneDetach, "scene.detach", decoder: .sceneDetach, reply: .perRequest) {
            server, request, session throws(WireError) in
            guard case let .sceneDetach(scene) = request.op else { throw misrouted(request, to: .sceneDetach) }
            return .replyAs(.empty, try server.detachScene(scene, from: session))
        },
        OpEntry(.resize, "resize", decoder: .resize, reply: .changesScene) {
            server, request, session throws(WireError) in
            if case let .command(scene, command, baseRevision) = request.op {
                try server.applyCommand(
                    id: request.id, scene: scene, command: command, baseRevision: baseRevision, from: session)
                return .staged
            }
            guard case let .resize(scene, size, baseRevision) = request.op else {
                throw misrouted(request, to: .resize)
            }
            try server.resize(id: request.id, scene: scene, size: size, baseRevision: baseRevision, from: session)
            return .staged
        },
        OpEntry(.intent, "intent", decoder: .intent, reply: .changesScene) {
            server, request, session throws(WireError) in
            if case let .command(scene, command, baseRevision) = request.op {
                try server.applyCommand(
                    id: request.id, scene: scene, command: command, baseRevision: baseRevision, from: session)
                return .staged
            }
            guard case let .intent(scene, intent, baseRevision) = request.op else {
                throw misrouted(request, to: .intent)
            }
            try server.applyIntent(
                id: request.id, scene: scene, intent: intent, baseRevision: baseRevision,
                from: session)
            return .staged
        },
        OpEntry(.snapshot, "snapshot", decoder: .snapshot, reply: .records) { server, request, _ throws(WireError) in
            guard case let .snapshot(scene, target) = request.op else { throw misrouted(request, to: .snapshot) }
            return .reply(try server.snapshot(scene, target: target))
        },
        OpEntry(.snapshotList, "snapshot.list", decoder: .snapshotList, reply: .perRequest) {
            server, request, _ throws(WireError) in
            guard case let .snapshotList(scene) = request.op else { throw misrouted(request, to: .snapshotList) }
            let (reply, kind) = try server.listSnapshots(scene)
            return .replyAs(reply, kind)
        },
        OpEntry(.snapshotGet, "snapshot.get", decoder: .snapshotGet, reply: .perRequest) {
            server, request, _ throws(WireError) in
            guard case let .snapshotGet(sessionID) = request.op else { throw misrouted(request, to: .snapshotGet) }
            let (reply, kind) = try server.getSnapshot(sessionID)
            return .replyAs(reply, kind)
        },
        OpEntry(.stats, "stats", decoder: .stats, reply: .fixed) { server, _, _ throws(WireError) in
            .reply(.fields(server.statsObject()))
        },
        OpEntry(.ping, "ping", decoder: .ping, reply: .fixed) { _, _, _ throws(WireError) in
            .reply(.fields(["pong": true]))
        },
        OpEntry(.devices, "devices", decoder: .devices, reply: .fixed) { server, _, _ throws(WireError) in
            let catalog = server.engine.catalog
            return .reply(.devices(catalog.deviceNames.map { DeviceListing(device: $0, catalog: catalog) }))
        },
        OpEntry(.explain, "explain", decoder: .explain, reply: .readsScene) { server, request, _ throws(WireError) in
            guard case let .explain(scene) = request.op else { throw misrouted(request, to: .explain) }
            return .reply(try server.explainScene(scene))
        },
        OpEntry(.sweep, "sweep", decoder: .sweep, reply: .perRequest) { server, request, session throws(WireError) in
            guard case let .sweep(sweep) = request.op else { throw misrouted(request, to: .sweep) }
            guard let (reply, kind) = try server.sweep(sweep, id: request.id, from: session) else { return .staged }
            return .replyAs(reply, kind)
        },
        OpEntry(.sceneAt, "scene.at", decoder: .sceneAt, reply: .readsScene) { server, request, _ throws(WireError) in
            guard case let .sceneAt(scene, revision) = request.op else { throw misrouted(request, to: .sceneAt) }
            return .reply(try server.sceneAt(scene, revision: revision))
        },
    ]

    /// Each entry's route, at its op's `rawValue`.
    static let routes: [OpRoute] = table.map { OpRoute(reply: $0.reply, handle: $0.handle) }
}
