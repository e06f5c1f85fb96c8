import SplitCore

/// Writes server messages straight into an output buffer, each one line ending in "\n":
/// responses `{"id":..,"ok":true,...}`, errors `{"id":..,"ok":false,"error":{...}}` and
/// layout pushes `{"event":"layout","scene":..,"revision":N,"layout":{...},"events":[...]}`.
public enum WireEncoder {
    /// A successful response to request `id`.
    public static func appendResponse(id: RequestID, reply: Reply, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer) { writer in
            writer.beginObject()
            writer.rawKey("id")
            writer.write(id)
            writer.rawKey("ok")
            writer.write(true)
            writer.writeFields(of: reply)
            writer.endObject()
            writer.newline()
        }
    }

    /// An error response; `id` nil writes `"id":null` (unreadable requests).
    public static func appendError(id: RequestID?, error: WireError, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer) { writer in
            writer.beginObject()
            writer.rawKey("id")
            if let id { writer.write(id) } else { writer.writeNull() }
            writer.rawKey("ok")
            writer.write(false)
            writer.rawKey("error")
            writer.beginObject()
            writer.rawKey("code")
            writer.write(error.code.rawValue)
            writer.rawKey("message")
            writer.write(error.message)
            writer.endObject()
            writer.endObject()
            writer.newline()
        }
    }

    /// The error response for a refused request line.
    public static func appendFailure(_ failure: RequestFailure, to buffer: inout [UInt8]) {
        appendError(id: failure.id, error: failure.error, to: &buffer)
    }

    /// A layout push to the clients of `scene`.
    public static func appendLayoutPush(
        scene: String, revision: Int, layout: Layout, events: [SceneEvent],
        revision2Events: [PositionedEvent] = [], to buffer: inout [UInt8]
    ) {
        appendLayoutPush(
            scene: scene,
            change: ChangeFields(revision: revision, layout: layout, events: events, revision2Events: revision2Events),
            to: &buffer)
    }

    /// A layout push reusing fields encoded once for the response and every subscriber.
    public static func appendLayoutPush(scene: String, change: ChangeFields, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer) { writer in
            writer.beginObject()
            writer.rawKey("event")
            writer.writeRaw("layout")
            writer.rawKey("scene")
            writer.write(scene)
            writer.appendFields(change)
            writer.endObject()
            writer.newline()
        }
    }

    /// The response to a `resize` or `intent`, written in one pass; `fields` locates its
    /// `"revision":..,"layout":..,"events":..` members in `bytes`, for the pushes of the same
    /// change (`ChangeFields(encoded:)`). The same bytes as `appendResponse(id:change:to:)`.
    public static func changeResponse(
        id: RequestID, revision: Int, layout: Layout, events: [SceneEvent], revision2Events: [PositionedEvent] = []
    )
        -> (bytes: [UInt8], fields: Range<Int>)
    {
        var writer = JSONWriter()
        let fields = writeChangeResponse(
            id: id, revision: revision, layout: layout, events: events, revision2Events: revision2Events,
            into: &writer)
        return (writer.bytes, fields)
    }

    /// `changeResponse` left in `writer` (emptied first), whose storage the caller reuses from
    /// one response to the next and copies the response where it is kept (the daemon: its
    /// turn's reply buffer); answers where its fields are.
    public static func writeChangeResponse(
        id: RequestID, revision: Int, layout: Layout, events: [SceneEvent],
        revision2Events: [PositionedEvent] = [], into writer: inout JSONWriter
    ) -> Range<Int> {
        writer.removeAll()
        writer.beginObject()
        writer.rawKey("id")
        writer.write(id)
        writer.rawKey("ok")
        writer.write(true)
        // After the comma `rawKey` writes: the members start at their first quote.
        let start = writer.count + 1
        writer.writeChange(revision: revision, layout: layout, events: events, revision2Events: revision2Events)
        let end = writer.count
        writer.endObject()
        writer.newline()
        return start..<end
    }

    /// The response to a `resize` or `intent` from fields encoded once.
    public static func appendResponse(id: RequestID, change: ChangeFields, to buffer: inout [UInt8]) {
        JSONWriter.append(to: &buffer) { writer in
            writer.beginObject()
            writer.rawKey("id")
            writer.write(id)
            writer.rawKey("ok")
            writer.write(true)
            writer.appendFields(change)
            writer.endObject()
            writer.newline()
        }
    }
}

/// `"revision":N,"layout":{...},"events":[...]` encoded once, shared by the response to
/// the change and by the push to every other client of the scene.
public struct ChangeFields: Hashable, Sendable {
    /// The members' JSON text without surrounding braces.
    public let bytes: [UInt8]

