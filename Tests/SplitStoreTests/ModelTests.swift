import Testing
@testable import SplitStore
import SplitTestSupport

/// The documented semantics of a batch, written independently of SQL: operations apply in
/// order; the journal is one log in append order that takes every entry; a session needs its
/// scene and a fresh key; deleting a scene deletes its sessions, and a scene created again
/// sees none of the entries of its earlier life; a checkpoint (upsert) covers every entry
/// appended before it; any failure leaves everything as it was. Pruning is not modelled: with
/// retention 0 the store must match exactly, with a retention it may only drop history.
struct StoreModel {
    struct Scene: Equatable { var device: String; var revision: Int64; var state: [UInt8] }
    struct Entry: Equatable { var seq: Int64; var scene: String; var revision: Int64; var change: [UInt8] }

    var scenes: [String: Scene] = [:]
    /// Per scene, the log's last seq when it was created (`start`) and last checkpointed (`floor`).
    var start: [String: Int64] = [:]
    var floor: [String: Int64] = [:]
    var log: [Entry] = []
    var sessions: [String: SnapshotSessionInsert] = [:]

    /// Applies the batch and returns true, or returns false and changes nothing.
    mutating func commit(_ batch: StoreBatch) -> Bool {
        var next = self
        for operation in batch.operations where !next.apply(operation, of: batch) { return false }
        self = next
        return true
    }

    var lastSeq: Int64 { log.last?.seq ?? 0 }

    /// The scene's entries since it was created, oldest first.
    func journal(_ scene: String) -> [Entry] {
        guard let start = start[scene], scenes[scene] != nil else { return [] }
        return log.filter { $0.scene == scene && $0.seq > start }
    }

    /// What a restart replays: the entries above each scene's checkpoint.
    var tails: [Entry] {
        log.filter { entry in
            guard let scene = scenes[entry.scene], let floor = floor[entry.scene] else { return false }
            return entry.seq > floor && entry.revision > scene.revision
        }
    }

    private mutating func apply(_ operation: StoreBatch.Operation, of batch: StoreBatch) -> Bool {
        switch operation {
        case let .upsertScene(id, device, revision, state):
            if scenes[id] == nil { start[id] = lastSeq }
            scenes[id] = Scene(device: device, revision: revision, state: state)
            floor[id] = lastSeq
        case let .deleteScene(id):
            scenes[id] = nil
            start[id] = nil
            floor[id] = nil
            sessions = sessions.filter { $0.value.scene != id }
        case let .appendJournal(scene, revision, change, _):
            log.append(
                Entry(seq: lastSeq + 1, scene: scene, revision: revision, change: Array(batch.change(of: change))))
        case let .insertSnapshotSession(session):
            guard scenes[session.scene] != nil, sessions[session.session] == nil,
                !sessions.values.contains(where: { $0.number == session.number })
            else { return false }
            sessions[session.session] = session
        case .setMeta, .answerForwarded:
            break
        }
        return true
    }
}

/// SplitMix64: a small deterministic generator, so a failing seed can be replayed.
typealias SeededGenerator = SplitMix64

