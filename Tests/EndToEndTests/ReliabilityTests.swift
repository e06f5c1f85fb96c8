import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import Testing

// docs/RELIABILITY.md: what the fault, hostile-client and access tests share, and
// the suite that runs the crash-consistency tool on the binaries under test.

/// Probes for what the reliability tests need from the machine; a test whose needs are not
/// met is skipped with the reason, never passed silently.
enum Machine {
    static var isRoot: Bool { getuid() == 0 }

    static var hasPython: Bool {
        (try? runCommand("/usr/bin/env", ["python3", "-c", "import sqlite3"]))?.exitCode == 0
    }

    /// Scripts/sanitizers runs the suite against ASan/TSan binaries, whose runtimes inflate
    /// RSS (quarantine, shadow memory): memory bounds are checked on plain builds only.
    static var binariesAreSanitized: Bool { ProcessInfo.processInfo.environment["SPLITD_SANITIZED"] != nil }

    static var hasSetpriv: Bool { isRoot && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    /// Root may mount a small tmpfs (not in every container).
    static let canMountTmpfs: Bool = {
        guard isRoot, let directory = try? makeTemporaryDirectory(prefix: "splitd-probe-mount") else { return false }
        defer { removeDirectory(directory) }
        guard (try? runCommand("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]))?.exitCode == 0
        else {
            return false
        }
        _ = try? runCommand("/bin/umount", [directory])
        return true
    }()

    /// The temporary directory's file system honours `chattr +i` on files already open
    /// (ext4, xfs, btrfs; not tmpfs or overlayfs).
    static let canMakeImmutable: Bool = {
        guard isRoot, let directory = try? makeTemporaryDirectory(prefix: "splitd-probe-chattr") else { return false }
        defer { removeDirectory(directory) }
        let file = directory + "/probe"
        let fd = open(file, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard (try? runCommand("/usr/bin/chattr", ["+i", file]))?.exitCode == 0 else { return false }
        let written = write(fd, "x", 1)
        _ = try? runCommand("/usr/bin/chattr", ["-i", file])
        return written < 0
    }()
}

/// Runs `body` on a new temporary directory with a tmpfs of `size` (`8m`) mounted on it,
/// unmounted (lazily: a killed daemon may still hold it) and removed after.
func withTmpfs<T>(size: String, prefix: String, _ body: (String) throws -> T) throws -> T {
    let directory = try makeTemporaryDirectory(prefix: prefix)
    try shell("mount -t tmpfs -o size=\(size),mode=0700 tmpfs '\(directory)'")
    defer {
        _ = try? shell("umount -l '\(directory)'")
        removeDirectory(directory)
    }
    return try body(directory)
}

/// Runs `command` with /bin/sh; throws unless it exits 0.
@discardableResult
func shell(_ command: String, timeout: Duration = .seconds(60)) throws -> CommandOutput {
    let output = try runCommand("/bin/sh", ["-c", command], timeout: timeout)
    guard output.exitCode == 0 else {
        throw HarnessError("`\(command)` failed: \(output.termination)\n\(output.stderr)")
    }
    return output
}

/// Resident memory of a process in KiB (/proc/PID/status VmRSS).
func residentKiB(of pid: pid_t) -> Int {
    for line in readText("/proc/\(pid)/status").split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// A file's exact bytes (nil if unreadable), to prove a refused file was left alone.
func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map(Array.init)
}

/// Runs splitd to completion (for starts that must be refused) with a deadline.
func runSplitd(_ arguments: [String], timeout: Duration = .seconds(30)) throws -> CommandOutput {
    try runCommand(Binaries.splitd, arguments, timeout: timeout)
}

/// Another process holding SQLite's write lock on a database (`BEGIN EXCLUSIVE`) until
/// released: what a backup tool or a careless `sqlite3` session does.
final class DatabaseLockHolder {
    private let child: ChildProcess
    private let directory: String

    init(database: String) throws {
        directory = try makeTemporaryDirectory(prefix: "splitd-lock")
        let ready = directory + "/locked"
        let script = """
            import sqlite3, time
            c = sqlite3.connect(\(pythonString(database)), isolation_level=None, timeout=10)
            c.execute("BEGIN EXCLUSIVE")
            open(\(pythonString(ready)), "w").write("locked")
            time.sleep(600)
            """
        child = try ChildProcess(
            "/usr/bin/env", ["python3", "-c", script],
            stdoutPath: directory + "/out", stderrPath: directory + "/err")
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while !FileManager.default.fileExists(atPath: ready) {
            if let ended = child.pollExit() {
                throw HarnessError("the lock holder ended (\(ended)): \(readText(directory + "/err"))")
            }
            guard ContinuousClock.now < deadline else {
                child.killHard()
                throw HarnessError("the lock holder did not get the lock within 30 s")
            }
            usleep(10_000)
        }
    }

    /// Ends the holder; the kernel drops its locks with it.
    func release() {
        child.killHard()
        removeDirectory(directory)
    }

    deinit { release() }
}

private func pythonString(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
}

extension EndToEnd {
    /// Promise 1: nothing acknowledged is lost when splitd is killed (Scripts/crashtest, a
    /// few rounds here; 100 by hand).
    @Suite struct Reliability {
        @Test(.enabled(if: Machine.hasPython, "needs python3 with sqlite3"))
        func acknowledgedChangesSurviveSIGKILL() throws {
            let output = try runCommand(
                "/usr/bin/env",
                [
                    "python3", Binaries.packageRoot + "/Scripts/crashtest", "--rounds", "3", "--clients", "8",
                    "--bin", Binaries.directory, "--max-load", "1.0",
                ], timeout: .seconds(150))
            #expect(output.exitCode == 0, "\(output.stdout)\n\(output.stderr)")
            #expect(output.stdout.contains(" 0 losses, 0 failures"), "\(output.stdout)")
        }
    }
}
