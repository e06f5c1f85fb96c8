import SplitCore

/// The result fields of a successful response, one case per op family (WIRE.md "Ops").
public enum Reply: Hashable, Sendable {
    /// `hello`: `protocol`, `server`, and `features` (revision 2: the optional capabilities
    /// the daemon has) when not empty.
    case hello(protocol: Int, server: String, features: [String] = [])
    /// `scene.create`: `scene`, `revision`, `layout`.
    case scene(scene: String, revision: Int, layout: Layout)
    /// `scene.attach` that changed nothing: `scene`, `revision`, `layout`, `"events": []`.
    case attached(scene: String, revision: Int, layout: Layout)
    /// `scene.attach` whose window size made a new revision: `scene` and that change's
    /// `revision`, `layout` and `events` (a client already attached gets no push of the
    /// revision, so the answer carries what the push would).
    case attachedChange(scene: String, change: ChangeFields)
    /// `scene.get`: `scene`, `revision`, `layout`, `state` (the scene state as stored:
    /// `SceneStateCodec`'s JSON), and in cluster mode `owner` (the node applying its changes;
    /// `null` while nobody owns it).
    case sceneDetail(scene: String, revision: Int, layout: Layout, state: JSONValue, owner: Owner = .notClustered)
    /// `scene.list`: `scenes`.
    case sceneList([SceneListing])
    /// `resize`, `intent`: `revision`, `layout`, `events` (`[]` for a no-op).
    case change(revision: Int, layout: Layout, events: [SceneEvent])
    /// `snapshot`, `snapshot.get`: `session` and `hash` when recorded, `baseRevision`,
    /// `snapshots`, `roundTrip`.
    case snapshot(SnapshotRecord)
    /// `snapshot.list`: `sessions`.
    case snapshotSessions([SnapshotListing])
    /// `stats`: one member per counter, in name order.
    case stats([String: Int64])
    /// `devices`: `devices`.
    case devices([DeviceListing])
    /// `scene.delete`, `scene.detach`, `ping`: no result fields.
    case empty
    /// Any other result: these members follow `"ok": true`.
    case fields(JSONObject)
}

/// A scene's `owner` member (cluster mode only).
public enum Owner: Hashable, Sendable {
    /// Single host: no `owner` member.
    case notClustered
    /// `"owner": "node"`, or `null` while nobody owns the scene.
    case node(String?)
}

/// One entry of `scene.list`.
public struct SceneListing: Hashable, Sendable {
    public var scene: String
    public var revision: Int
    public var device: String
    public var owner: Owner

    public init(scene: String, revision: Int, device: String, owner: Owner = .notClustered) {
        self.scene = scene
        self.revision = revision
        self.device = device
        self.owner = owner
    }
}

/// A snapshot session as `snapshot` returns it and `snapshot.get` replays it.
public struct SnapshotRecord: Hashable, Sendable {
    /// nil when the session was not recorded.
    public var session: String?
    public var scene: String?
    /// Content hash of the recorded session.
    public var hash: String?
    public var result: SnapshotResult

    public init(session: String? = nil, scene: String? = nil, hash: String? = nil, result: SnapshotResult) {
        self.session = session
        self.scene = scene
        self.hash = hash
        self.result = result
    }
}

/// One entry of `snapshot.list`.
public struct SnapshotListing: Hashable, Sendable {
    public var session: String
    public var baseRevision: Int
    public var sizes: [Size]
    public var hash: String

    public init(session: String, baseRevision: Int, sizes: [Size], hash: String) {
        self.session = session
        self.baseRevision = baseRevision
        self.sizes = sizes
        self.hash = hash
    }
}

/// One entry of `devices`: a device profile (with its default size and multitasking
/// presets) or a rule set (neither).
public struct DeviceListing: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case profile, ruleSet
    }

    public var device: String
    public var kind: Kind
    public var defaultSize: Size?
    public var presets: [NamedSize]

    public init(device: String, kind: Kind, defaultSize: Size?, presets: [NamedSize]) {
        self.device = device
        self.kind = kind
        self.defaultSize = defaultSize
        self.presets = presets
    }

    /// The listing of `device` in `catalog`: a profile iff it has a default size.
    public init(device: String, catalog: DeviceCatalog) {
        let defaultSize = catalog.defaultSize(device: device)
        self.init(
            device: device, kind: defaultSize == nil ? .ruleSet : .profile,
            defaultSize: defaultSize, presets: catalog.presets(device: device))
    }
}
