import SplitCore
import SplitWire

/// Typed helpers, one per op of WIRE.md. Each sends the request, waits for its response and
/// throws `.server(code, message)` for an error response.
extension SplitConnection {
    /// The protocol version this client speaks.
    public static let protocolVersion = 1

    /// `hello`: answers the result (`protocol`, `server`).
    @discardableResult
    public func hello(
        client: String = "SplitClient", protocolVersion: Int = SplitConnection.protocolVersion
    ) throws(ClientError) -> JSONValue {
        try call("hello", ["protocol": .int(Int64(protocolVersion)), "client": .string(client)])
    }

    @discardableResult
    public func ping() throws(ClientError) -> JSONValue { try call("ping") }

    /// `scene.create`. `config` is a WIRE.md config object (or nil for the defaults).
    @discardableResult
    public func createScene(
        _ scene: String, device: String, size: Size? = nil, config: JSONValue? = nil
    ) throws(ClientError) -> SceneReply {
        var params: JSONObject = ["scene": .string(scene), "device": .string(device)]
        if let size { params["size"] = size.wireObject }
        if let config { params["config"] = config }
        return try SceneReply(decoding: try call("scene.create", params))
    }

    /// `scene.get`; the reply's `raw` also holds `state`.
    public func getScene(_ scene: String) throws(ClientError) -> SceneReply {
        try SceneReply(decoding: try call("scene.get", ["scene": .string(scene)]))
    }

    /// `scene.at`: the scene as it was at `revision` (its layout and state then).
    public func sceneAt(_ scene: String, revision: Int) throws(ClientError) -> SceneReply {
        try SceneReply(decoding: try call("scene.at", ["scene": .string(scene), "revision": .int(Int64(revision))]))
    }

    public func listScenes() throws(ClientError) -> [SceneSummary] {
        let result = try call("scene.list")
        let entries = try field(result, "scenes", \.array)
        var summaries: [SceneSummary] = []
        for entry in entries { summaries.append(try SceneSummary(decoding: entry)) }
        return summaries
    }

    public func deleteScene(_ scene: String) throws(ClientError) {
        try call("scene.delete", ["scene": .string(scene)])
    }

    /// `scene.attach`: the full current layout; pushes follow from revision + 1. `notices`:
    /// what else to be told (`.deleted`: a notice when the scene is deleted).
    @discardableResult
    public func attach(
        _ scene: String, role: AttachRole = .window, size: Size? = nil,
        notices: AttachNotices = []
    ) throws(ClientError) -> SceneReply {
        var params: JSONObject = ["scene": .string(scene), "role": .string(role.rawValue)]
        if let size { params["size"] = size.wireObject }
        if !notices.isEmpty {
            params["notices"] = .array(
                AttachNotices.names.filter { notices.contains($0.notice) }.map { .string($0.name) })
        }
        return try SceneReply(decoding: try call("scene.attach", params))
    }

    public func detach(_ scene: String) throws(ClientError) {
        try call("scene.detach", ["scene": .string(scene)])
    }

    @discardableResult
    public func resize(
        _ scene: String, to size: Size, interfaceOrientation: Orientation? = nil, baseRevision: Int? = nil
    ) throws(ClientError) -> ChangeReply {
        var params: JSONObject = [
            "scene": .string(scene), "width": .double(size.width), "height": .double(size.height),
        ]
        if let interfaceOrientation { params["interfaceOrientation"] = .string(interfaceOrientation.rawValue) }
        if let baseRevision { params["baseRevision"] = .int(Int64(baseRevision)) }
        return try ChangeReply(decoding: try call("resize", params))
    }

    /// `intent` with a raw intent object (`{"kind": ..., ...}`).
    @discardableResult
    public func intent(
        _ scene: String, _ intent: JSONValue, baseRevision: Int? = nil
    ) throws(ClientError) -> ChangeReply {
        var params: JSONObject = ["scene": .string(scene), "intent": intent]
        if let baseRevision { params["baseRevision"] = .int(Int64(baseRevision)) }
        return try ChangeReply(decoding: try call("intent", params))
    }

    @discardableResult
    public func intent(_ scene: String, _ intent: Intent, baseRevision: Int? = nil) throws(ClientError) -> ChangeReply {
        try self.intent(scene, intent.wireObject, baseRevision: baseRevision)
    }

    /// `intent` of revision 2's forms (`SceneCommand`; a resize has no intent object).
    @discardableResult
    public func intent(
        _ scene: String, _ command: SceneCommand, baseRevision: Int? = nil
    ) throws(ClientError) -> ChangeReply {
        try self.intent(scene, command.wireObject, baseRevision: baseRevision)
    }

    /// `snapshot` on explicit sizes: answers the result (`baseRevision`, `snapshots`, `roundTrip`, ...).
    public func snapshot(_ scene: String, sizes: [Size]) throws(ClientError) -> JSONValue {
        try call("snapshot", ["scene": .string(scene), "sizes": .array(sizes.map(\.wireObject))])
    }

    /// `snapshot` on a named preset such as `appSwitcher`.
    public func snapshot(_ scene: String, preset: String) throws(ClientError) -> JSONValue {
        try call("snapshot", ["scene": .string(scene), "preset": .string(preset)])
    }

    /// `snapshot.list`: the recorded sessions of `scene`.
    public func snapshotSessions(_ scene: String) throws(ClientError) -> [JSONValue] {
        try field(try call("snapshot.list", ["scene": .string(scene)]), "sessions", \.array)
    }

    /// `snapshot.get`: a recorded session, as `snapshot` returned it.
    public func snapshotSession(_ session: JSONValue) throws(ClientError) -> JSONValue {
        try call("snapshot.get", ["session": session])
    }

    public func stats() throws(ClientError) -> JSONValue { try call("stats") }

    /// `devices` (an addition to protocol 1): device profiles and rule sets.
    public func devices() throws(ClientError) -> JSONValue { try call("devices") }

    /// The next push, decoded as a layout push.
    public func nextLayoutPush(timeout: Duration? = nil) throws(ClientError) -> LayoutPush {
        try LayoutPush(decoding: try nextPush(timeout: timeout))
    }
}
