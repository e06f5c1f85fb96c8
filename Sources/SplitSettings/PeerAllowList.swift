import Glibc

/// Which peers may talk to the daemon: a uid or a primary gid on the list lets a peer in.
public struct PeerAllowList: Hashable, Sendable {
    public var uids: Set<UInt32>
    public var gids: Set<UInt32>

    public init(uids: Set<UInt32>, gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// The default: the daemon's own uid and root.
    public static func ownerAndRoot() -> PeerAllowList {
        PeerAllowList(uids: [getuid(), 0])
    }

    /// Whether a peer of user `uid` and primary group `gid` is on the list.
    public func admits(uid: UInt32, gid: UInt32) -> Bool {
        uids.contains(uid) || gids.contains(gid)
    }
}
