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
}

/// A watch of every scene key under the prefix, from a start revision, for a plain thread:
/// `start` returns at once; events arrive on `deliver`, called from a task in etcd's order,
/// which must only hand them on (the daemon posts them to its loop). A broken stream is
/// opened again from the revision after the last one delivered, so nothing is skipped or
/// repeated; a compacted start revision becomes `.resync`.
public final class SceneWatch: Sendable {
    private let task: Locked<Task<Void, Never>?>

    public init(
        client: EtcdClient, keys: ClusterKeys, fromRevision: Int64,
        deliver: @escaping @Sendable ([SceneWatchEvent], _ revision: Int64) -> Void
    ) {
        task = Locked(nil)
        let started = Task.detached {
            let next = Locked(fromRevision)
            while !Task.isCancelled {
                do throws(EtcdError) {
                    try await client.watch(prefix: keys.everything, fromRevision: next.withLock { $0 }) { response in
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
