import SplitLoop
import SplitSettings

// Admission by the peer's credentials as SO_PEERCRED gives them (`ServerSettings.admits`).

extension PeerAllowList {
    public func admits(_ peer: PeerCredentials) -> Bool {
        admits(uid: peer.uid, gid: peer.gid)
    }
}

extension ServerSettings {
    /// Whether `peer` may use the daemon (`admits(uid:gid:)`).
    public func admits(_ peer: PeerCredentials) -> Bool {
        admits(uid: peer.uid, gid: peer.gid)
    }
}
