import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failure of the test harness itself (not of the daemon under test).
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
func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    stdinText: String? = nil, timeout: Duration = .seconds(30)
) throws -> CommandOutput {
    let directory = try makeTemporaryDirectory(prefix: "splitctl-run")
    defer { removeDirectory(directory) }
    let outPath = directory + "/stdout", errPath = directory + "/stderr"
    var inPath: String?
    if let stdinText {
        inPath = directory + "/stdin"
        try stdinText.write(toFile: inPath!, atomically: true, encoding: .utf8)
    }
    let child = try ChildProcess(
        executable, arguments, environment: environment,
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
    guard chmod(made, 0o700) == 0 else {
        throw HarnessError("chmod of \(String(cString: made)) failed: errno \(errno)")
    }
    return String(cString: made)
}

func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
