import SplitCore
import SplitWire

/// Scene states as stored: the JSON of `SceneState`'s Codable conformance, written with every
/// change by SplitWire's streaming encoder (4x cheaper than Foundation's JSONEncoder, which
/// took half the daemon's CPU under load) and read at start by its tree decoder, which also
/// reads the blobs Foundation wrote into older databases (same JSON, keys in another order).
enum SceneBlob {
    static func encode(_ state: SceneState) -> [UInt8] {
        // SceneState is plain data with finite numbers; failing to encode it is a bug, which must be loud.
        try! StreamingJSONEncoder().encode(state)
    }

    static func decode(_ bytes: [UInt8]) throws -> SceneState {
        try JSONValueDecoder().decode(SceneState.self, from: bytes)
    }
}
