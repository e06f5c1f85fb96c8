import SplitCore

/// The stored JSON form of a `SceneState`, the only one splitd writes and reads: the JSON of
/// SplitCore's Codable conformances with members in declaration order, read back under those
/// conformances' rules from strict JSON (Foundation's output too: any member order, unknown
/// members ignored). Databases hold these bytes, so the format only ever grows: a new field
/// is optional on reading, and existing fields keep their names, order and spelling
/// (`StoredFormatFixtures` holds bytes earlier builds wrote). Written by hand because
/// Codable's containers would dominate a restart with many scenes.
public enum SceneStateCodec {
    /// The JSON of `state`. Throws `EncodingError.invalidValue` for a non-finite number.
    public static func encode(_ state: SceneState) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 2048)
        try writer.writeSceneState(state)
        return writer.bytes
    }

    /// Reads a stored state; any malformed, truncated or mistyped input throws
    /// `StoredDocumentError` (never traps).
    public static func decode(_ bytes: [UInt8]) throws(StoredDocumentError) -> SceneState {
        try bytes.withUnsafeBufferPointer { buffer throws(StoredDocumentError) in try decode(buffer) }
    }

    /// Reads a stored state from borrowed bytes (a row of the database, a slice of a file).
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(StoredDocumentError) -> SceneState {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw StoredDocumentError("empty scene state", at: 0)
        }
        var scanner = FieldScanner(base: base, count: bytes.count)
        let state = try scanner.sceneState()
        try scanner.finish()
        return state
    }
}
