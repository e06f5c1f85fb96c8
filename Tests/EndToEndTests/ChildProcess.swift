import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a `waitpid` status (the WIFEXITED/WEXITSTATUS macros are not visible from Swift).
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    var description: String {
        switch self {
        case let .exited(code): "exit \(code)"
        case let .signaled(signal): "signal \(signal)"
        }
    }
}

/// A spawned process whose stdout and stderr go to files. Every wait has a deadline.
final class ChildProcess {
    let pid: pid_t
    let executable: String
    private(set) var termination: Termination?

    /// Spawns `executable` with `arguments`; `environment` entries override the inherited ones.
    /// `stdin` nil means /dev/null.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
         stdoutPath: String, stderrPath: String, stdinPath: String? = nil) throws {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw HarnessError("cannot spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    var isRunning: Bool { pollExit() == nil }

    /// Reaps the child if it has exited; nil while it runs.
    @discardableResult
    func pollExit() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { termination = Termination(waitStatus: status) }
        return termination
    }

    /// Waits for the child to end; nil if it still runs after `timeout`.
    func wait(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if let ended = pollExit() { return ended }
            usleep(5_000)
        }
        return pollExit()
    }

    func signal(_ number: Int32) {
        if termination == nil { _ = kill(pid, number) }
    }

    /// SIGKILL and reap (bounded: SIGKILL cannot be caught).
    func killHard() {
        signal(SIGKILL)
        _ = wait(timeout: .seconds(10))
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The result of running a command to completion.
struct CommandOutput {
    var termination: Termination
    var stdout: String
    var stderr: String

    var exitCode: Int32? {
        if case let .exited(code) = termination { return code }
        return nil
    }

    /// stdout's non-empty lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs `executable` to completion with a deadline (killed and reported past it).
func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                stdinText: String? = nil, timeout: Duration = .seconds(30)) throws -> CommandOutput {
    let directory = try makeTemporaryDirectory(prefix: "splitctl-run")
    defer { removeDirectory(directory) }
    let outPath = directory + "/stdout", errPath = directory + "/stderr"
    var inPath: String?
    if let stdinText {
        inPath = directory + "/stdin"
        try stdinText.write(toFile: inPath!, atomically: true, encoding: .utf8)
    }
    let child = try ChildProcess(executable, arguments, environment: environment,
                                 stdoutPath: outPath, stderrPath: errPath, stdinPath: inPath)
    guard let termination = child.wait(timeout: timeout) else {
        child.killHard()
        throw HarnessError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout)")
    }
    return CommandOutput(termination: termination, stdout: readText(outPath), stderr: readText(errPath))
}

func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
    // mkdtemp's 0700 goes through the umask, which in-process daemons of other tests narrow
    // for a moment around their socket's bind (0177: a directory made then has no search bit,
    // and a daemon run as another user could not reach its own socket path).
    guard chmod(made, 0o700) == 0 else { throw HarnessError("chmod of \(String(cString: made)) failed: errno \(errno)") }
    return String(cString: made)
}

func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
