/// Where cluster mode keeps scenes in etcd, under one prefix (default `/splitd/`).
///
/// Per scene (its id escaped so that it holds no `/`):
/// - `owner/<scene>`: the owning node's name, bound to its lease. Its create revision is
///   the fencing token: a new owner's key always has a higher one.
/// - `head/<scene>`: the scene's last revision and device. Every write transaction of the
///   scene puts it and compares its mod revision, so two writers can never both continue
///   from the same head.
/// - `checkpoint/<scene>`: the full state at a revision.
/// - `journal/<scene>/<revision, 20 digits>`: each change above the checkpoint. The key is
///   a function of (scene, revision) only, so a retried write of the same record is
///   idempotent; the checkpoint's transaction deletes the entries it covers.
/// - `session/<scene>/<number, 20 digits>` and `session-id/<id>`: snapshot sessions.
/// - `meta/<key>`, `node/<name>`: daemon values and node registrations.
/// - `inbox/<scene>/<request>`: a change another node forwarded to the scene's owner (the
///   request line as its client sent it), bound to the sender's lease. `<request>` is
///   `<node>/<lease, hex>-<counter>`: unique to the sending registration.
/// - `reply/<request>`: the owner's answer to a forwarded request, put in the transaction
///   that deletes its inbox key (so it is applied and answered exactly once); the sender
///   deletes it once read.
public struct ClusterKeys: Sendable, Hashable {
    public let prefix: String

    public init(prefix: String = "/splitd/") {
        self.prefix = prefix.hasSuffix("/") ? prefix : prefix + "/"
    }

    /// `%` and `/` percent-encoded: a scene id is one key segment.
    public static func escape(_ scene: String) -> String {
        var out = ""
        out.reserveCapacity(scene.utf8.count)
        for ch in scene.unicodeScalars {
            switch ch {
            case "%": out += "%25"
            case "/": out += "%2F"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    public static func unescape(_ segment: Substring) -> String {
        segment.replacingOccurrences(of: "%2F", with: "/").replacingOccurrences(of: "%25", with: "%")
    }

    static func padded(_ n: Int64) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    public func owner(_ scene: String) -> [UInt8] { Array((prefix + "owner/" + Self.escape(scene)).utf8) }
    public func head(_ scene: String) -> [UInt8] { Array((prefix + "head/" + Self.escape(scene)).utf8) }
    public func checkpoint(_ scene: String) -> [UInt8] { Array((prefix + "checkpoint/" + Self.escape(scene)).utf8) }
    public func journalPrefix(_ scene: String) -> [UInt8] {
        Array((prefix + "journal/" + Self.escape(scene) + "/").utf8)
    }
    public func journal(_ scene: String, _ revision: Int64) -> [UInt8] {
        journalPrefix(scene) + Array(Self.padded(revision).utf8)
    }
    public func sessionPrefix(_ scene: String) -> [UInt8] {
        Array((prefix + "session/" + Self.escape(scene) + "/").utf8)
    }
    public func session(_ scene: String, _ number: Int64) -> [UInt8] {
        sessionPrefix(scene) + Array(Self.padded(number).utf8)
    }
    public func sessionID(_ id: String) -> [UInt8] { Array((prefix + "session-id/" + id).utf8) }
    public func meta(_ key: String) -> [UInt8] { Array((prefix + "meta/" + key).utf8) }
    public func node(_ name: String) -> [UInt8] { Array((prefix + "node/" + Self.escape(name)).utf8) }
    public func inboxPrefix(_ scene: String) -> [UInt8] { Array((prefix + "inbox/" + Self.escape(scene) + "/").utf8) }
    public func inbox(_ scene: String, request: String) -> [UInt8] { inboxPrefix(scene) + Array(request.utf8) }
    public func reply(_ request: String) -> [UInt8] { Array((prefix + "reply/" + request).utf8) }
    public func replyPrefix(node: String) -> [UInt8] { Array((prefix + "reply/" + Self.escape(node) + "/").utf8) }
    /// A new forwarding id of a node's registration (`inbox/` and `reply/` keys).
    public static func forwardRequest(node: String, lease: Int64, counter: Int64) -> String {
        escape(node) + "/" + String(lease, radix: 16) + "-" + String(counter)
    }
    public var allOwners: [UInt8] { Array((prefix + "owner/").utf8) }
    public var allHeads: [UInt8] { Array((prefix + "head/").utf8) }
    public var allCheckpoints: [UInt8] { Array((prefix + "checkpoint/").utf8) }
    public var allJournals: [UInt8] { Array((prefix + "journal/").utf8) }
    public var everything: [UInt8] { Array(prefix.utf8) }

    /// The scene named by a `head/`, `checkpoint/` or `owner/` key, nil for other keys.
    public func scene(ofSceneKey key: [UInt8]) -> String? {
        guard let text = String(validating: key, as: UTF8.self), text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        for kind in ["head/", "checkpoint/", "owner/"] where rest.hasPrefix(kind) {
            return Self.unescape(rest.dropFirst(kind.count))
        }
        return nil
    }

    /// The scene and revision of a `journal/` key.
    public func journalEntry(ofKey key: [UInt8]) -> (scene: String, revision: Int64)? {
        guard let text = String(validating: key, as: UTF8.self), text.hasPrefix(prefix + "journal/") else { return nil }
        let rest = text.dropFirst(prefix.count + "journal/".count)
        guard let slash = rest.lastIndex(of: "/"), let revision = Int64(rest[rest.index(after: slash)...]) else {
            return nil
        }
        return (Self.unescape(rest[..<slash]), revision)
    }

    /// The scene and forwarding id of an `inbox/` key.
    public func inboxEntry(ofKey key: [UInt8]) -> (scene: String, request: String)? {
        guard let text = String(validating: key, as: UTF8.self), text.hasPrefix(prefix + "inbox/") else { return nil }
        let rest = text.dropFirst(prefix.count + "inbox/".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let request = rest[rest.index(after: slash)...]
        guard request.contains("/") else { return nil }
        return (Self.unescape(rest[..<slash]), String(request))
    }

    /// The forwarding id of a `reply/` key.
    public func replyRequest(ofKey key: [UInt8]) -> String? {
        guard let text = String(validating: key, as: UTF8.self), text.hasPrefix(prefix + "reply/") else { return nil }
        let request = text.dropFirst(prefix.count + "reply/".count)
        return request.contains("/") ? String(request) : nil
    }

    /// etcd's range end for "every key starting with `prefix`": the prefix with its last
    /// byte below 0xff incremented (etcd's `clientv3.GetPrefixRangeEnd`).
    public static func rangeEnd(ofPrefix prefix: [UInt8]) -> [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xff {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0]
    }
}
