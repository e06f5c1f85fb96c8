import EtcdAPI
import Foundation
import SplitStore

/// What another node did to the scenes, as a watch of the prefix sees it, in etcd's order.
public enum SceneWatchEvent: Sendable, Hashable {
    /// A change above the checkpoint (`journal/<scene>/<revision>` put).
    case journal(JournalEntry)
    /// A scene's full state at a revision (`checkpoint/<scene>` put): a creation, or a
    /// checkpoint that may have taken the place of journal entries.
    case checkpoint(StoredScene)
    /// The scene was deleted (its head key deleted).
    case sceneDeleted(String)
    /// The scene's owner key was deleted: its owner gave it up or its lease expired.
    case ownerGone(String)
    /// The watch lost events (its start revision was compacted): every copy must be read
    /// again. The watch goes on from etcd's current revision.
    case resync
    /// A node forwarded a request line for the scene's owner (`inbox/<scene>/<request>` put).
    case forwarded(scene: String, request: String, line: [UInt8], at: Int64)
    /// The owner answered a forwarded request (`reply/<request>` put).
    case answered(request: String, reply: [UInt8])
}

/// A watch of every scene key under the prefix, from a start revision, for a plain thread:
/// `start` returns at once; events arrive on `deliver`, called from a task in etcd's order,
/// which must only hand them on (the daemon posts them to its loop). A broken stream is
/// opened again from the revision after the last one delivered, so nothing is skipped or
/// repeated; a compacted start revision becomes `.resync`.
///
/// A stream breaks when its etcd member dies or loses its leader (`EtcdClient.watch`
/// requires one). Before it is opened again a linearizable read must succeed: it returns only
/// once the member reached has a leader and has applied what the cluster committed before the
/// read, so the new stream starts on the cluster's current history. After a partition, a
/// compaction the majority made meanwhile then shows as `.resync` rather than as a replay from
/// a member still catching up; and a leaderless member is asked once per read timeout, not in
/// a tight loop.
public final class SceneWatch: Sendable {
    private let task: Locked<Task<Void, Never>?>
    private let state: Locked<WatchState>

    struct WatchState {
        var open = false
        var reopened = 0
    }

    /// Whether the stream is open now (etcd accepted it and it has not broken since).
    public var isOpen: Bool { state.withLock { $0.open } }
    /// How many times the stream was opened again after it broke.
    public var reopened: Int { state.withLock { $0.reopened } }

    public init(
        client: EtcdClient, keys: ClusterKeys, fromRevision: Int64, readTimeout: Duration = .seconds(2),
        deliver: @escaping @Sendable ([SceneWatchEvent], _ revision: Int64) -> Void
    ) {
        task = Locked(nil)
        let state = Locked(WatchState())
        self.state = state
        let started = Task.detached {
            let next = Locked(fromRevision)
            var broken = false
            while !Task.isCancelled {
                if broken {
                    do throws(EtcdError) {
                        _ = try await client.range(.with { $0.key = Data(keys.everything) }, timeout: readTimeout)
                    } catch {
                        try? await Task.sleep(for: .milliseconds(100))
                        continue
                    }
                    state.withLock { $0.reopened += 1 }
                }
                do throws(EtcdError) {
                    try await client.watch(
                        prefix: keys.everything, fromRevision: next.withLock { $0 },
                        onCreated: { state.withLock { $0.open = true } }
                    ) { response in
                        let revision = response.header.revision
                        let events = response.events.compactMap { Self.decode($0, keys: keys) }
                        if let last = response.events.last { next.withLock { $0 = last.kv.modRevision + 1 } }
                        if !events.isEmpty { deliver(events, revision) }
                        return !Task.isCancelled
                    }
                } catch {
                    if case let .watchCanceled(compactRevision, _) = error, compactRevision > 0 {
                        deliver([.resync], compactRevision)
                        next.withLock { $0 = compactRevision }
                    }
                }
                state.withLock { $0.open = false }
                broken = true
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        task.withLock { $0 = started }
    }

    /// Ends the watch (the stream closes; nothing is delivered after it returns but what was
    /// already under way).
    public func stop() {
        task.withLock { $0?.cancel() }
    }

    deinit { stop() }

    static func decode(_ event: Etcdserverpb_Event, keys: ClusterKeys) -> SceneWatchEvent? {
        let key = Array(event.kv.key)
        let text = String(decoding: key, as: UTF8.self)
        switch event.type {
        case .put:
            if let (scene, revision) = keys.journalEntry(ofKey: key) {
                guard let record = JournalRecord(decoding: Array(event.kv.value)) else { return nil }
                return .journal(
                    JournalEntry(
                        scene: scene, revision: revision, change: record.change, layoutHash: record.layoutHash,
                        at: record.at))
            }
            if let (scene, request) = keys.inboxEntry(ofKey: key) {
                return .forwarded(scene: scene, request: request, line: Array(event.kv.value), at: event.kv.modRevision)
            }
            if let request = keys.replyRequest(ofKey: key) {
                return .answered(request: request, reply: Array(event.kv.value))
            }
            if text.hasPrefix(keys.prefix + "checkpoint/"), let scene = keys.scene(ofSceneKey: key),
                let record = CheckpointRecord(decoding: Array(event.kv.value))
            {
                return .checkpoint(
                    StoredScene(
                        id: scene, device: record.device, revision: record.revision, state: record.state,
                        createdAt: record.createdAt, updatedAt: record.updatedAt))
            }
            return nil
        case .delete:
            guard let scene = keys.scene(ofSceneKey: key) else { return nil }
            if text.hasPrefix(keys.prefix + "owner/") { return .ownerGone(scene) }
            if text.hasPrefix(keys.prefix + "head/") { return .sceneDeleted(scene) }
            return nil
        case .UNRECOGNIZED:
            return nil
        }
    }
}
