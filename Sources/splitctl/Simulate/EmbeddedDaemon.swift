import Foundation
import Logging
import SplitServer
#if canImport(Glibc)
import Glibc
#endif

/// `simulate --embedded`: the real splitd daemon on a thread of this process, listening on a
/// temporary socket with a temporary SQLite database, so scenarios travel the same socket and
/// protocol as against a running daemon. Stopped (gracefully) and deleted by `stop()`.
final class EmbeddedDaemon: Sendable {
    /// About 4 MB of WAL (4 KiB pages).
    static let walCheckpointPages: Int32 = 1000

    let directory: String
    let socketPath: String
    private let control = DaemonControl()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the daemon and waits until it listens; throws when it refuses to start.
    init(readyWithin seconds: Double = 30) throws {
        // $TMPDIR like other temporary files (tests watch their own), else /tmp.
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(temporary)/splitctl-sim-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw EmbeddedDaemonError("cannot create a temporary directory") }
        directory = String(cString: made)
        socketPath = directory + "/splitd.sock"
        // A daemon thread writing to a client that went away must get EPIPE, not kill us.
        signal(SIGPIPE, SIG_IGN)

        var settings = ServerSettings(socketPath: socketPath, databasePath: directory + "/splitd.db")
        settings.logLevel = .error
        // The WAL is zero-filled to 1.5 checkpoint cycles at open: 24000 pages (94 MiB) by
        // default, a waste for a few hundred short scenes and what a crash would leave behind.
        settings.walCheckpointPages = Self.walCheckpointPages
        var logger = Logger(label: "splitd.embedded", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .error
        let control = control, finished = finished, daemonSettings = settings, daemonLogger = logger
        let thread = Thread {
            _ = Daemon.run(settings: daemonSettings, logger: daemonLogger, environment: [:], configReloader: nil, demo: nil,
                           store: nil, control: control, handleSignals: false)
            finished.signal()
        }
        thread.name = "splitd (embedded)"
        thread.start()
        guard control.waitUntilReady(timeout: seconds) else {
            stop()
            throw EmbeddedDaemonError("the embedded splitd did not start (see the messages above)")
        }
    }

    /// Stops the daemon as SIGTERM would, waits for it to close its database, then deletes
    /// the temporary directory.
    func stop() {
        control.stop()
        _ = finished.wait(timeout: .now() + 30)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct EmbeddedDaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
