import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// splitctl's rough edges: error lines that say why, watch's exit status, the attach
    /// status line in a narrow terminal, help texts.
    @Suite struct SplitctlEdges {
        @Test(
            arguments: [
                (
                    ["set-config", "s", "{\"style\":"],
                    "splitctl: the value '{\"style\":' is invalid for '<json>': not valid JSON (byte 9: unexpected end of input)"
                ),
                (
                    ["set-config", "s", "[1, 2]"],
                    "splitctl: the value '[1, 2]' is invalid for '<json>': expected a JSON object, got an array"
                ),
                (
                    ["set-config", "s", "@/nonexistent/config.json"],
                    "splitctl: the value '@/nonexistent/config.json' is invalid for '<json>': no such file: /nonexistent/config.json"
                ),
                (
                    ["scene", "create", "s", "--device", "ipad-pro-12.9", "--config", "@/nonexistent/c.json"],
                    "splitctl: the value '@/nonexistent/c.json' is invalid for '--config <json>': no such file: /nonexistent/c.json"
                ),
                (["resize", "s"], "splitctl: give either WIDTHxHEIGHT or --preset NAME"),
                (["frobnicate"], "splitctl: unexpected argument 'frobnicate'"),
                // Negative values used to be taken for options: "missing value", or the size missing.
                (
                    ["push", "s", "primary", "b", "--base-revision", "-1"],
                    "splitctl: --base-revision must be a revision (0 or more), not -1"
                ),
                (["--timeout", "-1", "ping"], "splitctl: --timeout must be a positive number of seconds"),
                (
                    ["resize", "s", "-5x10"],
                    "splitctl: '-5x10' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                (
                    ["scene", "create", "s", "--device", "mac", "--size", "10"],
                    "splitctl: the value '10' is invalid for '--size <WIDTHxHEIGHT>'"
                ),
                (["watch", "s", "--size", "800x600"], "splitctl: --size only applies with --role window"),
                // Zero and negative sizes, wherever the minus sign is, before splitd is asked (they
                // were sent, and splitd's bad_request exited 65).
                (
                    ["resize", "s", "5x-10"],
                    "splitctl: '5x-10' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                (
                    ["resize", "s", "0x0"],
                    "splitctl: '0x0' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                (
                    ["resize", "s", "--", "-5x10"],
                    "splitctl: '-5x10' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                (
                    ["scene", "create", "s9", "--device", "mac", "--size", "0x0"],
                    "splitctl: '0x0' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                (
                    ["snapshot", "s", "--size", "375x1024", "--size", "1x0"],
                    "splitctl: '1x0' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                (
                    ["watch", "s", "--role", "window", "--size", "0x600"],
                    "splitctl: '0x600' is not a window size: WIDTHxHEIGHT takes positive numbers of points"
                ),
                // Negative numbers were "missing" values or arguments.
                (["select-tab", "mail", "-1"], "splitctl: the tab index must be 0 or more, not -1"),
                (["select-tab", "mail", "--", "-2"], "splitctl: the tab index must be 0 or more, not -2"),
                (
                    ["select-tab", "mail", "-1", "--base-revision", "4"],
                    "splitctl: the tab index must be 0 or more, not -1"
                ),
                (["select-tab", "mail"], "splitctl: missing expected argument '<index>'"),
                (
                    ["watch", "mail", "--count", "-1"],
                    "splitctl: --count must be a number of pushes (0 or more), not -1"
                ),
                (
                    ["attach", "mail", "--cell-width", "-1"],
                    "splitctl: --cell-width must be a positive number of points, not -1"
                ),
                (
                    ["attach", "mail", "--cell-height", "-0.5"],
                    "splitctl: --cell-height must be a positive number of points, not -0.5"
                ),
                (["hello", "--protocol-version", "-1"], "splitctl: --protocol-version must be 1 or more, not -1"),
                // Preset names no device can have were splitd's "unknown preset" (65).
                (["resize", "s", "--preset", ""], "splitctl: --preset needs a preset name, not an empty string"),
                (
                    ["resize", "s", "--preset", "portrait/"],
                    "splitctl: --preset 'portrait/' has no preset name after the orientation (e.g. portrait/1/3)"
                ),
            ] as [([String], String)])
        func usageErrorsSayWhyOnTheirFirstLine(arguments: [String], firstLine: String) throws {
            let output = try runCommand(Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock"] + arguments)
            #expect(output.exitCode == 64, "\(output)")
            #expect(output.stderr.split(separator: "\n").first.map(String.init) == firstLine, "\(output.stderr)")
            #expect(output.stderr.contains("See 'splitctl"), "the help hint follows: \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }

        @Test func resizeHelpGivesTheSizeFormat() throws {
            let help = try runCommand(Binaries.splitctl, ["resize", "--help"])
            #expect(help.exitCode == 0)
            #expect(help.stdout.contains("<WIDTHxHEIGHT>"), "\(help.stdout)")
            #expect(help.stdout.contains("WIDTHxHEIGHT in points"), "\(help.stdout)")
        }

        /// `watch` used to exit 0 when splitd went away under it.
        @Test func watchExits69WhenSplitdClosesTheConnection() throws {
            try withDaemon { daemon in
                let (watch, outPath, errPath) = try startWatching(daemon)
                defer { watch.killHard() }
                #expect(!readText(outPath).isEmpty, "watch attached")
                #expect(daemon.terminate() == .exited(0))
                #expect(watch.wait(timeout: .seconds(10)) == .exited(69), "\(readText(errPath))")
                #expect(readText(errPath) == "splitctl: splitd closed the connection\n")
            }
        }

        @Test func watchEndsWith0WhenTheSceneIsDeleted() throws {
            try withDaemon { daemon in
                let (watch, outPath, errPath) = try startWatching(daemon)
                defer { watch.killHard() }
                try daemon.client().deleteScene("s")
                #expect(watch.wait(timeout: .seconds(10)) == .exited(0), "\(readText(errPath))")
                #expect(
                    readText(outPath).split(separator: "\n").last.map { try? JSONParser.parse(String($0)) }??["event"]
                        == "deleted")
            }
        }

        /// Human mode used to print the deletion as raw JSON.
        @Test func watchSaysTheScenesDeletionInWords() throws {
            try withDaemon { daemon in
                #expect(try splitctl(daemon, "scene", "create", "w", "--device", "ipad-pro-12.9").exitCode == 0)
                let outPath = daemon.directory + "/watch.out"
                let watch = try ChildProcess(
                    Binaries.splitctl, ["--socket", daemon.socketPath, "watch", "w"],
                    stdoutPath: outPath, stderrPath: daemon.directory + "/watch.err")
                defer { watch.killHard() }
                let deadline = ContinuousClock.now.advanced(by: .seconds(10))
                while readText(outPath).isEmpty, ContinuousClock.now < deadline { usleep(10_000) }
                try daemon.client().deleteScene("w")
                #expect(watch.wait(timeout: .seconds(10)) == .exited(0))
                #expect(readText(outPath).hasSuffix("\nscene w was deleted at revision 1\n"), "\(readText(outPath))")
            }
        }

        @Test func sizeHelpSaysWidthXHeight() throws {
            for command in [["scene", "create"], ["snapshot", "take"], ["watch"]] {
                let help = try runCommand(Binaries.splitctl, command + ["--help"])
                #expect(help.stdout.contains("--size <WIDTHxHEIGHT>"), "\(command): \(help.stdout)")
            }
        }

        /// The status line used to be cut at the terminal's edge, mid-token (`560x80`).
        @Test func attachsStatusLineLeavesOutWholeFields() throws {
            try withDaemon { daemon in
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                let command =
                    ([
                        Binaries.splitctl, "--socket", daemon.socketPath, "attach", "narrow", "--create", "--device",
                        "ipad-pro-12.9",
                    ])
                    .map { "'\($0)'" }.joined(separator: " ")
                try tmux.start("a", columns: 200, rows: 50, command: "TERM=xterm-256color \(command); sleep 600")
                try tmux.waitForScreen("a", what: "the wide window") { $0.contains("window 200x50") }
                // 70 columns: 560 pt, collapsed. The fields are 13 + 8 + 12 + 18 + 19 + ... characters:
                // the window size field does not fit beside the link any more.
                try tmux.resize("a", columns: 70, rows: 50)
                let screen = try tmux.waitForScreen("a", what: "collapsed at 70 columns") { $0.contains("┌─ compact") }
                let status = try #require(screen.split(separator: "\n").first.map(String.init))
                let revision = try daemon.client().getScene("narrow").revision
                #expect(status.hasSuffix(" connected"), "\(status)")
                let fields = status.dropLast(" connected".count).trimmingCharacters(in: .whitespaces)
                #expect(fields == "scene narrow │ rev \(revision) │ collapsed │ compact/regular │ …", "\(status)")
                // Wide again: every field, the window last.
                try tmux.resize("a", columns: 200, rows: 50)
                let wide = try tmux.waitForScreen("a", what: "the wide window again") { $0.contains("window 200x50") }
                #expect(wide.split(separator: "\n").first?.contains("1600x800 landscape │ window 200x50") == true)
            }
        }
    }
}

