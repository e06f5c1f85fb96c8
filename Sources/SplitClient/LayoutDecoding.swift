import Foundation
import SplitCore
import SplitWire

// Cold path (client side only): goes through Foundation's Codable conformances of the core
// types, so the client reads layouts exactly as SplitCore defines them.

/// A WIRE.md layout object as a `Layout`.
public func decodeLayout(_ value: JSONValue) throws(ClientError) -> Layout {
    try decodeCodable(Layout.self, from: value, what: "layout")
}

/// A WIRE.md `events` array as `[SceneEvent]`.
public func decodeEvents(_ value: JSONValue) throws(ClientError) -> [SceneEvent] {
    try decodeCodable([SceneEvent].self, from: value, what: "events")
}

func decodeCodable<T: Decodable>(_ type: T.Type, from value: JSONValue, what: String) throws(ClientError) -> T {
    do {
        return try JSONDecoder().decode(type, from: Data(JSONWriter.string(value).utf8))
    } catch {
        throw .protocolViolation("invalid \(what) (\(error)): \(value)")
    }
}
