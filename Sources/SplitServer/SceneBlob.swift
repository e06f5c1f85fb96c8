import SplitCore
import SplitWire

/// Scene states as stored: the JSON of `SceneState`'s Codable conformance, written and read
/// by SplitWire's `SceneStateCodec`. It also reads the blobs Foundation wrote into older
/// databases (same JSON, keys in another order).
enum SceneBlob {
    static func encode(_ state: SceneState) -> [UInt8] {
        // SceneState is plain data with finite numbers; failing to encode it is a bug, which must be loud.
        try! SceneStateCodec.encode(state)
    }

    static func decode(_ bytes: [UInt8]) throws -> SceneState {
        try SceneStateCodec.decode(bytes)
    }
}
