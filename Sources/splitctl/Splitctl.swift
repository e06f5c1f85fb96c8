import ArgumentParser
import Foundation
import SplitSettings
#if canImport(Glibc)
import Glibc
#endif

/// `splitctl`: every op of protocol 1 from the shell.
@main
struct Splitctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitctl",
        abstract: "Drive splitd scenes from the shell.",
        discussion: """
            Talks to splitd over its Unix socket, found as splitd finds it: --socket, else \
            $SPLITD_SOCKET_PATH, else $SPLITD_SOCKET, else socket.path of splitd's config file \
            ($SPLITD_CONFIG, else $CONFIGURATION_DIRECTORY/splitd.json), else \
            $XDG_RUNTIME_DIR/splitd/splitd.sock, else /run/splitd/splitd.sock. Only --socket \
            skips splitd's configuration: an unreadable $SPLITD_CONFIG or an invalid SPLITD_* \
            value exits 78 even when $SPLITD_SOCKET is set.
            Exit codes: 0 ok, 64 usage (splitd not contacted), 65 error response from splitd \
            (or a preset the scene's device lacks), 69 splitd unreachable (or refusing this user, or one client \
            too many), 70 internal error, \
            78 no --socket and splitd's configuration cannot be read.
            """,
        // splitd's own version: the two are built and shipped together.
        version: "\(SplitdVersion.current) (protocol 1)",
        subcommands: [
            Hello.self, Ping.self, Stats.self, Devices.self,
            SceneCommand.self, Resize.self,
            Push.self, Pop.self, PopToRoot.self, Show.self, ShowDetail.self, Back.self,
            SelectTab.self, Present.self, Dismiss.self, SetDisplayMode.self,
            DisplayModeButton.self, Gesture.self, TapDimmed.self, ShowColumn.self,
            HideColumn.self, SetConfig.self, Activation.self,
            SnapshotCommand.self, Watch.self,
            Simulate.self,
            Attach.self,
            Render.self, Sweep.self, Explain.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// `splitctl` alone: the help, as a usage error (exit 64).
    func run() throws { try refuseMissingSubcommand(Self.self) }

    /// ArgumentParser's `main`, with its error text starting `splitctl: PROBLEM` like every
    /// other splitctl error (its help hint follows); an unexpected error is 70, not 1.
    static func main() {
        if let problem = argumentNotUTF8(CommandLine.unsafeArgv, count: Int(CommandLine.argc)) {
            printError(problem)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exitReporting(error)
        }
    }

    private static func exitReporting(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        // --help, --version, completion scripts (code 0) and the ExitCodes of commands, which
        // printed their own line, go ArgumentParser's way.
        if code == .success || error is ExitCode { exit(withError: error) }
        var lines = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        var problem = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst("Error: ".count)) : $0 } ?? ""
        if problem.isEmpty { problem = "\(error)" }
        // "Missing expected argument" -> "missing expected argument", as splitctl's own lines read.
        if let first = problem.first, first.isUppercase, problem.dropFirst().first?.isLowercase == true {
            problem = first.lowercased() + problem.dropFirst()
        }
        printError(problem)
        if lines.count > 1 {
            let hint = lines.dropFirst().joined(separator: "\n") + "\n"
            hint.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
        }
        Foundation.exit(code == .failure ? ExitStatus.internalError.rawValue : code.rawValue)
    }
}

/// Prints the help of `command` (which needs a subcommand) on stderr after a one-line
/// problem, and exits 64: a missing subcommand is a usage error, not a help request.
func refuseMissingSubcommand(_ command: any ParsableCommand.Type) throws -> Never {
    printError((command == Splitctl.self ? "" : "\(command._commandName): ") + "missing subcommand (the list follows)")
    let help = "\n" + Splitctl.helpMessage(for: command) + "\n"
    help.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
    throw ExitCode.validationFailure
}

/// Why an argument cannot be used: Swift's `CommandLine.arguments` replaces bytes that are
/// not UTF-8 with U+FFFD, so an id typed with them would be stored as something else (that
/// no later command can name), and a path would name another file. The raw `argv` tells.
func argumentNotUTF8(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) -> String? {
    for index in 1..<max(count, 1) {
        guard let raw = argv[index] else { continue }
        let bytes = Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) }
        guard let offset = firstInvalidUTF8Byte(bytes) else { continue }
        return
            "argument \(index) ('\(showingInvalidBytes(bytes))') is not valid UTF-8 (byte \(offset)): ids and paths must be UTF-8"
    }
    return nil
}

/// `bytes` as text with each byte that is not part of a UTF-8 character shown as `\xHH`
/// (and control characters as `visible` shows them).
private func showingInvalidBytes(_ bytes: [UInt8]) -> String {
    var text = "", index = 0
    while index < bytes.count {
        let character = (1...4).lazy.compactMap { length -> (String, Int)? in
            guard index + length <= bytes.count,
                let decoded = String(bytes: bytes[index..<(index + length)], encoding: .utf8)
            else { return nil }
            return (decoded, length)
        }.first
        if let (decoded, length) = character {
            text += visible(decoded)
            index += length
        } else {
            let hex = String(bytes[index], radix: 16)
            text += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            index += 1
        }
    }
    return text
}
