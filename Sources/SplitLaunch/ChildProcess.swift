import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a `waitpid` status (the WIFEXITED/WEXITSTATUS macros are not visible from Swift).
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    public var description: String {
        switch self {
        case let .exited(code): "exit \(code)"
        case let .signaled(signal): "signal \(signal)"
        }
    }
}

/// Why a child could not be started or did not become ready.
public struct LaunchError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A spawned process whose stdout and stderr go to files. Every wait has a deadline.
public final class ChildProcess {
    public let pid: pid_t
    public let executable: String
    public private(set) var termination: Termination?

    /// Spawns `executable` with `arguments`; `environment` entries override the inherited
    /// ones and `unsetting` names inherited ones the child must not see. `stdinPath` nil
    /// means /dev/null.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        unsetting: [String] = [], stdoutPath: String, stderrPath: String, stdinPath: String? = nil
    ) throws {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)

        var merged = ProcessInfo.processInfo.environment
        for key in unsetting { merged[key] = nil }
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
            throw LaunchError("cannot spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    public var isRunning: Bool { pollExit() == nil }

    /// Reaps the child if it has exited; nil while it runs.
    @discardableResult
    public func pollExit() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { termination = Termination(waitStatus: status) }
        return termination
    }

    /// Waits for the child to end; nil if it still runs after `timeout`.
    public func wait(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if let ended = pollExit() { return ended }
            usleep(5_000)
        }
        return pollExit()
    }

    public func signal(_ number: Int32) {
        if termination == nil { _ = kill(pid, number) }
    }

    /// SIGKILL and reap (bounded: SIGKILL cannot be caught).
    public func killHard() {
        signal(SIGKILL)
        _ = wait(timeout: .seconds(10))
    }

    /// The first executable `name` on `$PATH` (`name` itself when it holds a slash).
    public static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
