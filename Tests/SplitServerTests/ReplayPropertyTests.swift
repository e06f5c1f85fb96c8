import Foundation
import SplitCore
import SplitStore
import SplitWire
import Testing
@testable import SplitServer
import SplitTestSupport

/// Replay against the live path: for random sequences of accepted changes and a random
/// checkpoint among them, restoring the checkpoint plus the journal above it gives exactly
/// the state and layout the engine produced live.
@Suite("Replay property")
struct ReplayPropertyTests {
    /// SplitMix64, so a failing seed can be replayed.
    typealias Seeded = SplitMix64

    static let sizes = [
        Size(width: 1366, height: 1024), Size(width: 1024, height: 1366), Size(width: 375, height: 1024),
        Size(width: 678, height: 1024), Size(width: 981, height: 1024), Size(width: 507.5, height: 1366),
    ]

    static func randomChange(_ rng: inout Seeded) -> SceneChange {
        let column = [Column.primary, .supplementary, .secondary, .compact].randomElement(using: &rng)!
        let vc = "vc\(Int.random(in: 0..<6, using: &rng))"
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1, 2: return .resize(sizes.randomElement(using: &rng)!)
        case 3: return .intent(.push(column: column, vc: vc))
        case 4: return .intent(.pop(column: column))
        case 5: return .intent(.showDetail(vc: vc))
        case 6: return .intent(.back)
        case 7:
            return .intent(
                .present(vc: vc, style: [.fullScreen, .pageSheet, .formSheet, .popover].randomElement(using: &rng)!))
        case 8: return .intent(.dismiss)
        case 9:
            return .intent(
                .setPreferredDisplayMode(
                    [.secondaryOnly, .oneBesideSecondary, .oneOverSecondary].randomElement(using: &rng)!))
        case 10: return .intent(.displayModeButton)
        case 11: return .intent(.showColumn(column))
        case 12: return .intent(.hideColumn(column))
        default: return .intent(.tapDimmed)
        }
    }

    @Test("checkpoint + journal tail == the live state", arguments: Array(UInt64(1)...40))
    func replayMatchesLive(seed: UInt64) throws {
        var rng = Seeded(state: seed)
        let engine = SplitEngine()
        let config = try JSONParser.parse(#"{"roots":{"primary":"inbox","secondary":"detail"}}"#)
        let patch = try JSONDecoder().decode(SplitConfigPatch.self, from: Data(JSONWriter.encode(config)))
        var state = try engine.createScene(id: "s", device: "ipad-pro-12.9", size: nil, config: patch)
        var layout = engine.layout(of: state)
        var accepted: [(SceneChange, SceneState, Layout)] = [(.intent(.back), state, layout)]
        for _ in 0..<Int.random(in: 1...80, using: &rng) {
            let change = Self.randomChange(&rng)
            guard let transition = try? engine.apply(change, to: state), transition.changed else { continue }
            state = transition.state
            layout = transition.layout
            accepted.append((change, state, layout))
        }
        let checkpoint = Int.random(in: 0..<accepted.count, using: &rng)
        let store = MemorySceneStore()
        var batch = StoreBatch()
        let checkpointed = accepted[checkpoint].1
        batch.upsertScene(
            id: "s", device: "ipad-pro-12.9", revision: Int64(checkpointed.revision),
            state: SceneBlob.encode(checkpointed))
        for (index, entry) in accepted.enumerated() {
            let record: JournalRecord = index == 0 ? .created : .change(entry.0)
            batch.appendJournal(
                scene: "s", revision: Int64(entry.1.revision), change: JournalRecordCoding.encode(record),
                // Both digest formats: a tail may hold an earlier daemon's entries.
                layoutHash: index % 2 == 0 ? LayoutDigest.hex(entry.2) : LayoutDigest.text(entry.2))
        }
        try store.commit(batch)
        let restored = try SceneRestore.restore(from: store, engine: engine)
        #expect(restored.replayed == accepted.count - 1 - checkpoint, "seed \(seed)")
        #expect(restored.scenes["s"]?.state == state, "seed \(seed)")
        #expect(restored.scenes["s"]?.layout == layout, "seed \(seed)")
        #expect(restored.scenes["s"]?.checkpointRevision == checkpointed.revision, "seed \(seed)")
    }
}
