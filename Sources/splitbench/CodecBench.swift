import Foundation
import SplitCore
import SplitWire

/// Microbenchmarks of the wire codec on the hot messages (the resize request, the change
/// response with layout and events) next to Foundation's JSONDecoder/JSONEncoder on the same
/// shapes, and of the scene-state blob the daemon stores with every change.
enum CodecBench {
    static let resizeLine = Array(#"{"id":4711,"op":"resize","scene":"bench-42","width":375,"height":1024}"#.utf8)

    /// The Foundation model of the same request.
    struct ResizeRequest: Codable {
        var id: Int
        var op: String
        var scene: String
        var width: Double
        var height: Double
        var baseRevision: Int?
    }

    /// The Foundation model of the change response.
    struct ChangeResponse: Codable {
        var id: Int
        var ok: Bool
        var revision: Int
        var layout: Layout
        var events: [SceneEvent]
    }

    static func run(_ harness: Microbench) throws -> [Microbench.Measurement] {
        let engine = SplitEngine()
        let base = try CoreBench.baseState(engine)
        // A collapse: the largest common response (layout plus a full set of events).
        let transition = try engine.apply(.resize(CoreBench.third), to: base)
        var results: [Microbench.Measurement] = []

        results.append(
            try harness.measure("decode resize request: SplitWire") {
                consume(try RequestDecoder.decode(resizeLine))
            })
        let decoder = JSONDecoder()
        let resizeData = Data(resizeLine)
        results.append(
            try harness.measure("decode resize request: Foundation JSONDecoder") {
                consume(try decoder.decode(ResizeRequest.self, from: resizeData))
            })

        var buffer: [UInt8] = []
        buffer.reserveCapacity(4096)
        results.append(
            harness.measure("encode change response (layout + \(transition.events.count) events): SplitWire") {
                buffer.removeAll(keepingCapacity: true)
                let fields = ChangeFields(
                    revision: transition.state.revision, layout: transition.layout,
                    events: transition.events)
                WireEncoder.appendResponse(id: .int(4711), change: fields, to: &buffer)
                consume(buffer.count)
            })
        let encoder = JSONEncoder()
        let response = ChangeResponse(
            id: 4711, ok: true, revision: transition.state.revision,
            layout: transition.layout, events: transition.events)
        results.append(
            try harness.measure("encode change response: Foundation JSONEncoder") {
                consume(try encoder.encode(response))
            })

        let blobEncoder = JSONEncoder()
        blobEncoder.outputFormatting = [.sortedKeys]
        results.append(
            try harness.measure("encode scene state blob: Foundation (sortedKeys)") {
                consume(try blobEncoder.encode(transition.state))
            })
        let blob = try blobEncoder.encode(transition.state)
        results.append(
            try harness.measure("decode scene state blob: Foundation") {
                consume(try decoder.decode(SceneState.self, from: blob))
            })

        try verifySceneStateCodec(transition.state)
        let stored = try SceneStateCodec.encode(transition.state)
        results.append(
            try harness.measure("parse scene state blob: SplitWire JSONParser (tree only)") {
                consume(try JSONParser.parse(stored))
            })
        results.append(
            try harness.measure("encode scene state blob: SceneStateCodec (hand-written)") {
                consume(try SceneStateCodec.encode(transition.state))
            })
        results.append(
            try harness.measure("decode scene state blob: SceneStateCodec (hand-written)") {
                consume(try SceneStateCodec.decode(stored))
            })
        // Older databases hold Foundation's blobs: keys in another order miss the field hints.
        let sortedBlob = Array(blob)
        results.append(
            try harness.measure("decode Foundation sortedKeys blob: SceneStateCodec") {
                consume(try SceneStateCodec.decode(sortedBlob))
            })
        return results
    }

    /// The codec must write the JSON Foundation writes and read both back before its speed
    /// means anything.
    static func verifySceneStateCodec(_ state: SceneState) throws {
        let stored = try SceneStateCodec.encode(state)
        let foundation = try JSONEncoder().encode(state)
        guard try SceneStateCodec.decode(stored) == state, try SceneStateCodec.decode(Array(foundation)) == state,
            try JSONDecoder().decode(SceneState.self, from: Data(stored)) == state,
            try JSONParser.parse(stored) == JSONParser.parse(Array(foundation))
        else {
            throw BenchError("SceneStateCodec disagrees with Foundation's Codable JSON on SceneState")
        }
    }

    /// Bytes of the response and the blob, for the report.
    static func sizes() throws -> (response: Int, blob: Int) {
        let engine = SplitEngine()
        let transition = try engine.apply(.resize(CoreBench.third), to: try CoreBench.baseState(engine))
        var buffer: [UInt8] = []
        WireEncoder.appendResponse(
            id: .int(4711),
            change: ChangeFields(
                revision: transition.state.revision,
                layout: transition.layout, events: transition.events), to: &buffer)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (buffer.count, try encoder.encode(transition.state).count)
    }
}
