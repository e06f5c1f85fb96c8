import Glibc

/// The process on the other end of a Unix socket, as the kernel reports it (SO_PEERCRED).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// Reads the credentials of the peer of a connected Unix socket.
    public static func of(socket fd: Int32) -> PeerCredentials? {
        // struct ucred is hidden behind _GNU_SOURCE in Glibc's Swift overlay: same layout here.
        var cred = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: cred))
        let soPeerCred: Int32 = 17  // SO_PEERCRED on Linux
        let result = withUnsafeMutablePointer(to: &cred) {
            getsockopt(fd, SOL_SOCKET, soPeerCred, $0, &length)
        }
        guard result == 0 else { return nil }
        return PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid)
    }
}
