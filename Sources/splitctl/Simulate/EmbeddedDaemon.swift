import Foundation
import SplitLaunch

/// `simulate --embedded`: the `splitd` binary installed next to this splitctl, started as a
/// child process on a temporary socket with a temporary SQLite database, so scenarios travel
/// the same socket and protocol as against a running daemon. Stopped (gracefully) and
/// deleted by `stop()`.
final class EmbeddedDaemon {
    /// About 4 MB of WAL (4 KiB pages): the WAL is zero-filled to 1.5 checkpoint cycles at
    /// open, 94 MiB by default, a waste for a few hundred short scenes.
    static let walCheckpointPages = 1000

    private let daemon: DaemonProcess
    var socketPath: String { daemon.socketPath }

    /// Starts the daemon and waits until it listens; throws when it is missing or refuses to start.
    init(readyWithin seconds: Int = 30) throws {
        let binary = try Self.splitdNextToSplitctl()
        // $TMPDIR like other temporary files (tests watch their own), else /tmp.
        var launch = DaemonProcess.Launch(
            binary: binary,
            directory: try DaemonProcess.makeTemporaryDirectory(prefix: "splitctl-sim"))
        launch.removesDirectory = true
        launch.socketName = "splitd.sock"
        launch.databaseName = "splitd.db"
        launch.durability = nil
        launch.environment = [
            "SPLITD_LOG_LEVEL": "error",
            "SPLITD_DATABASE_WAL_CHECKPOINT_PAGES": String(Self.walCheckpointPages),
        ]
        // Built-in defaults, as the daemon a scenario's golden files were recorded with: no
        // configuration of the caller's (file, variables, systemd's sockets) applies.
        let environment = ProcessInfo.processInfo.environment
        launch.unsetting =
            environment.keys.filter { $0.hasPrefix("SPLITD_") }
            + [
                "CONFIGURATION_DIRECTORY", "STATE_DIRECTORY", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES",
                "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID",
            ]
        do {
            daemon = try DaemonProcess(launch, readyWithin: .seconds(seconds))
        } catch {
            throw EmbeddedDaemonError("the embedded splitd did not start: \(error)")
        }
    }

    /// The `splitd` in the directory of the running splitctl executable.
    static func splitdNextToSplitctl() throws -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let binary = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("splitd").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw EmbeddedDaemonError(
                "simulate --embedded runs the splitd next to splitctl, and there is none: "
                    + "\(binary) is missing or not executable (install splitd beside splitctl, "
                    + "or run against a daemon with --socket)")
        }
        return binary
    }

    /// Stops the daemon as SIGTERM does, waits for it to close its database, then deletes
    /// the temporary directory.
    func stop() {
        daemon.terminate(timeout: .seconds(30))
        try? FileManager.default.removeItem(atPath: daemon.directory)
    }
}

struct EmbeddedDaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
