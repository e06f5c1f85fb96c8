import ArgumentParser
import CLinuxShims
import Foundation
import Glibc

/// How a load command reaches a daemon: an existing one (`--socket`, `--pid`), or a fresh one
/// it starts itself from `--splitd` on a new socket and database under `--work-dir`.
struct DaemonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Target the daemon listening here instead of starting one.", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp("With --socket: the daemon's pid, to report its CPU and memory.", valueName: "pid"))
    var pid: Int32?

    @Option(help: ArgumentHelp("splitd binary to start (default: next to splitbench).", valueName: "path"))
    var splitd: String?

    @Option(
        help: ArgumentHelp("Folder for sockets and databases; must not be tmpfs for durable runs.", valueName: "dir"))
    var workDir: String = "bench-out"

    @Option(help: ArgumentHelp("Durability of a started daemon.", valueName: "full|normal"))
    var durability: String = "full"

    @Option(help: ArgumentHelp("CPU to pin a started daemon to (-1: none).", valueName: "cpu"))
    var serverCPU: Int = 0

    @Option(help: ArgumentHelp("CPU to pin this load generator to (-1: none).", valueName: "cpu"))
    var clientCPU: Int = 1

    /// The splitd binary to start.
    var splitdBinary: String {
        if let splitd { return splitd }
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("splitd").path
    }

    /// A launch description for a fresh daemon in a new folder under the work folder.
    func launch(
        named name: String, durability: String? = nil, environment: [String: String] = [:]
    ) -> DaemonProcess.Launch {
        DaemonProcess.Launch(
            binary: splitdBinary, directory: freshDirectory(name),
            durability: durability ?? self.durability,
            cpu: serverCPU >= 0 ? serverCPU : nil, environment: environment)
    }

    func freshDirectory(_ name: String) -> String {
        let base = URL(fileURLWithPath: workDir).standardizedFileURL.path
        let directory = "\(base)/\(name)-\(getpid())-\(monotonicNanoseconds() % 1_000_000_000)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    func pinClient() {
        if clientCPU >= 0 { pinCurrentThread(to: clientCPU) }
    }

    /// Runs `body` against the targeted daemon, or against a fresh one it starts and stops.
    func withDaemon<T>(
        named name: String, durability: String? = nil, environment: [String: String] = [:],
        _ body: (_ socket: String, _ pid: Int32?) throws -> T
    ) throws -> T {
        if let socket { return try body(socket, pid) }
        let daemon = try DaemonProcess(launch(named: name, durability: durability, environment: environment))
        defer {
            daemon.stop()
            removeDirectory(daemon.launch.directory)
        }
        _ = try daemon.waitUntilReady()
        return try body(daemon.socketPath, daemon.pid)
    }
}

/// Restricts the calling thread to one CPU (what `taskset -c` does for a process; threads and
/// processes started from it later inherit it).
func pinCurrentThread(to cpu: Int) {
    if splitd_pin_to_cpu(Int32(cpu)) != 0 {
        FileHandle.standardError.write(Data("splitbench: cannot pin to CPU \(cpu): \(errnoText())\n".utf8))
    }
}

/// Deletes a benchmark's scratch folder (sockets, databases, logs).
func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
