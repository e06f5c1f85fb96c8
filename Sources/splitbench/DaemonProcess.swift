import Foundation
import Glibc
import SplitLaunch

/// A `splitd` the benchmark started itself (through SplitLaunch's `DaemonProcess`), on its
/// own socket and database under a work folder, optionally pinned to one CPU with `taskset`.
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
        /// More command-line arguments (e.g. `--cluster`).
        var extraArguments: [String] = []
    }

    let launch: Launch
    private let daemon: SplitLaunch.DaemonProcess

    var socketPath: String { daemon.socketPath }
    var databasePath: String { daemon.databasePath }
    var logPath: String { daemon.logPath }
    var pid: Int32 { daemon.process?.pid ?? -1 }
    var isRunning: Bool { daemon.isRunning }

    /// Spawns the daemon; it is not ready yet (see `waitUntilReady`).
    init(_ launch: Launch) throws {
        self.launch = launch
        var shared = SplitLaunch.DaemonProcess.Launch(binary: launch.binary, directory: launch.directory)
        shared.socketName = "splitd.sock"
        shared.databaseName = launch.databaseName
        shared.durability = launch.durability
        shared.environment = launch.environment
        shared.extraArguments = launch.extraArguments
        // A config file in the caller's environment must not change what is measured.
        shared.unsetting = ["SPLITD_CONFIG"]
        if let cpu = launch.cpu, let taskset = ChildProcess.findExecutable("taskset") {
            shared.launcher = [taskset, "-c", String(cpu)]
        }
        daemon = try SplitLaunch.DaemonProcess(shared, readyWithin: nil)
    }

    /// Waits until the socket answers a `ping`; answers the seconds since the spawn.
    func waitUntilReady(timeout: Double = 30) throws -> Double {
        do {
            try daemon.waitUntilAcceptingConnections(within: .milliseconds(Int64(timeout * 1000)))
        } catch {
            throw BenchError("\(error)")
        }
        let left = max(0.1, timeout - seconds(since: daemon.spawnedAt))
        let client = try LineClient(path: socketPath, timeout: left)
        try client.call(#"{"id":1,"op":"ping"}"#, timeout: left)
        return seconds(since: daemon.spawnedAt)
    }

    /// SIGTERM, then waits for the exit (SIGKILL after `timeout`); answers the exit status.
    @discardableResult
    func stop(timeout: Double = 20) -> Int32 {
        guard daemon.process != nil else { return 0 }
        switch daemon.terminate(timeout: .milliseconds(Int64(timeout * 1000))) {
        case let .exited(code)?: return code
        case let .signaled(number)?: return 128 + number
        case nil: return 128 + SIGKILL
        }
    }

    /// The last lines of the daemon's log.
    func logTail(_ characters: Int = 800) -> String {
        String(daemon.log.suffix(characters))
    }

    private func seconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - instant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The first `name` on $PATH.
func findExecutable(_ name: String) -> String? {
    ChildProcess.findExecutable(name)
}
