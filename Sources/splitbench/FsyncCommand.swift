import ArgumentParser
import Foundation

/// `splitbench fsync`: the cost of one durable flush where the databases live.
struct FsyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fsync", abstract: "Latency of 4 KiB append + fdatasync in the work folder.")

    @Option(help: ArgumentHelp("Folder to probe.", valueName: "dir"))
    var workDir = "bench-out"

    @Option(help: "Flushes.")
    var count = 200

    func run() throws {
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        let workDir = URL(fileURLWithPath: workDir).standardizedFileURL.path
        let summary = try FsyncProbe.measure(directory: workDir, count: count)
        print("fsync (\(FsyncProbe.fileSystem(of: workDir)), 4 KiB + fdatasync, \(count) times): p50 \(fixed(summary.p50, 0)) µs, "
            + "p99 \(fixed(summary.p99, 0)) µs, max \(fixed(summary.max, 0)) µs")
    }
}