@Suite("Store against its model")
struct ModelTests {
    func randomBatch(_ model: StoreModel, _ store: SQLiteSceneStore, _ random: inout SeededGenerator) -> StoreBatch {
        var batch = StoreBatch()
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let scene = "s\(Int.random(in: 0..<5, using: &random))"
            let nextRevision = (model.journal(scene).map(\.revision).max() ?? model.scenes[scene]?.revision ?? 0) + 1
            let revision =
                Int.random(in: 0..<5, using: &random) == 0 ? Int64.random(in: 1...8, using: &random) : nextRevision
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                batch.upsertScene(
                    id: scene, device: ["ipad", "iphone"].randomElement(using: &random)!,
                    revision: revision, state: stateBytes(scene, revision, size: Int.random(in: 0...40, using: &random))
                )
            case 4..<7:
                batch.appendJournal(scene: scene, revision: revision, change: stateBytes("change-" + scene, revision))
            case 7:
                batch.deleteScene(id: scene)
            default:
                let number = store.nextSessionNumber()
                batch.insertSnapshotSession(
                    SnapshotSessionInsert(
                        session: "session-\(number)", number: number, scene: scene, baseRevision: revision,
                        sizes: [UInt8(number % 256)], hash: "hash-\(number)", body: stateBytes("body", number)))
            }
        }
        return batch
    }

    /// The store matches the model; with `pruned`, the journal may have lost history (entries
    /// no restart needs) from its head, never anything else.
    func expectMatches(_ store: SQLiteSceneStore, _ model: StoreModel, seed: UInt64, pruned: Bool = false) throws {
        let scenes = try store.loadScenes()
        #expect(
            Dictionary(
                uniqueKeysWithValues: scenes.map {
                    ($0.id, StoreModel.Scene(device: $0.device, revision: $0.revision, state: $0.state))
                })
                == model.scenes, "seed \(seed)")
        for index in 0..<5 {
            let scene = "s\(index)"
            let journal = try store.journal(scene: scene, from: 0)
            let expected = model.journal(scene)
            if pruned {
                #expect(
                    expected.map(\.revision).reversed().starts(with: journal.map(\.revision).reversed()),
                    "seed \(seed) journal of \(scene): a suffix of the model's")
            } else {
                #expect(journal.map(\.revision) == expected.map(\.revision), "seed \(seed) journal of \(scene)")
                #expect(journal.map(\.change) == expected.map(\.change), "seed \(seed) journal of \(scene)")
            }
            let sessions = try store.snapshotSessions(scene: scene)
            let expectedSessions = model.sessions.values.filter { $0.scene == scene }.sorted { $0.number < $1.number }
            #expect(sessions.map(\.session) == expectedSessions.map(\.session), "seed \(seed) sessions of \(scene)")
        }
        // What a restart replays is never pruned: grouped by scene, oldest first in each.
        let tails = try store.journalTails()
        let expectedTails = Dictionary(grouping: model.tails, by: \.scene)
        let tailGroups = Dictionary(grouping: tails, by: \.scene)
        #expect(
            tailGroups.mapValues { $0.map(\.revision) } == expectedTails.mapValues { $0.map(\.revision) },
            "seed \(seed) tails")
        #expect(
            tailGroups.mapValues { $0.map(\.change) } == expectedTails.mapValues { $0.map(\.change) },
            "seed \(seed) tails")
        #expect(SceneGroups.contiguous(tails.map(\.scene)), "seed \(seed): tails grouped by scene")
        for session in model.sessions.values {
            #expect(try store.snapshotSession(id: session.session)?.body == session.body, "seed \(seed)")
        }
    }

    @Test(
        "random batches leave the database exactly as the model says, before and after reopening",
        arguments: [UInt64(1), 2, 3, 4, 5])
    func randomBatches(seed: UInt64) throws {
        try run(seed: seed, retention: 0)
    }

    @Test(
        "with a retention, pruning only ever drops history from the head of the journal",
        arguments: [UInt64(11), 12, 13])
    func randomBatchesPruned(seed: UInt64) throws {
        try run(seed: seed, retention: 3)
    }

    func run(seed: UInt64, retention: Int64) throws {
        let directory = TemporaryDirectory()
        var random = SeededGenerator(state: seed)
        var model = StoreModel()
        var failures = 0
        let pruned = retention > 0
        do {
            let store = try openStore(directory.database) {
                $0.journalRetention = retention; $0.pruneRefreshMilliseconds = 0; $0.pruneBatch = 1;
                $0.durability = .normal
            }
            for _ in 0..<150 {
                let batch = randomBatch(model, store, &random)
                let accepted = model.commit(batch)
                let error = storeError { try store.commit(batch) }
                #expect(
                    (error == nil) == accepted, "seed \(seed): \(String(describing: error)) for \(batch.operations)")
                if let error {
                    failures += 1
                    #expect(error.kind == .constraint && error.rolledBack)
                }
                try expectMatches(store, model, seed: seed, pruned: pruned)
                if pruned {
                    let kept = try store.counts().journalEntries
                    #expect(kept >= min(Int64(model.log.count), retention), "seed \(seed): the retention is kept")
                }
            }
            if pruned { #expect(store.statistics.prunedJournalEntries > 0, "seed \(seed): something was pruned") }
            try store.close()
        }
        #expect(failures > 0 && failures < 150, "the generator exercises both outcomes")
        try expectMatches(try openStore(directory.database), model, seed: seed, pruned: pruned)
    }
}

/// Whether equal elements of a sequence are all adjacent.
enum SceneGroups {
    static func contiguous(_ scenes: [String]) -> Bool {
        var seen: Set<String> = []
        var previous: String?
        for scene in scenes where scene != previous {
            if !seen.insert(scene).inserted { return false }
            previous = scene
        }
        return true
    }
}
