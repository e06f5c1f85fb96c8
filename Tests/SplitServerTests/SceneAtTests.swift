import SplitStore
import SplitWire
import Testing

@testable import SplitServer

/// `scene.at` in the daemon: a past revision rebuilt from the store's history, and a clear
/// refusal where the store keeps none (cluster mode).
@Suite struct SceneAtTests {
    private func resize(_ scene: String, _ width: Int) -> JSONObject {
        ["op": "resize", "scene": .string(scene), "width": .int(Int64(width)), "height": 1024]
    }

    @Test func pastRevisionsAreRebuiltWithTheLayoutTheirChangeAnswered() throws {
        let daemon = try TestDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let created = try client.request(["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"])
        var layouts = [1: created["layout"]]
        for (index, width) in [375, 678, 981, 1366, 500].enumerated() {
            let reply = try client.request(resize("s", width))
            #expect(reply["revision"] == .int(Int64(index + 2)))
            layouts[index + 2] = reply["layout"]
        }
        for revision in 1...6 {
            let past = try client.request(["op": "scene.at", "scene": "s", "revision": .int(Int64(revision))])
            #expect(past["revision"] == .int(Int64(revision)))
            #expect(past["layout"] == layouts[revision], "revision \(revision)")
        }
        #expect(try client.request(["op": "scene.at", "scene": "s", "revision": 7]).errorCode == "bad_request")
        #expect(try client.request(["op": "scene.get", "scene": "s"])["revision"] == 6)
    }

    @Test func clusterModeRefusesPastRevisionsButAnswersTheCurrentOne() throws {
        let store = MemorySceneStore()
        let cluster = ScriptedCluster(store: store)
        let daemon = try TestDaemon(store: store, cluster: cluster)
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(["op": "scene.create", "scene": "s", "device": "ipad-pro-12.9"]).isOK)
        #expect(try client.request(resize("s", 375)).isOK)
        let past = try client.request(["op": "scene.at", "scene": "s", "revision": 1])
        #expect(past.errorCode == "bad_request")
        #expect(past["error"]?["message"]?.string?.contains("not supported in cluster mode") == true)
        #expect(try client.request(["op": "scene.at", "scene": "s", "revision": 2])["revision"] == 2)
        #expect(try client.request(["op": "hello", "protocol": 1])["features"]?.array?.contains("scene.at") == false)
    }
}
