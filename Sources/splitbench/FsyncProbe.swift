import Glibc

/// What one durable flush costs on the file system of a folder: write 4 KiB and
/// `fdatasync`, repeated (the floor under a one-connection durable request, whose commit
/// syncs the SQLite WAL once).
enum FsyncProbe {
    enum Mode: String {
        /// Each write extends the file: the flush also writes the inode's new size.
        case append
        /// Each write lands in blocks the file already has (written and flushed beforehand):
        /// what a commit into a zero-filled or reused WAL costs.
        case overwrite
    }

    /// Measures on CPU `cpu` when one is given (this thread is pinned to `thenCPU`
    /// afterwards): a flush's latency depends on where its waiter runs. On this VM the disk's
    /// completion interrupt goes to CPU 1, and a flush waited for on CPU 0 took 35-60 µs
    /// longer (a wake-up sent across CPUs): the daemon, pinned to CPU 0, pays that on every
    /// flush, so its flushes are compared with a probe on its CPU.
    static func measure(directory: String, count: Int = 200, mode: Mode = .append, onCPU cpu: Int?,
                        thenCPU: Int?) throws -> LatencySummary {
        if let cpu { pinCurrentThread(to: cpu) }
        defer { if cpu != nil, let thenCPU { pinCurrentThread(to: thenCPU) } }
        return try measure(directory: directory, count: count, mode: mode)
    }

    static func measure(directory: String, count: Int = 200, mode: Mode = .append) throws -> LatencySummary {
        let path = directory + "/fsync-probe"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("open \(path): \(errnoText())") }
        defer {
            close(fd)
            unlink(path)
        }
        let page = [UInt8](repeating: 0x78, count: 4096)
        if mode == .overwrite {
            for index in 0..<count {
                let written = page.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(index * 4096)) }
                guard written == page.count else { throw BenchError("write: \(errnoText())") }
            }
            guard fsync(fd) == 0 else { throw BenchError("fsync: \(errnoText())") }
        }
        var latencies = Latencies()
        for index in 0..<count {
            let started = monotonicNanoseconds()
            let written = page.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(index * 4096)) }
            guard written == page.count, fdatasync(fd) == 0 else { throw BenchError("write/fdatasync: \(errnoText())") }
            latencies.record(monotonicNanoseconds() - started)
        }
        return latencies.summary()
    }

    /// The file system type of `directory`, from the longest mount point containing it in
    /// /proc/mounts (to warn about tmpfs, where a flush costs nothing).
    static func fileSystem(of directory: String) -> String {
        var best = ("", "unknown")
        for line in (readFile("/proc/mounts") ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let mountPoint = String(fields[1])
            let contains = directory == mountPoint || directory.hasPrefix(mountPoint == "/" ? "/" : mountPoint + "/")
            if contains && mountPoint.count >= best.0.count { best = (mountPoint, String(fields[2])) }
        }
        return best.1
    }
}
