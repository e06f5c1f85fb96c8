import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `splitd` child process on its own socket and database: the one way splitctl
/// (`simulate --embedded`), splitbench and the end-to-end tests start a daemon. stdout and
/// stderr go to a log file kept for failure messages; every wait is bounded.
public final class DaemonProcess {
    /// How to start it.
    public struct Launch: Sendable {
        /// The splitd executable.
        public var binary: String
        /// Holds the socket, the database and the log; nil: a new temporary directory.
        public var directory: String?
        /// Whether the directory is removed when the `DaemonProcess` goes away (always for
        /// a temporary one).
        public var removesDirectory = false
        public var socketName = "s.sock"
        public var databaseName = "d.db"
        public var logName = "splitd.log"
        /// `--durability`; nil: the daemon's configured one.
        public var durability: String? = "full"
        public var extraArguments: [String] = []
        /// Overrides of the inherited environment (e.g. `SPLITD_*` settings).
        public var environment: [String: String] = [:]
        /// Inherited variables the daemon must not see (e.g. a caller's `SPLITD_CONFIG`).
        public var unsetting: [String] = []
        /// A command run in front of splitd (e.g. `taskset -c 2`), its executable a full path.
        public var launcher: [String] = []

        public init(binary: String, directory: String? = nil) {
            self.binary = binary
            self.directory = directory
        }
    }

    public let launch: Launch
    public let directory: String
    public let socketPath: String
    public let databasePath: String
    public let logPath: String
    private let ownsDirectory: Bool
    public private(set) var process: ChildProcess?
    /// How many times the daemon was started (restarts included).
    public private(set) var starts = 0
    /// When the last start spawned it (monotonic).
    public private(set) var spawnedAt = ContinuousClock.now

    /// Starts the daemon and waits (up to `readyWithin`; nil: not at all, see
    /// `waitUntilAcceptingConnections`) until its socket accepts connections.
    public init(_ launch: Launch, readyWithin: Duration? = .seconds(20)) throws {
        self.launch = launch
        if let directory = launch.directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            self.directory = directory
            ownsDirectory = launch.removesDirectory
        } else {
            directory = try Self.makeTemporaryDirectory(prefix: "splitd")
            ownsDirectory = true
        }
        socketPath = directory + "/" + launch.socketName
        databasePath = directory + "/" + launch.databaseName
        logPath = directory + "/" + launch.logName
        do {
            try spawn()
            if let readyWithin { try waitUntilAcceptingConnections(within: readyWithin) }
        } catch {
            if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
            throw error
        }
    }

    deinit {
        process?.killHard()
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// splitd's arguments.
    public var arguments: [String] {
        ["--socket", socketPath, "--database", databasePath]
            + (launch.durability.map { ["--durability", $0] } ?? []) + launch.extraArguments
    }

    /// Spawns the daemon and waits (up to `within`) for its socket to accept a connection.
    public func start(within: Duration = .seconds(20)) throws {
        try spawn()
        try waitUntilAcceptingConnections(within: within)
    }

    /// Spawns the daemon without waiting for it.
    public func spawn() throws {
        guard FileManager.default.isExecutableFile(atPath: launch.binary) else {
            throw LaunchError("no splitd binary at \(launch.binary)")
        }
        appendToLog("--- start #\(starts + 1): splitd \(arguments.joined(separator: " "))\n")
        let command = launch.launcher + [launch.binary] + arguments
        spawnedAt = .now
        let child = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: launch.environment,
            unsetting: launch.unsetting, stdoutPath: logPath, stderrPath: logPath)
        process = child
        starts += 1
    }

    /// Waits (up to `within`) until the daemon's socket accepts a connection; throws, with
    /// the log's tail, if the daemon ended or the time ran out (the daemon is then killed).
    public func waitUntilAcceptingConnections(within: Duration) throws {
        guard let child = process else { throw LaunchError("splitd is not running") }
        let deadline = ContinuousClock.now.advanced(by: within)
        while true {
            if let ended = child.pollExit() {
                throw LaunchError("splitd ended during start-up (\(ended))\n\(logTail())")
            }
            if Self.acceptsConnections(socketPath) { return }
            if ContinuousClock.now >= deadline {
                child.killHard()
                throw LaunchError("splitd did not accept connections within \(within)\n\(logTail())")
            }
            usleep(20_000)
        }
    }

    /// SIGTERM, then waits for the exit; answers how it ended (nil: still running after
    /// `timeout`, then killed).
    @discardableResult
    public func terminate(timeout: Duration = .seconds(15)) -> Termination? {
        guard let process else { return nil }
        process.signal(SIGTERM)
        let ended = process.wait(timeout: timeout)
        if ended == nil { process.killHard() }
        self.process = nil
        return ended
    }

    /// SIGKILL: no chance to flush anything that is not already durable.
    public func kill9() {
        process?.killHard()
        process = nil
    }

    /// kill -9 then start again on the same database and socket path.
    public func crashAndRestart() throws {
        kill9()
        try start()
    }

    /// SIGTERM (expecting exit 0) then start again on the same database.
    public func stopAndRestart() throws {
        let ended = terminate()
        guard ended == .exited(0) else {
            let how = ended.map(\.description) ?? "still running"
            throw LaunchError("splitd did not exit 0 on SIGTERM: \(how)\n\(logTail())")
        }
        try start()
    }

    /// True while the process runs.
    public var isRunning: Bool { process?.isRunning ?? false }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The last `lines` lines of the log, framed for a failure message.
    public func logTail(lines: Int = 60) -> String {
        let tail = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "--- splitd log (\(logPath)) ---\n" + tail.joined(separator: "\n")
    }

    private func appendToLog(_ text: String) {
        guard
            let handle = FileHandle(forWritingAtPath: logPath)
                ?? {
                    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
                    return FileHandle(forWritingAtPath: logPath)
                }()
        else { return }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try? handle.close()
    }

    /// Whether a Unix stream socket at `path` accepts a connection now.
    public static func acceptsConnections(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        } == 0
    }

    /// A new directory under `$TMPDIR` (else /tmp), mode 0700.
    public static func makeTemporaryDirectory(prefix: String) throws -> String {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(temporary)/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw LaunchError("cannot create a temporary directory in \(temporary)")
        }
        // mkdtemp's 0700 goes through the umask, which an in-process daemon narrows for a
        // moment around its socket's bind (0177: a directory made then has no search bit).
        guard chmod(made, 0o700) == 0 else {
            throw LaunchError("chmod of \(String(cString: made)) failed: errno \(errno)")
        }
        return String(cString: made)
    }
}
