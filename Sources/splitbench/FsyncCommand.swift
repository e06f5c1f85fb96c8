import ArgumentParser
import Foundation

/// `splitbench fsync`: the cost of one durable flush where the databases live.
struct FsyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fsync",
        abstract: "Latency of 4 KiB write + fdatasync in the work folder, appending and overwriting.")

    @Option(help: ArgumentHelp("Folder to probe.", valueName: "dir"))
    var workDir = "bench-out"

    @Option(help: "Flushes.")
    var count = 200

    @Option(
        help:
            "CPU to run the probe on (-1: where the scheduler puts it). A flush waited for on another CPU than the disk's interrupt takes longer."
    )
    var cpu = -1

    func run() throws {
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        let workDir = URL(fileURLWithPath: workDir).standardizedFileURL.path
        for mode in [FsyncProbe.Mode.append, .overwrite] {
            let summary = try FsyncProbe.measure(
                directory: workDir, count: count, mode: mode, onCPU: cpu >= 0 ? cpu : nil)
            print(
                "fsync (\(FsyncProbe.fileSystem(of: workDir))\(cpu >= 0 ? ", CPU \(cpu)" : ""), 4 KiB \(mode.rawValue) + fdatasync, \(count) times): p50 \(fixed(summary.p50, 0)) µs, "
                    + "p99 \(fixed(summary.p99, 0)) µs, max \(fixed(summary.max, 0)) µs")
        }
    }
}
