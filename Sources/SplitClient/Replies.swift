import SplitCore
import SplitWire

/// A scene's current state as `scene.create`, `scene.get` and `scene.attach` answer it.
public struct SceneReply: Hashable, Sendable {
    public var scene: String
    public var revision: Int
    public var layout: Layout
    /// The raw result object (for fields beyond protocol 1's minimum, e.g. `state`).
    public var raw: JSONValue
}

/// The answer to an accepted (or no-op) change: `resize` and `intent`.
public struct ChangeReply: Hashable, Sendable {
    public var revision: Int
    public var layout: Layout
    /// The events of protocol 1's kinds, in order.
    public var events: [SceneEvent]
    /// Every event in order, revision 2's kinds included.
    public var timeline: [TimelineEvent]
    public var raw: JSONValue
}

/// One `{"event": "layout", ...}` push.
public struct LayoutPush: Hashable, Sendable {
    public var scene: String
    public var revision: Int
    public var layout: Layout
    /// The events of protocol 1's kinds, in order.
    public var events: [SceneEvent]
    /// Every event in order, revision 2's kinds included.
    public var timeline: [TimelineEvent]
    public var raw: JSONValue
}

/// One entry of `scene.list`.
public struct SceneSummary: Hashable, Sendable {
    public var scene: String
    public var revision: Int
    public var device: String
}

extension SceneReply {
    public init(decoding result: JSONValue) throws(ClientError) {
        self.init(
            scene: try field(result, "scene", \.string), revision: try field(result, "revision", \.int),
            layout: try decodeLayout(try field(result, "layout", { $0 })), raw: result)
    }
}

extension ChangeReply {
    public init(revision: Int, layout: Layout, timeline: [TimelineEvent], raw: JSONValue) {
        self.init(revision: revision, layout: layout, events: timeline.protocol1, timeline: timeline, raw: raw)
    }

    public init(decoding result: JSONValue) throws(ClientError) {
        self.init(
            revision: try field(result, "revision", \.int),
            layout: try decodeLayout(try field(result, "layout", { $0 })),
            timeline: try decodeEvents(try field(result, "events", { $0 })), raw: result)
    }
}

extension LayoutPush {
    public init(scene: String, revision: Int, layout: Layout, timeline: [TimelineEvent], raw: JSONValue) {
        self.init(
            scene: scene, revision: revision, layout: layout, events: timeline.protocol1, timeline: timeline, raw: raw)
    }

    public init(decoding push: JSONValue) throws(ClientError) {
        guard push["event"]?.string == "layout" else { throw .protocolViolation("not a layout push: \(push)") }
        self.init(
            scene: try field(push, "scene", \.string), revision: try field(push, "revision", \.int),
            layout: try decodeLayout(try field(push, "layout", { $0 })),
            timeline: try decodeEvents(try field(push, "events", { $0 })), raw: push)
    }
}

extension SceneSummary {
    public init(decoding entry: JSONValue) throws(ClientError) {
        self.init(
            scene: try field(entry, "scene", \.string), revision: try field(entry, "revision", \.int),
            device: try field(entry, "device", \.string))
    }
}

/// `object[key]` converted by `convert`, or a protocol violation naming the field.
func field<T>(_ object: JSONValue, _ key: String, _ convert: (JSONValue) -> T?) throws(ClientError) -> T {
    guard let value = object[key], let converted = convert(value) else {
        throw .protocolViolation("missing or invalid '\(key)' in \(object)")
    }
    return converted
}

/// A WIRE.md layout object as a `Layout`.
public func decodeLayout(_ value: JSONValue) throws(ClientError) -> Layout {
    do {
        return try Layout(json: value)
    } catch {
        throw .protocolViolation("invalid layout (\(error)): \(value)")
    }
}

extension [TimelineEvent] {
    /// The events of protocol 1's kinds.
    public var protocol1: [SceneEvent] {
        compactMap {
            if case .scene(let event) = $0 { event } else { nil }
        }
    }
}

/// A WIRE.md `events` array, revision 2's kinds included.
public func decodeEvents(_ value: JSONValue) throws(ClientError) -> [TimelineEvent] {
    do {
        return try TimelineEvent.list(json: value)
    } catch {
        throw .protocolViolation("invalid events (\(error)): \(value)")
    }
}
