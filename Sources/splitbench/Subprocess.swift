import Foundation
import Glibc

/// Runs a program to completion (killed after `timeout`), its output captured in files so a
/// chatty program can never block on a full pipe.
struct Subprocess {
    var status: Int32
    var output: String
    var errorOutput: String
    var timedOut: Bool

    static func run(
        _ executable: String, _ arguments: [String], directory: String? = nil,
        timeout: Double = 120, scratch: String
    ) throws -> Subprocess {
        guard let path = findExecutable(executable) else { throw BenchError("\(executable) not found on PATH") }
        let outPath = scratch + "/subprocess-\(getpid())-\(monotonicNanoseconds()).out"
        let errPath = outPath + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = monotonicNanoseconds() + nanoseconds(seconds: timeout)
        var timedOut = false
        while process.isRunning {
            if monotonicNanoseconds() > deadline {
                kill(process.processIdentifier, SIGKILL)
                timedOut = true
                break
            }
            sleep(seconds: 0.01)
        }
        process.waitUntilExit()
        return Subprocess(
            status: process.terminationStatus, output: readFile(outPath) ?? "",
            errorOutput: readFile(errPath) ?? "", timedOut: timedOut)
    }
}

/// A long-running helper (echo server, Redis) stopped with SIGTERM.
final class Background {
    let process: Process
    var pid: Int32 { process.processIdentifier }

    init(_ executable: String, _ arguments: [String], logPath: String) throws {
        guard let path = findExecutable(executable) else { throw BenchError("\(executable) not found on PATH") }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while process.isRunning && monotonicNanoseconds() < deadline { sleep(seconds: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// `taskset -c CPU` in front of a command line when pinning is asked for and possible.
func pinned(_ cpu: Int?, _ command: [String]) -> [String] {
    guard let cpu, cpu >= 0, findExecutable("taskset") != nil else { return command }
    return ["taskset", "-c", String(cpu)] + command
}
