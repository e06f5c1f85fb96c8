import Glibc

/// CPU time and memory of another process, read from /proc/PID (Linux).
struct ProcessProbe {
    let pid: Int32

    /// User + system CPU seconds the process has used so far; nil once it is gone.
    func cpuSeconds() -> Double? {
        guard let stat = readFile("/proc/\(pid)/stat") else { return nil }
        // Fields after the command name, which is in parentheses and may contain spaces.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size in bytes (VmRSS); nil once the process is gone.
    func residentBytes() -> Int? { statusKilobytes("VmRSS:").map { $0 * 1024 } }

    /// Peak resident set size in bytes (VmHWM).
    func peakResidentBytes() -> Int? { statusKilobytes("VmHWM:").map { $0 * 1024 } }

    private func statusKilobytes(_ key: String) -> Int? {
        guard let status = readFile("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

/// CPU use of a process over an interval, as a percentage of one core.
struct CPUMeter {
    let probe: ProcessProbe
    private var startCPU: Double?
    private var startTime: UInt64 = 0

    init(pid: Int32?) {
        probe = ProcessProbe(pid: pid ?? -1)
    }

    mutating func start() {
        startCPU = probe.cpuSeconds()
        startTime = monotonicNanoseconds()
    }

    /// Percent of one core since `start()`; nil without a process.
    func percent() -> Double? {
        guard let startCPU, let now = probe.cpuSeconds() else { return nil }
        let elapsed = Double(monotonicNanoseconds() - startTime) / 1e9
        return elapsed > 0 ? (now - startCPU) / elapsed * 100 : nil
    }
}

/// The whole content of a small file (procfs, sysfs), or nil.
func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
