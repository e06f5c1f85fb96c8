import Foundation
import SplitCore
import SplitLoop
import SplitStore
import SplitWire

/// Start-up: every stored scene at its last acknowledged revision. Each scene's row is its
/// checkpoint; the journal entries above it are replayed through `SplitEngine.apply` (pure
/// and deterministic), scenes spread over every core. A gap in the revisions, an entry that
/// does not decode, or a replay whose layout differs from the one acknowledged (its digest
/// is stored with the entry) refuses the start: the daemon never guesses a state. The one
/// exception is an operator's: `acceptDivergence` (`splitd --accept-replay-divergence`, for
/// a crash followed by an upgrade that changed the layout rules) keeps what the replay gives
/// where it diverges, and reports every such entry.
enum SceneRestore {
    /// What a restore found.
    struct Outcome {
        var scenes: [String: LiveScene]
        /// Journal entries replayed over all scenes.
        var replayed: Int
        /// Entries whose replay diverged and was kept (only with `acceptDivergence`), in
        /// scene order: the scene and what the divergence was.
        var diverged: [(scene: String, description: String)] = []
    }

    static func restore(
        from store: any SceneStore, engine: SplitEngine, acceptDivergence: Bool = false
    ) throws -> Outcome {
        let rows = try store.loadScenes()
        let tails = try store.journalTails()
        let ranges = tailRanges(of: tails)
        let replayEngine = permissive(engine)
        var restored = [Result<RestoredScene, SystemError>?](repeating: nil, count: rows.count)
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, rows.count / 512))
        restored.withUnsafeMutableBufferPointer { buffer in
            // Each lane writes only its own indices.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                for index in stride(from: lane, to: rows.count, by: lanes) {
                    let row = rows[index]
                    slots[index] = restore(
                        row, tail: ranges[row.id].map { tails[$0] } ?? [], engine: replayEngine,
                        acceptDivergence: acceptDivergence)
                }
            }
        }
        var scenes: [String: LiveScene] = [:]
        scenes.reserveCapacity(rows.count)
        var diverged: [(scene: String, description: String)] = []
        for (row, result) in zip(rows, restored) {
            let scene = try result!.get()
            scenes[row.id] = scene.live
            diverged += scene.diverged.map { (row.id, $0) }
        }
        return Outcome(scenes: scenes, replayed: tails.count, diverged: diverged)
    }

    /// One scene as restored, with the divergences kept on the way (each described).
    struct RestoredScene {
        var live: LiveScene
        var diverged: [String] = []
    }

    /// Where each scene's entries are in `tails` (the store returns them grouped by scene).
    static func tailRanges(of tails: [JournalEntry]) -> [String: Range<Int>] {
        var ranges: [String: Range<Int>] = [:]
        var start = 0
        for index in tails.indices where index + 1 == tails.count || tails[index + 1].scene != tails[index].scene {
            ranges[tails[index].scene] = start..<(index + 1)
            start = index + 1
        }
        return ranges
    }

    /// The engine with limits that refuse nothing: every entry was accepted under the limits
    /// of its time, which a reload may since have lowered.
    static func permissive(_ engine: SplitEngine) -> SplitEngine {
        var limits = engine.limits
        limits.maxStackDepth = 1 << 40
        limits.maxIdLength = 1 << 40
        limits.maxPresentations = 1 << 40
        limits.maxTabs = 1 << 40
        limits.maxSnapshotSizes = 1 << 40
        return SplitEngine(catalog: engine.catalog, limits: limits)
    }

    /// The scene's checkpoint with its journal tail replayed.
    static func restore(
        _ stored: StoredScene, tail: ArraySlice<JournalEntry>, engine: SplitEngine,
        acceptDivergence: Bool = false
    ) -> Result<RestoredScene, SystemError> {
        var state: SceneState
        do {
            state = try SceneBlob.decode(stored.state)
        } catch {
            return .failure(
                SystemError("scene '\(stored.id)' in the database cannot be decoded (\(error)); refusing to guess"))
        }
        guard state.revision == Int(stored.revision), state.id == stored.id else {
            return .failure(
                SystemError(
                    "scene '\(stored.id)': stored revision \(stored.revision) does not match its state (\(state.revision))"
                ))
        }
        var layout = engine.layout(of: state)
        // The store returns each tail in revision order; sorting is only a fallback.
        let ordered =
            zip(tail, tail.dropFirst()).allSatisfy { $0.revision < $1.revision }
            ? tail : ArraySlice(tail.sorted { $0.revision < $1.revision })
        var diverged: [String] = []
        for entry in ordered {
            switch replay(entry, on: state, engine: engine) {
            case .success(let transition):
                state = transition.state
                layout = transition.layout
            case .failure(let error):
                guard acceptDivergence, let divergence = error.divergence else { return .failure(error.error) }
                // Kept: the state the replay gives (its layout under today's rules), or, for a
                // change the engine no longer takes, the state before it at the entry's
                // revision, so revisions stay those clients were told.
                if let transition = divergence.replayed {
                    state = transition.state
                    layout = transition.layout
                } else {
                    state.revision = Int(entry.revision)
                }
                diverged.append(divergence.description)
            }
        }
        var live = LiveScene(state: state, layout: layout, checkpointRevision: Int(stored.revision))
        // At rest since the start: the first sweep checkpoints what the restart replayed.
        live.revisionAtLastSweep = state.revision
        return .success(RestoredScene(live: live, diverged: diverged))
    }

    /// Why an entry could not be replayed; a divergence says what the replay gave.
    struct ReplayError: Error {
        /// A replay that ran but did not give back what was acknowledged.
        struct Divergence {
            /// The replay's transition when it changed the scene (with another layout), nil
            /// when the engine refused the change or found it a no-op.
            var replayed: Transition?
            var description: String
        }

        var error: SystemError
        var divergence: Divergence?

        init(_ message: String) { error = SystemError(message) }

        init(diverged message: String, replayed: Transition?) {
            error = SystemError("REPLAY DIVERGED: \(message); refusing to start (see --accept-replay-divergence)")
            divergence = Divergence(replayed: replayed, description: message)
        }
    }

    /// Applies one journal entry to the state before it.
    static func replay(
        _ entry: JournalEntry, on state: SceneState, engine: SplitEngine
    ) -> Result<Transition, ReplayError> {
        let scene = "scene '\(entry.scene)' revision \(entry.revision)"
        guard entry.revision == Int64(state.revision) + 1 else {
            return .failure(
                ReplayError(
                    "\(scene): the journal jumps from revision \(state.revision) to \(entry.revision) (entries missing); refusing to guess"
                ))
        }
        let record: JournalRecord
        do {
            record = try JournalRecordCoding.decode(entry.change)
        } catch {
            return .failure(
                ReplayError("\(scene): journal entry cannot be decoded (\(error.message)); refusing to guess"))
        }
        guard let change = record.command else {
            return .failure(ReplayError("\(scene): a creation above the scene's checkpoint; refusing to guess"))
        }
        let transition: Transition
        do {
            transition = try engine.replay(change, to: state)
        } catch {
            return .failure(
                ReplayError(
                    diverged: "\(scene): the acknowledged change \(change) is refused on replay (\(error))",
                    replayed: nil))
        }
        guard transition.changed else {
            return .failure(
                ReplayError(diverged: "\(scene): the acknowledged change \(change) is a no-op on replay", replayed: nil)
            )
        }
        if let acknowledged = entry.layoutHash {
            switch LayoutDigest.verify(transition.layout, against: acknowledged) {
            case .matches:
                break
            case .differs(let computed):
                return .failure(
                    ReplayError(
                        diverged:
                            "\(scene): replaying \(change) gives another layout than the one acknowledged (digest \(computed), stored \(acknowledged))",
                        replayed: transition))
            case .unknownFormat:
                return .failure(
                    ReplayError(
                        "\(scene): the layout digest '\(acknowledged)' has an unknown format (written by a newer splitd?); refusing to guess"
                    ))
            }
        }
        return .success(transition)
    }
}
