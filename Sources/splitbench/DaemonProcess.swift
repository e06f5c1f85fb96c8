import Foundation
import Glibc

/// A `splitd` the benchmark started itself, on its own socket and database under a work
/// folder, optionally pinned to one CPU with `taskset`.
final class DaemonProcess {
    /// How to start it.
    struct Launch {
        var binary: String
        var directory: String
        var durability: String = "full"
        /// CPU to pin it to (taskset -c); nil: not pinned.
        var cpu: Int?
        /// Extra SPLITD_* settings (e.g. limits for 100k scenes).
        var environment: [String: String] = [:]
        /// Database file name inside `directory` (reuse it to restart on the same data).
        var databaseName = "bench.db"
    }

    let launch: Launch
    let socketPath: String
    let databasePath: String
    let logPath: String
    private let process: Process
    /// When it was spawned (monotonic nanoseconds).
    let spawnedAt: UInt64

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Spawns the daemon; it is not ready yet (see `waitUntilReady`).
    init(_ launch: Launch) throws {
        self.launch = launch
        socketPath = launch.directory + "/splitd.sock"
        databasePath = launch.directory + "/" + launch.databaseName
        logPath = launch.directory + "/splitd.log"
        try FileManager.default.createDirectory(atPath: launch.directory, withIntermediateDirectories: true)
        unlink(socketPath)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        let process = Process()
        var arguments = [launch.binary, "--socket", socketPath, "--database", databasePath,
                         "--durability", launch.durability]
        if let cpu = launch.cpu, let taskset = findExecutable("taskset") {
            process.executableURL = URL(fileURLWithPath: taskset)
            arguments = ["-c", String(cpu)] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: arguments.removeFirst())
        }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in launch.environment { environment[key] = value }
        // A config file in the caller's environment must not change what is measured.
        environment["SPLITD_CONFIG"] = nil
        process.environment = environment
        process.standardError = log
        process.standardOutput = log
        process.standardInput = FileHandle.nullDevice
        spawnedAt = monotonicNanoseconds()
        try process.run()
        self.process = process
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits until the socket answers a `ping`; answers the seconds since the spawn.
    func waitUntilReady(timeout: Double = 30) throws -> Double {
        let deadline = spawnedAt + nanoseconds(seconds: timeout)
        while monotonicNanoseconds() < deadline {
            guard process.isRunning else {
                throw BenchError("splitd exited (status \(process.terminationStatus)) before answering; log: \(logTail())")
            }
            if let client = try? LineClient(path: socketPath, timeout: 0.05),
               (try? client.call(#"{"id":1,"op":"ping"}"#, timeout: max(0.1, Double(deadline - monotonicNanoseconds()) / 1e9))) != nil {
                return Double(monotonicNanoseconds() - spawnedAt) / 1e9
            }
            sleep(seconds: 0.005)
        }
        throw BenchError("splitd did not answer within \(timeout) s; log: \(logTail())")
    }

    /// SIGTERM, then waits for the exit (SIGKILL after `timeout`); answers the exit status.
    @discardableResult
    func stop(timeout: Double = 20) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = monotonicNanoseconds() + nanoseconds(seconds: timeout)
        while process.isRunning && monotonicNanoseconds() < deadline { sleep(seconds: 0.01) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// The last lines of the daemon's log.
    func logTail(_ characters: Int = 800) -> String {
        String((readFile(logPath) ?? "").suffix(characters))
    }
}

/// The first `name` on $PATH.
func findExecutable(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}