/// Creates scene `s` and starts `splitctl --json watch s`, returning once it printed its
/// attach result (or gave up after 10 s): the process and its stdout and stderr files.
private func startWatching(_ daemon: DaemonProcess) throws -> (ChildProcess, String, String) {
    #expect(try splitctl(daemon, "scene", "create", "s", "--device", "ipad-pro-12.9").exitCode == 0)
    let outPath = daemon.directory + "/watch.out", errPath = daemon.directory + "/watch.err"
    let watch = try ChildProcess(
        Binaries.splitctl, ["--socket", daemon.socketPath, "--json", "watch", "s"],
        stdoutPath: outPath, stderrPath: errPath)
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while readText(outPath).isEmpty, ContinuousClock.now < deadline, watch.isRunning { usleep(10_000) }
    return (watch, outPath, errPath)
}

extension EndToEnd {
    /// splitctl's output and options are safe: control characters escaped, timeouts and
    /// socket paths checked, the version stated.
    @Suite struct SplitctlOutputAndOptions {
        /// Control characters in view-controller ids used to be written raw by the human
        /// renderings (change commands, `scene get`, `watch`): an escape injection.
        @Test func humanOutputShowsControlCharactersAsHexEscapes() throws {
            try withDaemon { daemon in
                let evil = "x\u{1B}]0;PWNED\u{07}\u{1B}[2J\nline2\u{7F}\u{9B}"
                let shown = #"x\x1b]0;PWNED\x07\x1b[2J\x0aline2\x7f\x9b"#
                #expect(try splitctl(daemon, "scene", "create", "inj", "--device", "ipad-pro-12.9").exitCode == 0)
                let watch = try ChildProcess(
                    Binaries.splitctl, ["--socket", daemon.socketPath, "watch", "inj", "--count", "1"],
                    stdoutPath: daemon.directory + "/watch.out", stderrPath: daemon.directory + "/watch.err")
                defer { watch.killHard() }
                let deadline = ContinuousClock.now.advanced(by: .seconds(10))
                while readText(daemon.directory + "/watch.out").isEmpty, ContinuousClock.now < deadline {
                    usleep(10_000)
                }

                let pushed = try splitctl(daemon, "push", "inj", "primary", evil)
                #expect(pushed.exitCode == 0, "\(pushed)")
                let got = try splitctl(daemon, "scene", "get", "inj")
                #expect(watch.wait(timeout: .seconds(10)) == .exited(0))
                let watched = readText(daemon.directory + "/watch.out")
                for (name, text) in [("push", pushed.stdout), ("scene get", got.stdout), ("watch", watched)] {
                    #expect(
                        !text.unicodeScalars.contains {
                            $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
                        },
                        "\(name) wrote a control character: \(text.debugDescription)")
                    #expect(text.contains(shown), "\(name): \(text)")
                }
                #expect(pushed.stdout.contains("appear \(shown) in primary"), "\(pushed.stdout)")
                // --json keeps the exact id.
                let json = try jsonOutput(splitctl(daemon, "--json", "scene", "get", "inj"))
                #expect(json["layout"]?["columns"]?[0]?["stack"]?.array?.last?.string == evil)
            }
        }

