import SplitCore
import SplitLoop
import SplitWire

/// One connection's attachment to one scene.
struct Attachment: Sendable {
    var role: AttachRole
    /// The window's last reported size (attach or resize), nil until it reports one.
    var size: Size?
    /// When that size was reported (a loop-wide sequence), to find the latest one.
    var reportedAt: UInt64 = 0
    /// Notices besides layout pushes it asked for when it attached (`scene.attach` `notices`).
    var notices: AttachNotices = []
}

/// A push waiting for a slow client to drain its output: only the newest per scene is kept.
struct PendingPush: Sendable {
    var revision: Int
    var bytes: [UInt8]
}

/// The protocol state of one connection (its transport is `Connection`).
final class ClientSession {
    let connection: Connection
    /// Scenes this client is attached to.
    var attachments: [String: AttachRole] = [:]
    /// Pushes held back while the client is over the soft output limit (scene -> newest).
    var heldPushes: [String: PendingPush] = [:]
    /// Order in which scenes got held pushes, so they are released in revision order.
    var heldOrder: [String] = []
    /// Set once a final error is queued: nothing more is read or staged.
    var isClosing = false
    /// Bytes of replies staged for this client in the current turn (not yet written).
    var stagedBytes = 0
    /// Lines read from this client in the current turn.
    var linesThisTurn = 0
    /// Whether this client may still join a flush (`Server.flushPeers`).
    var flushPeer = FlushPeers.Client()
    /// Reading is paused: too much of this client's output is unwritten, or it used its
    /// share of the turn.
    var isThrottled = false
    /// This client's unwritten output as `Sessions.queuedOutputTotal` counts it.
    var accountedOutput = 0
    /// The protocol version announced by `hello`, if any.
    var announcedProtocol: Int?
    /// Cluster mode: the forwarding id of this client's request its scene's owner is
    /// answering (empty until it is sent at the end of the turn); nothing more is read from
    /// it until then (`Forwarding.swift`).
    var awaitingForward: String?
    /// A sweep of this client's runs on the worker thread (`ExplainOps.swift`); nothing more
    /// is read from it until its answer.
    var awaitingWorker = false
    /// Waiting for an answer computed elsewhere (a forward's or a sweep's): its later
    /// requests wait too, so that replies stay in request order.
    var isParked: Bool { awaitingForward != nil || awaitingWorker }
    /// The peer finished sending while it was parked: close after the answer.
    var closeAfterAnswer = false
    /// Set on the owner's session of forwarded requests while it runs one: its replies go to
    /// the sending node.
    var answering: ForwardedTarget?
    var clientName: String?

    init(connection: Connection) {
        self.connection = connection
    }

    var id: Connection.ID { connection.id }

    /// Holds `push` instead of writing it, replacing an older one of the same scene.
    func hold(scene: String, push: PendingPush) {
        if heldPushes.updateValue(push, forKey: scene) == nil { heldOrder.append(scene) }
    }

    /// Drops the held push of `scene`: an attach answer written now carries a newer layout,
    /// and the older push released after it would take the client back a revision.
    func dropHeldPush(of scene: String) {
        guard heldPushes.removeValue(forKey: scene) != nil else { return }
        heldOrder.removeAll { $0 == scene }
    }

    /// Takes every held push, oldest scene first.
    func takeHeldPushes() -> [PendingPush] {
        defer {
            heldPushes.removeAll()
            heldOrder.removeAll()
        }
        return heldOrder.compactMap { heldPushes[$0] }
    }
}
