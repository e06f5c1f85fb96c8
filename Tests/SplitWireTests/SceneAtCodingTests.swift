import SplitWire
import Testing

/// The `scene.at` op's parameters on the wire.
@Suite("scene.at coding")
struct SceneAtCodingTests {
    @Test func decodesSceneAndRevision() throws {
        let request = try RequestDecoder.decode(#"{"id":1,"op":"scene.at","scene":"s","revision":7}"#)
        #expect(request.op == .sceneAt(scene: "s", revision: 7))
        #expect(request.op.name == "scene.at" && request.op.scene == "s" && !request.op.isMutation)
    }

    @Test(arguments: [
        #"{"id":1,"op":"scene.at","scene":"s"}"#, #"{"id":1,"op":"scene.at","revision":3}"#,
        #"{"id":1,"op":"scene.at","scene":"s","revision":0}"#, #"{"id":1,"op":"scene.at","scene":"s","revision":-2}"#,
        #"{"id":1,"op":"scene.at","scene":"s","revision":"3"}"#, #"{"id":1,"op":"scene.at","scene":"","revision":3}"#,
        #"{"id":1,"op":"scene.at","scene":"s","revision":3,"layout":true}"#,
    ])
    func refusesBadParameters(line: String) {
        do {
            _ = try RequestDecoder.decode(line)
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.error.code == .badRequest, "\(line): \(error)")
        }
    }

    @Test func encodesWhatItDecodes() throws {
        let request = Request(id: 4, op: .sceneAt(scene: "mail", revision: 12))
        let line = String(decoding: WireEncoder.encode(request), as: UTF8.self)
        #expect(line == #"{"id":4,"op":"scene.at","scene":"mail","revision":12}"# + "\n")
        #expect(try RequestDecoder.decode(line) == request)
    }
}
