import SplitCore
import SplitWire
import Testing

/// The `explain` and `sweep` ops' parameters and results on the wire.
@Suite("Explain and sweep coding")
struct ExplainSweepCodingTests {
    @Test func decodesExplain() throws {
        #expect(try RequestDecoder.decode(#"{"id":1,"op":"explain","scene":"s"}"#).op == .explain(scene: "s"))
        #expect(throws: RequestFailure.self) { try RequestDecoder.decode(#"{"id":1,"op":"explain"}"#) }
    }

    @Test func decodesSweepOfASceneOrADevice() throws {
        let scene = try RequestDecoder.decode(#"{"id":1,"op":"sweep","scene":"s","from":300,"to":400}"#)
        #expect(scene.op == .sweep(SweepRequest(source: .scene("s"), from: 300, to: 400)))
        #expect(scene.op.scene == "s" && !scene.op.isMutation)

        let device = try RequestDecoder.decode(
            #"{"id":1,"op":"sweep","device":"ipad-pro-11","config":{"style":"tripleColumn"},"#
                + #""traitOverrides":"material","axis":"height","from":300,"to":400,"width":800}"#)
        var patch = SplitConfigPatch()
        patch.style = .tripleColumn
        patch.traitOverrides = .some("material")
        #expect(
            device.op
                == .sweep(
                    SweepRequest(
                        source: .device("ipad-pro-11", config: patch), axis: .height, from: 300, to: 400, fixed: 800)))
        #expect(device.op.scene == nil)
        // The encoder writes what the decoder reads.
        #expect(try RequestDecoder.decode(WireEncoder.encode(device)) == device)
        #expect(try RequestDecoder.decode(WireEncoder.encode(scene)) == scene)
    }

    @Test(
        "sweep refusals name what is wrong",
        arguments: [
            (#"{"id":1,"op":"sweep","from":1,"to":2}"#, "'scene'"),
            (#"{"id":1,"op":"sweep","scene":"s","device":"mac","from":1,"to":2}"#, "not both"),
            (#"{"id":1,"op":"sweep","scene":"s","config":{},"from":1,"to":2}"#, "'config'"),
            (#"{"id":1,"op":"sweep","scene":"s","to":2}"#, "'from'"),
            (#"{"id":1,"op":"sweep","scene":"s","from":1,"to":2,"axis":"depth"}"#, "'axis'"),
            (#"{"id":1,"op":"sweep","scene":"s","from":1,"to":2,"height":"tall"}"#, "'height'"),
        ])
    func sweepRefusals(line: String, naming: String) {
        do throws(RequestFailure) {
            let request = try RequestDecoder.decode(line)
            Issue.record("accepted: \(request)")
        } catch {
            #expect(error.error.code == .badRequest)
            #expect(error.error.message.contains(naming), "\(error.error.message)")
        }
    }

    /// Every interval of every device × style sweep reads back as it was written.
    @Test func intervalsRoundTrip() throws {
        let engine = SplitEngine()
        for device in engine.catalog.profiles.map(\.id) {
            for style in [SplitStyle.classic, .doubleColumn, .tripleColumn] {
                var patch = SplitConfigPatch()
                patch.style = style
                for interval in try engine.sweep(device: device, config: patch, from: 200, to: 1400) {
                    #expect(SweepInterval(wire: interval.wireValue) == interval)
                }
            }
        }
    }

    @Test func explanationFieldsCarryEveryDecision() throws {
        let engine = SplitEngine()
        let state = try engine.createScene(id: "s", device: "ipad-pro-12.9", size: nil, config: nil)
        let explanation = engine.explain(state)
        let fields = explanation.wireFields(scene: "s")
        #expect(fields["scene"] == .string("s") && fields["revision"] == .int(1))
        #expect(fields["layout"]?["collapsed"] == .bool(false))
        let decisions = try #require(fields["decisions"]?.array)
        #expect(decisions.count == explanation.decisions.count)
        for (wire, decision) in zip(decisions, explanation.decisions) {
            #expect(wire["field"]?.string == decision.field && wire["rule"]?.string == decision.rule)
            #expect(wire["inputs"]?.object?.keys == decision.inputs.map(\.name))
        }
    }
}