    public init(revision: Int, layout: Layout, events: [SceneEvent], revision2Events: [PositionedEvent] = []) {
        var writer = JSONWriter()
        writer.writeChange(revision: revision, layout: layout, events: events, revision2Events: revision2Events)
        bytes = writer.bytes
    }

    /// Fields already encoded, as `WireEncoder.changeResponse` locates them.
    public init(encoded: ArraySlice<UInt8>) {
        bytes = Array(encoded)
    }

    /// Fields already encoded, as `WireEncoder.writeChangeResponse` locates them in its writer.
    public init(encoded: UnsafeRawBufferPointer) {
        bytes = Array(encoded)
    }
}

extension JSONWriter {
    mutating func appendFields(_ change: ChangeFields) {
        appendMembers(change.bytes)
    }

    mutating func writeChange(
        revision: Int, layout: Layout, events: [SceneEvent], revision2Events: [PositionedEvent] = []
    ) {
        rawKey("revision")
        write(revision)
        rawKey("layout")
        write(layout)
        rawKey("events")
        write(events, placing: revision2Events)
    }

    /// The members of `reply`, after `"ok":true`.
    mutating func writeFields(of reply: Reply) {
        switch reply {
        case let .hello(version, server, features):
            rawKey("protocol")
            write(version)
            rawKey("server")
            write(server)
            if !features.isEmpty {
                rawKey("features")
                write(features)
            }
        case let .scene(scene, revision, layout):
            writeSceneFields(scene: scene, revision: revision, layout: layout)
        case let .attached(scene, revision, layout):
            writeSceneFields(scene: scene, revision: revision, layout: layout)
            rawKey("events")
            write([SceneEvent]())
        case let .attachedChange(scene, change):
            rawKey("scene")
            write(scene)
            appendFields(change)
        case let .sceneDetail(scene, revision, layout, state, owner):
            writeSceneFields(scene: scene, revision: revision, layout: layout)
            rawKey("state")
            write(state)
            write(owner)
        case let .sceneList(scenes):
            rawKey("scenes")
            beginArray()
            for listing in scenes { write(listing) }
            endArray()
        case let .change(revision, layout, events):
            writeChange(revision: revision, layout: layout, events: events)
        case let .snapshot(record):
            writeFields(of: record)
        case let .snapshotSessions(sessions):
            rawKey("sessions")
            beginArray()
            for listing in sessions { write(listing) }
            endArray()
        case let .stats(counters):
            for name in counters.keys.sorted() {
                key(name)
                write(counters[name]!)
            }
        case let .devices(devices):
            rawKey("devices")
            beginArray()
            for device in devices { write(device) }
            endArray()
        case .empty:
            break
        case let .fields(object):
            for member in object {
                key(member.key)
                write(member.value)
            }
        }
    }

    private mutating func writeSceneFields(scene: String, revision: Int, layout: Layout) {
        rawKey("scene")
        write(scene)
        rawKey("revision")
        write(revision)
        rawKey("layout")
        write(layout)
    }

    mutating func writeFields(of record: SnapshotRecord) {
        if let session = record.session {
            rawKey("session")
            write(session)
        }
        if let scene = record.scene {
            rawKey("scene")
            write(scene)
        }
        if let hash = record.hash {
            rawKey("hash")
            write(hash)
        }
        writeMembers(of: record.result)
    }

    public mutating func write(_ listing: SceneListing) {
        beginObject()
        rawKey("scene")
        write(listing.scene)
        rawKey("revision")
        write(listing.revision)
        rawKey("device")
        write(listing.device)
        write(listing.owner)
        endObject()
    }

    /// The `owner` member in cluster mode; nothing on a single host.
    private mutating func write(_ owner: Owner) {
        guard case .node(let node) = owner else { return }
        rawKey("owner")
        if let node { write(node) } else { writeNull() }
    }

    public mutating func write(_ listing: SnapshotListing) {
        beginObject()
        rawKey("session")
        write(listing.session)
        rawKey("baseRevision")
        write(listing.baseRevision)
        rawKey("sizes")
        beginArray()
        for size in listing.sizes { write(size) }
        endArray()
        rawKey("hash")
        write(listing.hash)
        endObject()
    }

    public mutating func write(_ listing: DeviceListing) {
        beginObject()
        rawKey("device")
        write(listing.device)
        rawKey("kind")
        write(listing.kind.rawValue)
        rawKey("defaultSize")
        if let size = listing.defaultSize { write(size) } else { writeNull() }
        rawKey("presets")
        beginArray()
        for preset in listing.presets {
            beginObject()
            rawKey("name")
            write(preset.name)
            rawKey("orientation")
            write(preset.orientation.rawValue)
            rawKey("size")
            write(preset.size)
            endObject()
        }
        endArray()
        endObject()
    }
}
