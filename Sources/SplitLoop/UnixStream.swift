import Glibc

/// Every use in SplitServer of glibc's socket enum constants (`SOCK_*`, `MSG_*`), in a file
/// that imports Glibc alone. CLibUV's headers include <sys/socket.h> too, and in a release
/// (whole-module) build a constant used both from a file importing CLibUV and from one
/// importing only Glibc was found by one of them only ("cannot find 'SOCK_STREAM' in
/// scope"): keep them all here.
public enum UnixStream {
    /// A new Unix stream socket (close-on-exec), or -1.
    public static func makeSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    public static func receiveWithoutWaiting(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
    }

    /// A connected pair of Unix stream sockets (close-on-exec), or nil.
    public static func makeSocketPair() -> (Int32, Int32)? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return nil
        }
        return (fds[0], fds[1])
    }

    /// A new Unix datagram socket (close-on-exec), or -1.
    public static func makeDatagramSocket() -> Int32 {
        socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// The `SO_TYPE` value of a stream socket.
    public static var streamType: Int32 { Int32(SOCK_STREAM.rawValue) }

    /// `sendto` that does not raise SIGPIPE.
    public static func sendDatagram(
        _ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int,
        to address: UnsafePointer<sockaddr>?, _ length: socklen_t
    ) -> Int {
        sendto(fd, bytes, count, Int32(MSG_NOSIGNAL), address, length)
    }

    /// `send` that neither blocks nor raises SIGPIPE.
    public static func sendWithoutWaiting(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
    }
}