        /// `--timeout 1e16` used to crash (Int64 overflow converting it to a Duration).
        @Test(arguments: ["1e16", "1e300", "1000001"])
        func aHugeTimeoutIsAUsageError(value: String) throws {
            let output = try runCommand(
                Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock", "--timeout", value, "ping"])
            #expect(output.exitCode == 64, "\(output)")
            #expect(
                output.stderr.split(separator: "\n").first == "splitctl: --timeout must be at most 1000000 seconds",
                "\(output.stderr)")
        }

        @Test func theLargestTimeoutIsAccepted() throws {
            try withDaemon { daemon in
                let output = try splitctl(daemon, "--timeout", "1000000", "ping")
                #expect(output.exitCode == 0, "\(output)")
            }
        }

        /// A directory or a regular file at the socket path used to be reported as
        /// "connection refused ... (is splitd running?)".
        @Test func aPathThatIsNotASocketIsSaidToBeOne() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-notasocket")
            defer { removeDirectory(directory) }
            try "".write(toFile: directory + "/file", atomically: true, encoding: .utf8)
            for (path, kind) in [(directory, "a directory"), (directory + "/file", "a regular file")] {
                let output = try runCommand(Binaries.splitctl, ["--socket", path, "ping"])
                #expect(output.exitCode == 69, "\(output)")
                #expect(output.stderr == "splitctl: \(path) is \(kind), not a socket\n")
            }
        }

        /// splitctl said `0.1 (protocol 1)` while splitd said `0.1.0`.
        @Test func splitctlsVersionIsSplitdsWithTheProtocol() throws {
            let daemon = try runCommand(Binaries.splitd, ["--version"])
            let client = try runCommand(Binaries.splitctl, ["--version"])
            #expect(daemon.exitCode == 0 && client.exitCode == 0)
            #expect(daemon.stdout == "0.1.0\n")
            #expect(client.stdout == "0.1.0 (protocol 1)\n")
        }

        /// `--socket "$SOCK"` with SOCK unset used to read SPLITD_SOCKET (or the config file,
        /// exiting 78), although --socket promises to read nothing else.
        @Test func anEmptySocketOptionIsAUsageError() throws {
            for environment in [
                ["SPLITD_SOCKET": "/tmp/elsewhere.sock"], ["SPLITD_CONFIG": "/nonexistent/splitd.json"],
            ] {
                let output = try withoutSocketEnvironment(
                    Binaries.splitctl, ["--socket", "", "ping"], environment: environment)
                #expect(output.exitCode == 64, "\(environment): \(output)")
                #expect(
                    output.stderr.split(separator: "\n").first
                        == "splitctl: --socket needs a path, not an empty string",
                    "\(output.stderr)")
            }
        }
    }
}
