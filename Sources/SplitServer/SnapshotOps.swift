import Foundation
import SplitCore
import SplitStore
import SplitWire

// snapshot / snapshot.list / snapshot.get (SEMANTICS 8; their entries: `Op.table`): sessions are computed by the core
// on the live state without touching it, recorded in the turn's batch, and read back.
extension Server {
    func snapshot(_ scene: String, target: SnapshotTarget) throws(WireError) -> Reply {
        let live = try liveScene(scene)
        let result: SnapshotResult
        do {
            switch target {
            case .sizes(let sizes): result = try engine.snapshot(live.state, sizes: sizes)
            case .preset(let name): result = try engine.snapshot(live.state, preset: name)
            }
        } catch {
            throw WireError(error)
        }
        let insert = recordSession(result, of: scene)
        scheduleTurn()
        let record = SnapshotRecord(session: insert.session, scene: scene, hash: insert.hash, result: result)
        return .snapshot(record)
    }

    /// Records a session in this turn's batch under the next session id (a `snapshot` op's,
    /// or the app-switcher session of a change entering `background`); readers see it before
    /// the commit through `pendingSessions`.
    func recordSession(_ result: SnapshotResult, of scene: String) -> SnapshotSessionInsert {
        let number = store.nextSessionNumber()
        let insert = SnapshotSessionInsert(
            session: "s\(number)", number: number, scene: scene,
            baseRevision: Int64(result.baseRevision),
            sizes: SnapshotCodec.encodeSizes(result.snapshots.map(\.size)),
            hash: SessionHash.hex(SnapshotCodec.canonicalContent(of: result)), body: SnapshotCodec.encodeBody(result))
        turn.batch.insertSnapshotSession(insert)
        turn.pendingSessions.append(insert)
        return insert
    }

    /// Sessions recorded by turns not committed yet (deferred ones, then this one): the store
    /// does not have them.
    private var pendingSessions: [SnapshotSessionInsert] {
        committer.uncommitted.isEmpty
            ? turn.pendingSessions : committer.uncommitted.flatMap(\.pendingSessions) + turn.pendingSessions
    }

    func listSnapshots(_ scene: String) throws(WireError) -> (Reply, ReplyKind) {
        _ = try liveScene(scene)
        var summaries: [SnapshotSessionSummary]
        do {
            summaries = try store.snapshotSessions(scene: scene)
        } catch {
            throw WireError(.storage, "cannot read snapshot sessions: \(error)")
        }
        let pending = pendingSessions.filter { $0.scene == scene }
        summaries += pending.map(\.summary)
        let listings = summaries.map { summary in
            SnapshotListing(
                session: summary.session, baseRevision: Int(summary.baseRevision),
                sizes: SnapshotCodec.decodeSizes(summary.sizes), hash: summary.hash)
        }
        return (
            .snapshotSessions(listings),
            pending.isEmpty ? .read(scene) : .readStaged("the snapshot sessions of scene '\(scene)'")
        )
    }

    func getSnapshot(_ sessionID: String) throws(WireError) -> (Reply, ReplyKind) {
        let stored: SnapshotSession?
        let pending = pendingSessions.first { $0.session == sessionID }
        if let pending {
            stored = SnapshotSession(summary: pending.summary, body: pending.body)
        } else {
            do {
                stored = try store.snapshotSession(id: sessionID)
            } catch {
                throw WireError(.storage, "cannot read snapshot session: \(error)")
            }
        }
        guard let stored else {
            throw WireError(WireErrorCode(rawValue: "unknown_session"), "no snapshot session '\(sessionID)'")
        }
        let result: SnapshotResult
        do {
            // Read as the wire writes it (`SnapshotResultCodec`): Foundation's decoder would
            // drop the layouts' revision-2 members, which are not `Layout`'s Codable keys.
            result = try SnapshotResult(json: try JSONParser.parse(stored.body))
        } catch {
            throw WireError(.internal, "snapshot session '\(sessionID)' cannot be decoded: \(error)")
        }
        let record = SnapshotRecord(
            session: sessionID, scene: stored.summary.scene, hash: stored.summary.hash, result: result)
        return (.snapshot(record), pending == nil ? .fixed : .readStaged("snapshot session '\(sessionID)'"))
    }
}

/// How snapshot sessions are serialized for the store.
enum SnapshotCodec {
    /// What the session hash covers: the layouts and the round-trip report (not the base
    /// revision, so equal results of different sessions hash alike), as JSON with sorted keys.
    static func canonicalContent(of result: SnapshotResult) -> [UInt8] {
        struct Content: Encodable {
            var snapshots: [SizedLayout]
            var roundTrip: RoundTripReport
        }
        return encodeSorted(Content(snapshots: result.snapshots, roundTrip: result.roundTrip))
    }

    /// The stored body: only ever decoded (never hashed), so it need not be sorted.
    static func encodeBody(_ result: SnapshotResult) -> [UInt8] {
        SnapshotResultCodec.encode(result)
    }

    static func encodeSizes(_ sizes: [Size]) -> [UInt8] { encodeSorted(sizes) }

    static func decodeSizes(_ bytes: [UInt8]) -> [Size] {
        (try? JSONDecoder().decode([Size].self, from: Data(bytes))) ?? []
    }

    private static func encodeSorted(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain data: a failure would be a bug, and must be loud.
        return Array(try! encoder.encode(value))
    }
}

extension SnapshotSessionInsert {
    var summary: SnapshotSessionSummary {
        SnapshotSessionSummary(
            session: session, number: number, scene: scene, baseRevision: baseRevision,
            sizes: sizes, hash: hash, createdAt: 0)
    }
}
