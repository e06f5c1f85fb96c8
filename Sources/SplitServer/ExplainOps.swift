import Dispatch
import SplitCore
import SplitLoop
import SplitWire

// `explain` and `sweep` (WIRE.md "Explain and sweep"): both read only. No revision, no
// event, nothing stored.

extension Server {
    /// The decisions behind the scene's current layout, from the engine's own resolution.
    func explainScene(_ scene: String) throws(WireError) -> Reply {
        let live = try liveScene(scene)
        return .fields(engine.explain(live.state).wireFields(scene: scene))
    }

    /// Sweeps of more points than this run on the worker thread: a sweep resolves a layout per
    /// point, and the loop must not stop serving every other client meanwhile.
    static let inlineSweepPoints = 2048

    /// One sweep at a time beside the loop: a second core for the others, never all of them.
    static let sweepWorker = DispatchQueue(label: "splitd.sweep", qos: .utility)

    /// A sweep: answered now when small, else on the worker thread with `session` parked
    /// until then (nil: the reply comes later).
    func sweep(
        _ request: SweepRequest, id: RequestID, from session: ClientSession
    ) throws(WireError) -> (Reply, ReplyKind)? {
        guard (request.to - request.from).rounded(.down) + 1 > Double(Self.inlineSweepPoints) else {
            return try sweep(request)
        }
        // What the worker reads is taken now, as of this request: the scene's state (a value),
        // the engine (a value).
        let state: SceneState?
        if case let .scene(scene) = request.source { state = try liveScene(scene).state } else { state = nil }
        let engine = self.engine
        if workerMailbox == nil { workerMailbox = LoopMailbox(loop: loop) }
        guard let mailbox = workerMailbox else { return try sweep(request) }
        sweepsInFlight += 1
        session.awaitingWorker = true
        session.isThrottled = true
        session.connection.pauseReading()
        // The mailbox's handle keeps the loop alive while a sweep runs.
        mailbox.keepsLoopAlive(true)
        let sessionID = session.id
        // The closure runs on the loop thread (the mailbox's receiver), where the server lives.
        nonisolated(unsafe) let server = self
        Self.sweepWorker.async {
            let result = Result { () throws(WireError) in
                do throws(CoreError) {
                    if let state {
                        return try engine.sweep(
                            state, axis: request.axis, from: request.from, to: request.to, fixed: request.fixed)
                    }
                    guard case let .device(device, config) = request.source else { return [] }
                    return try engine.sweep(
                        device: device, config: config, axis: request.axis, from: request.from, to: request.to,
                        fixed: request.fixed)
                } catch {
                    throw WireError(error)
                }
            }
            mailbox.post { server.finishSweep(result, of: request, id: id, for: sessionID) }
        }
        return nil
    }

    /// On the loop: the worker's answer to a parked sweep, staged for its client, who is read
    /// again.
    private func finishSweep(
        _ result: Result<[SweepInterval], WireError>, of request: SweepRequest, id: RequestID, for sessionID: Int
    ) {
        sweepsInFlight -= 1
        if sweepsInFlight == 0 { workerMailbox?.keepsLoopAlive(false) }
        defer { closeClientsIfStopped() }
        guard let session = sessions[sessionID] else { return }
        session.awaitingWorker = false
        switch result {
        case .success(let intervals):
            if case let .scene(scene) = request.source {
                respond(Self.sweepReply(intervals), id: id, to: session, as: .read(scene))
            } else {
                respond(Self.sweepReply(intervals), id: id, to: session, as: .fixed)
            }
        case .failure(let error):
            reply(error: error, id: id, to: session)
        }
        resumeParked(session)
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
