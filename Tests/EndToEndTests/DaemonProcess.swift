import Foundation
import SplitClient
#if canImport(Glibc)
import Glibc
#endif

/// The real `splitd` binary on a temporary socket and database, for end-to-end tests.
/// Every wait is bounded; the log (stdout + stderr) is kept in a file and shown on failure.
final class DaemonProcess {
    let directory: String
    let socketPath: String
    let databasePath: String
    let logPath: String
    let durability: String
    let extraArguments: [String]
    let environment: [String: String]
    private(set) var process: ChildProcess?
    /// How many times the daemon was started (restarts included).
    private(set) var starts = 0

    /// Starts `splitd --socket DIR/s.sock --database DIR/d.db --durability D` and waits until
    /// the socket accepts connections.
    init(durability: String = "full", extraArguments: [String] = [], environment: [String: String] = [:],
         directory: String? = nil) throws {
        self.directory = try directory ?? makeTemporaryDirectory(prefix: "splitd-e2e")
        socketPath = self.directory + "/s.sock"
        databasePath = self.directory + "/d.db"
        logPath = self.directory + "/splitd.log"
        self.durability = durability
        self.extraArguments = extraArguments
        self.environment = environment
        try start()
    }

    deinit {
        process?.killHard()
        removeDirectory(directory)
    }

    var arguments: [String] {
        ["--socket", socketPath, "--database", databasePath, "--durability", durability] + extraArguments
    }

    /// Spawns the daemon and waits (up to `within`) for its socket to accept a connection.
    func start(within: Duration = .seconds(20)) throws {
        guard FileManager.default.isExecutableFile(atPath: Binaries.splitd) else {
            throw HarnessError("no splitd binary at \(Binaries.splitd): build it and set SPLITD_BIN_DIR")
        }
        appendToLog("--- start #\(starts + 1): splitd \(arguments.joined(separator: " "))\n")
        let child = try ChildProcess(Binaries.splitd, arguments, environment: environment,
                                     stdoutPath: logPath, stderrPath: logPath)
        process = child
        starts += 1
        let deadline = ContinuousClock.now.advanced(by: within)
        while true {
            if let ended = child.pollExit() {
                throw HarnessError("splitd ended during start-up (\(ended))\n\(logTail())")
            }
            if let probe = try? UnixSocket.connect(path: socketPath, deadline: .after(.seconds(1))) {
                probe.close()
                return
            }
            if ContinuousClock.now >= deadline {
                child.killHard()
                throw HarnessError("splitd did not accept connections within \(within)\n\(logTail())")
            }
            usleep(20_000)
        }
    }

    /// A new connection (not yet greeted).
    func connect(timeout: Duration = .seconds(10)) throws -> SplitConnection {
        try SplitConnection.connect(to: socketPath, timeout: timeout)
    }

    /// A new connection that has completed `hello`.
    func client(_ name: String = "e2e", timeout: Duration = .seconds(10)) throws -> SplitConnection {
        let connection = try connect(timeout: timeout)
        try connection.hello(client: name)
        return connection
    }

    /// SIGTERM, then waits for the exit; answers how it ended (nil: still running after `timeout`).
    func terminate(timeout: Duration = .seconds(15)) -> Termination? {
        guard let process else { return nil }
        process.signal(SIGTERM)
        let ended = process.wait(timeout: timeout)
        if ended == nil { process.killHard() }
        self.process = nil
        return ended
    }

    /// SIGKILL: no chance to flush anything that is not already durable.
    func kill9() {
        process?.killHard()
        process = nil
    }

    /// kill -9 then start again on the same database and socket path.
    func crashAndRestart() throws {
        kill9()
        try start()
    }

    /// SIGTERM (expecting exit 0) then start again on the same database.
    func stopAndRestart() throws {
        let ended = terminate()
        guard ended == .exited(0) else {
            throw HarnessError("splitd did not exit 0 on SIGTERM: \(ended.map(\.description) ?? "still running")\n\(logTail())")
        }
        try start()
    }

    /// True while the process runs.
    var isRunning: Bool { process?.isRunning ?? false }

    var log: String { readText(logPath) }

    /// The last `lines` lines of the log, framed for a failure message.
    func logTail(lines: Int = 60) -> String {
        let tail = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "--- splitd log (\(logPath)) ---\n" + tail.joined(separator: "\n")
    }

    private func appendToLog(_ text: String) {
        guard let handle = FileHandle(forWritingAtPath: logPath) ?? {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            return FileHandle(forWritingAtPath: logPath)
        }() else { return }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try? handle.close()
    }
}
