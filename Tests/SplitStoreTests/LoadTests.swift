import Testing
@testable import SplitStore

@Suite("Loading many scenes")
struct LoadTests {
    @Test("100k scenes come back after reopening, each with its own device, revision and state")
    func loadHundredThousand() throws {
        let directory = TemporaryDirectory()
        let total = 100_000
        let revision = { (index: Int) in Int64(index % 97 + 1) }
        let device = { (index: Int) in index.isMultiple(of: 3) ? "iphone" : "ipad" }
        do {
            let store = try openStore(directory.database) { $0.durability = .normal }
            var batch = StoreBatch()
            for index in 0..<total {
                let id = "scene-\(index)"
                batch.upsertScene(
                    id: id, device: device(index), revision: revision(index),
                    state: stateBytes(id, revision(index), size: 64))
                if batch.count == 10_000 {
                    try store.commit(batch)
                    batch.removeAll()
                }
            }
            try store.commit(batch)
            try store.close()
        }
        let store = try openStore(directory.database)
        let scenes = try store.loadScenes()
        #expect(scenes.count == total)
        #expect(Set(scenes.map(\.id)).count == total)
        var mismatches = 0
        for scene in scenes {
            let index = try #require(Int(scene.id.dropFirst("scene-".count)))
            if scene.device != device(index) || scene.revision != revision(index)
                || scene.state != stateBytes(scene.id, revision(index), size: 64)
            {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(try store.counts().scenes == Int64(total))
    }
}
