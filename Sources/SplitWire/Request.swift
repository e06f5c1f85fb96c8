import SplitCore

/// One decoded request line: `{"id": ..., "op": ..., ...params}`.
public struct Request: Hashable, Sendable {
    public var id: RequestID
    public var op: Operation

    public init(id: RequestID, op: Operation) {
        self.id = id
        self.op = op
    }
}

/// Notices besides layout pushes that a client asks for when it attaches (`scene.attach`
/// `notices`, ours): WIRE.md's pushes are layout pushes only, so a client that does not ask
/// gets nothing else.
public struct AttachNotices: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `{"event":"deleted","scene":...,"revision":N}` when the scene is deleted.
    public static let deleted = AttachNotices(rawValue: 1)

    /// The wire names, in the order they are written.
    public static let names: [(name: String, notice: AttachNotices)] = [("deleted", .deleted)]
}

/// How a client attached to a scene counts for its size (SEMANTICS 9).
public enum ClientRole: String, Hashable, Sendable, CaseIterable {
    /// Its size counts for the scene's `sizePolicy`.
    case window
    /// Watches only.
    case viewer
}

/// What a snapshot session renders: explicit sizes or a named preset (`appSwitcher`,
/// `portrait/1/3`...).
public enum SnapshotTarget: Hashable, Sendable {
    case sizes([Size])
    case preset(String)
}

extension Request {
    /// Every op of protocol 1 (WIRE.md) with its decoded, validated parameters, plus our
    /// additions `ping` and `devices`.
    ///
    /// Nested in `Request` so it never clashes with Foundation's `Operation`.
    public enum Operation: Hashable, Sendable {
        /// `client` is informational and may be absent.
        case hello(protocol: Int, client: String?)
        /// Boxed, like `intent`: a config patch is hundreds of bytes, which every `Request`
        /// would otherwise carry and copy.
        indirect case sceneCreate(scene: String, device: String, size: Size?, config: SplitConfigPatch?)
        case sceneGet(scene: String)
        case sceneList
        case sceneDelete(scene: String)
        case sceneAttach(scene: String, role: ClientRole, size: Size?, notices: AttachNotices = [])
        case sceneDetach(scene: String)
        case resize(scene: String, size: Size, baseRevision: Int?)
        indirect case intent(scene: String, intent: Intent, baseRevision: Int?)
        /// A `resize` or `intent` of revision 2's forms (`SceneCommand` other than
        /// `.change`): a resize stating `interfaceOrientation`, a `present` with revision 2's
        /// fields, an intent naming the inspector, `activation`.
        indirect case command(scene: String, command: SceneCommand, baseRevision: Int?)
        case snapshot(scene: String, target: SnapshotTarget)
        case snapshotList(scene: String)
        /// A session id as `snapshot` reported it (an integer id is accepted and kept as its
        /// decimal text).
        case snapshotGet(session: String)
        case stats
        /// Ours: answers `{"ok": true}` at once; a liveness probe that touches no scene.
        case ping
        /// Ours: the device profiles and rule sets a scene can use.
        case devices
        /// The decisions behind a scene's layout (WIRE.md "Explain and sweep"). Reads only.
        case explain(scene: String)
        /// A scene as it was at a past revision, rebuilt from the stored history (WIRE.md
        /// "Explain and sweep"). Reads only.
        case sceneAt(scene: String, revision: Int)
        /// The breakpoints of a scene's or an inline device's layout (WIRE.md "Explain and
        /// sweep"). Reads only.
        indirect case sweep(SweepRequest)

        /// The wire name of the op.
        public var name: String {
            switch self {
            case .hello: "hello"
            case .sceneCreate: "scene.create"
            case .sceneGet: "scene.get"
            case .sceneList: "scene.list"
            case .sceneDelete: "scene.delete"
            case .sceneAttach: "scene.attach"
            case .sceneDetach: "scene.detach"
            case .resize: "resize"
            case .intent: "intent"
            case .command(_, .resize, _), .command(_, .change(.resize), _): "resize"
            case .command: "intent"
            case .snapshot: "snapshot"
            case .snapshotList: "snapshot.list"
            case .snapshotGet: "snapshot.get"
            case .stats: "stats"
            case .ping: "ping"
            case .devices: "devices"
            case .explain: "explain"
            case .sceneAt: "scene.at"
            case .sweep: "sweep"
            }
        }

        /// Every op name this codec understands.
        public static let allNames: [String] = OpDecoder.protocol1.map { $0.name }

        /// The scene the op addresses, if any.
        public var scene: String? {
            switch self {
            case let .sceneCreate(scene, _, _, _), let .sceneGet(scene), let .sceneDelete(scene),
                let .sceneAttach(scene, _, _, _), let .sceneDetach(scene), let .resize(scene, _, _),
                let .intent(scene, _, _), let .command(scene, _, _), let .snapshot(scene, _), let .snapshotList(scene),
                let .explain(scene), let .sceneAt(scene, _):
                scene
            case let .sweep(request):
                if case let .scene(scene) = request.source { scene } else { nil }
            case .hello, .sceneList, .snapshotGet, .stats, .ping, .devices:
                nil
            }
        }

        /// True for ops that may change a scene (their response waits for the commit).
        public var isMutation: Bool {
            switch self {
            case .sceneCreate, .sceneDelete, .sceneAttach, .sceneDetach, .resize, .intent, .command, .snapshot: true
            case .hello, .sceneGet, .sceneList, .snapshotList, .snapshotGet, .stats, .ping, .devices, .explain, .sweep,
                .sceneAt:
                false
            }
        }
    }
}
