import Glibc

/// Connects a stream socket to the Unix socket at `path`, retrying while the listener's
/// backlog is full or the daemon is still starting, until `timeout` seconds passed.
/// Answers the file descriptor (blocking), or nil with the last error in `errno`.
func connectUnix(path: String, timeout: Double = 10) -> Int32? {
    let deadline = monotonicNanoseconds() + nanoseconds(seconds: timeout)
    while true {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else {
            Glibc.close(fd)
            errno = ENAMETOOLONG
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if status == 0 { return fd }
        let failure = errno
        Glibc.close(fd)
        guard failure == EAGAIN || failure == ECONNREFUSED || failure == ENOENT,
            monotonicNanoseconds() < deadline
        else {
            errno = failure
            return nil
        }
        sleep(seconds: 0.01)
    }
}

/// Puts `fd` in non-blocking mode.
func makeNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
}

/// The text of `errno`.
func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
