import Foundation
import SplitCore

/// Scene states as stored: Foundation JSON of `SceneState` (cold path: written once per
/// change, read once per scene at start).
enum SceneBlob {
    static func encode(_ state: SceneState) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // SceneState is plain data; encoding cannot fail short of a bug, which must be loud.
        return Array(try! encoder.encode(state))
    }

    static func decode(_ bytes: [UInt8]) throws -> SceneState {
        try JSONDecoder().decode(SceneState.self, from: Data(bytes))
    }
}
