import Glibc

/// The conditions of a run: CPUs, CPU model, memory, file system and load.
enum MachineInfo {
    static func describe(directory: String) -> String {
        let cpus = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        let model =
            (readFile("/proc/cpuinfo") ?? "").split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingSpaces() } ?? "unknown"
        let memory =
            (readFile("/proc/meminfo") ?? "").split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .map { String($0.dropFirst("MemTotal:".count)).trimmingSpaces() } ?? "unknown"
        let load = (readFile("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: " ")
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return """
            CPUs online: \(cpus); CPU: \(model); memory: \(memory); kernel \(kernel)
            work folder: \(directory) (\(FsyncProbe.fileSystem(of: directory)))
            load average at start: \(load)
            """
    }

    /// The 1-minute load average.
    static func loadAverage() -> Double {
        Double((readFile("/proc/loadavg") ?? "").split(separator: " ").first ?? "") ?? .nan
    }
}
