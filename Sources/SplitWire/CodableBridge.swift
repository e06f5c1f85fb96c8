import Foundation
import SplitCore

// Cold paths only (scene.get's state, snapshot sessions read by clients): these go
// through Foundation's Codable so they follow SplitCore's conformances exactly.

extension JSONValue {
    /// `value` as Foundation's JSONEncoder renders it, parsed into a `JSONValue`.
    public init(encoding value: some Encodable) throws(WireError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw WireError(.internal, "cannot encode \(type(of: value)): \(error)")
        }
        do {
            self = try JSONParser.parse(Array(data))
        } catch {
            throw WireError(.internal, "JSONEncoder output unreadable: \(error)")
        }
    }

    /// Decodes this value with Foundation's JSONDecoder.
    public func decode<T: Decodable>(_ type: T.Type) throws(WireError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(JSONWriter.encode(self)))
        } catch {
            throw WireError.badRequest("invalid \(T.self): \(error)")
        }
    }
}

extension SnapshotRecord {
    /// Reads a `snapshot` / `snapshot.get` result object.
    public init(json: JSONValue) throws(WireError) {
        let reader = try FieldReader.root(json, "snapshot")
        let result = try json.decode(SnapshotResult.self)
        self.init(session: try reader.optionalString("session"), scene: try reader.optionalString("scene"),
                  hash: try reader.optionalString("hash"), result: result)
    }
}
