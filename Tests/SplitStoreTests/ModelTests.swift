import Testing
@testable import SplitStore

/// The documented semantics of a batch, written independently of SQL: operations apply in
/// order; a journal entry or session needs its scene and a fresh key; deleting a scene
/// deletes its journal and sessions; upserting a scene at revision R (a checkpoint) keeps its
/// journal above R - retention, appending prunes nothing; any failure leaves everything as it
/// was.
struct StoreModel {
    struct Scene: Equatable { var device: String; var revision: Int64; var state: [UInt8] }

    let retention: Int64
    var scenes: [String: Scene] = [:]
    var journal: [String: [Int64: [UInt8]]] = [:]
    var sessions: [String: SnapshotSessionInsert] = [:]

    /// Applies the batch and returns true, or returns false and changes nothing.
    mutating func commit(_ batch: StoreBatch) -> Bool {
        var next = self
        for operation in batch.operations where !next.apply(operation) { return false }
        self = next
        return true
    }

    private mutating func apply(_ operation: StoreBatch.Operation) -> Bool {
        switch operation {
        case let .upsertScene(id, device, revision, state):
            scenes[id] = Scene(device: device, revision: revision, state: state)
            if retention > 0 { journal[id] = journal[id]?.filter { $0.key > revision - retention } }
        case let .deleteScene(id):
            scenes[id] = nil
            journal[id] = nil
            sessions = sessions.filter { $0.value.scene != id }
        case let .appendJournal(scene, revision, change, _):
            guard scenes[scene] != nil, journal[scene]?[revision] == nil else { return false }
            journal[scene, default: [:]][revision] = change
        case let .insertSnapshotSession(session):
            guard scenes[session.scene] != nil, sessions[session.session] == nil,
                  !sessions.values.contains(where: { $0.number == session.number }) else { return false }
            sessions[session.session] = session
        case .setMeta:
            break
        }
        return true
    }
}

/// SplitMix64: a small deterministic generator, so a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Store against its model")
struct ModelTests {
    func randomBatch(_ model: StoreModel, _ store: SQLiteSceneStore, _ random: inout SeededGenerator) -> StoreBatch {
        var batch = StoreBatch()
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let scene = "s\(Int.random(in: 0..<5, using: &random))"
            let nextRevision = (model.journal[scene]?.keys.max() ?? 0) + 1
            let revision = Int.random(in: 0..<5, using: &random) == 0 ? Int64.random(in: 1...8, using: &random) : nextRevision
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                batch.upsertScene(id: scene, device: ["ipad", "iphone"].randomElement(using: &random)!,
                                  revision: revision, state: stateBytes(scene, revision, size: Int.random(in: 0...40, using: &random)))
            case 4..<7:
                batch.appendJournal(scene: scene, revision: revision, change: stateBytes("change-" + scene, revision))
            case 7:
                batch.deleteScene(id: scene)
            default:
                let number = store.nextSessionNumber()
                batch.insertSnapshotSession(SnapshotSessionInsert(
                    session: "session-\(number)", number: number, scene: scene, baseRevision: revision,
                    sizes: [UInt8(number % 256)], hash: "hash-\(number)", body: stateBytes("body", number)))
            }
        }
        return batch
    }

    func expectMatches(_ store: SQLiteSceneStore, _ model: StoreModel, seed: UInt64) throws {
        let scenes = try store.loadScenes()
        #expect(Dictionary(uniqueKeysWithValues: scenes.map { ($0.id, StoreModel.Scene(device: $0.device, revision: $0.revision, state: $0.state)) })
                == model.scenes, "seed \(seed)")
        for index in 0..<5 {
            let scene = "s\(index)"
            let journal = try store.journal(scene: scene, from: 0)
            let expected = (model.journal[scene] ?? [:]).sorted { $0.key < $1.key }
            #expect(journal.map(\.revision) == expected.map(\.key), "seed \(seed) journal of \(scene)")
            #expect(journal.map(\.change) == expected.map(\.value), "seed \(seed) journal of \(scene)")
            let sessions = try store.snapshotSessions(scene: scene)
            let expectedSessions = model.sessions.values.filter { $0.scene == scene }.sorted { $0.number < $1.number }
            #expect(sessions.map(\.session) == expectedSessions.map(\.session), "seed \(seed) sessions of \(scene)")
        }
        // What a restart replays: every entry above its scene's row revision, grouped by scene.
        let tails = try store.journalTails()
        let expectedTails = model.scenes.flatMap { id, scene in
            (model.journal[id] ?? [:]).filter { $0.key > scene.revision }.map { "\(id)@\($0.key)" }
        }
        #expect(tails.map { "\($0.scene)@\($0.revision)" }.sorted() == expectedTails.sorted(), "seed \(seed) tails")
        #expect(tails.map(\.change) == tails.map { model.journal[$0.scene]?[$0.revision] ?? [] }, "seed \(seed) tails")
        for session in model.sessions.values {
            #expect(try store.snapshotSession(id: session.session)?.body == session.body, "seed \(seed)")
        }
    }

    @Test("random batches leave the database exactly as the model says, before and after reopening",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func randomBatches(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        var random = SeededGenerator(state: seed)
        var model = StoreModel(retention: 4)
        var failures = 0
        do {
            let store = try openStore(directory.database) { $0.journalRetention = 4; $0.durability = .normal }
            for _ in 0..<150 {
                let batch = randomBatch(model, store, &random)
                let accepted = model.commit(batch)
                let error = storeError { try store.commit(batch) }
                #expect((error == nil) == accepted, "seed \(seed): \(String(describing: error)) for \(batch.operations)")
                if let error {
                    failures += 1
                    #expect(error.kind == .constraint && error.rolledBack)
                }
                try expectMatches(store, model, seed: seed)
            }
            try store.close()
        }
        #expect(failures > 0 && failures < 150, "the generator exercises both outcomes")
        try expectMatches(try openStore(directory.database), model, seed: seed)
    }
}
