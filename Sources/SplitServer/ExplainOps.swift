import SplitCore
import SplitWire

// `explain` and `sweep` (WIRE.md "Explain and sweep"): both read only. No revision, no
// event, nothing stored.

extension Server {
    /// The decisions behind the scene's current layout, from the engine's own resolution.
    func explainScene(_ scene: String) throws(WireError) -> Reply {
        let live = try liveScene(scene)
        return .fields(engine.explain(live.state).wireFields(scene: scene))
    }

    /// The breakpoints of a scene (its device, config and state) or of a device and config
    /// given inline. A scene's sweep reads the scene: answered as a read of it.
    func sweep(_ request: SweepRequest) throws(WireError) -> (Reply, ReplyKind) {
        switch request.source {
        case let .scene(scene):
            let live = try liveScene(scene)
            do {
                let intervals = try engine.sweep(
                    live.state, axis: request.axis, from: request.from, to: request.to, fixed: request.fixed)
                return (Self.sweepReply(intervals), .read(scene))
            } catch {
                throw WireError(error)
            }
        case let .device(device, config):
            do {
                let intervals = try engine.sweep(
                    device: device, config: config, axis: request.axis, from: request.from, to: request.to,
                    fixed: request.fixed)
                return (Self.sweepReply(intervals), .fixed)
            } catch {
                throw WireError(error)
            }
        }
    }

    static func sweepReply(_ intervals: [SweepInterval]) -> Reply {
        .fields(["intervals": .array(intervals.map(\.wireValue))])
    }
}
