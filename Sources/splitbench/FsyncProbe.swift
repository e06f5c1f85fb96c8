import CLinuxShims
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

    /// Measures on CPU `cpu` when one is given, then gives this thread back the CPUs it had: a
    /// flush's latency depends on where its waiter runs. When the disk's completion interrupt
    /// goes to another CPU, a flush waited for here takes longer (a wake-up sent across CPUs,
    /// maybe to a halted vCPU): the daemon, pinned to its CPU, pays that on every flush, so
    /// its flushes are compared with a probe on its CPU.
    static func measure(
        directory: String, count: Int = 200, mode: Mode = .append, onCPU cpu: Int?
    ) throws -> LatencySummary {
        guard let cpu else { return try measure(directory: directory, count: count, mode: mode) }
        var saved = [UInt64](repeating: 0, count: 16)
        let restorable = splitd_get_affinity(&saved) == 0
        pinCurrentThread(to: cpu)
        defer { if restorable { _ = splitd_set_affinity(saved) } }
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
