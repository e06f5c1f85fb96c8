import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// splitctl's command line: bare preset names, exit codes, usage, arguments that are
    /// not UTF-8, the attach status line.
    @Suite struct SplitctlCommandLine {
        /// A bare preset name took the window's own orientation: a 700x1024 window on a
        /// landscape 12.9-inch iPad is taller than wide, so `--preset 1/3` went portrait.
        @Test func aBarePresetKeepsTheOrientationTheDeviceIsHeldIn() throws {
            try withDaemon { (daemon: DaemonProcess) throws in
                #expect(try splitctl(daemon, "scene", "create", "s", "--device", IPadPro129.device).exitCode == 0)
                func presetSize(from size: String, _ preset: String) throws -> JSONValue? {
                    #expect(try splitctl(daemon, "resize", "s", size).exitCode == 0)
                    // splitd's snapshot presets read a bare name with the same rule (not the
                    // window's shape, which would give 375x1366 for 700x1024's `1/3`).
                    let snapshot = try jsonOutput(try splitctl(daemon, "--json", "snapshot", "s", "--preset", preset))
                    let resized = try jsonOutput(try splitctl(daemon, "--json", "resize", "s", "--preset", preset))[
                        "layout"]?["size"]
                    #expect(
                        snapshot["snapshots"]?[0]?["size"] == resized, "\(size) \(preset): snapshot and resize disagree"
                    )
                    return resized
                }
                // As high as the landscape screen (1024): landscape, whatever the width.
                #expect(try presetSize(from: "700x1024", "1/3") == IPadPro129.oneThird.wireObject)
                // As high as the portrait screen (1366): portrait, even wider than high.
                #expect(try presetSize(from: "1300x1366", "1/3") == Size(width: 375, height: 1366).wireObject)
                // Neither: a preset's size (landscape Slide Over, 375x984) keeps its orientation...
                #expect(try presetSize(from: "375x984", "1/2") == IPadPro129.half.wireObject)
                // ...else the window's own.
                #expect(try presetSize(from: "500x900", "full") == IPadPro129.portrait.wireObject)
            }
        }

        /// `simulate` resolves bare preset names with the same rule.
        @Test func aScenarioResolvesBarePresetsTheSameWay() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-held")
            defer { removeDirectory(directory) }
            try """
            {"device": "ipad-pro-12.9", "steps": [{"resize": {"width": 700, "height": 1024}}, {"resize": "1/3"},
             {"expect": {"size.width": 375, "size.height": 1024}}]}
            """.write(toFile: directory + "/held.json", atomically: true, encoding: .utf8)
            let output = try simulate("--embedded", directory + "/held.json")
            #expect(output.exitCode == 0, "\(output)")
        }

        /// The refusal of one client too many exited 65 like an error response; it is a
        /// daemon that cannot serve now, like `unauthorized` (69).
        @Test func tooManyClientsExits69() throws {
            try withDaemon(environment: ["SPLITD_LIMITS_MAX_CLIENTS": "1"]) { daemon in
                // The start-up probe's connection may not be closed on splitd's side yet.
                let deadline = ContinuousClock.now.advanced(by: .seconds(5))
                var admitted: SplitConnection?
                while admitted == nil, ContinuousClock.now < deadline { admitted = try? daemon.client("holder") }
                let holder = try #require(admitted)
                defer { holder.close() }
                let ping = try splitctl(daemon, "ping")
                #expect(ping.exitCode == 69, "\(ping)")
                #expect(ping.stderr == "splitctl: limit_exceeded: too many clients (limit 1)\n", "\(ping.stderr)")
                let json = try splitctl(daemon, "--json", "scene", "list")
                #expect(json.exitCode == 69, "\(json)")
                #expect(try JSONParser.parse(json.stdout)["error"]?["code"] == "limit_exceeded", "\(json.stdout)")
            }
        }

        /// Other `limit_exceeded` errors answer a request: they stay 65.
        @Test func tooManyScenesStaysAnErrorResponse() throws {
            try withDaemon(environment: ["SPLITD_LIMITS_MAX_SCENES": "1"]) { daemon in
                #expect(try splitctl(daemon, "scene", "create", "a", "--device", IPadPro129.device).exitCode == 0)
                let second = try splitctl(daemon, "scene", "create", "b", "--device", IPadPro129.device)
                #expect(second.exitCode == 65, "\(second)")
                #expect(second.stderr.hasPrefix("splitctl: limit_exceeded: too many scenes"), "\(second.stderr)")
            }
        }

        /// `splitctl` and `splitctl scene` alone printed the help and exited 0.
        @Test(arguments: [[], ["scene"], ["--json"]])
        func aMissingSubcommandIsAUsageError(arguments: [String]) throws {
            let output = try runCommand(Binaries.splitctl, arguments)
            #expect(output.exitCode == 64, "\(output)")
            let prefix = arguments == ["scene"] ? "scene: " : ""
            #expect(
                output.stderr.hasPrefix("splitctl: \(prefix)missing subcommand (the list follows)\n"),
                "\(output.stderr)")
            #expect(output.stderr.contains("SUBCOMMANDS:"), "the help follows: \(output.stderr)")
            #expect(output.stdout.isEmpty)
            // Asking for it is still a success.
            #expect(try runCommand(Binaries.splitctl, arguments + ["--help"]).exitCode == 0)
        }

        @Test func attachsHelpListsExitCode78() throws {
            let help = try runCommand(Binaries.splitctl, ["attach", "--help"])
            #expect(help.exitCode == 0)
            #expect(help.stdout.contains("78 no --socket and splitd's configuration cannot be read"), "\(help.stdout)")
        }

        /// Bytes that are not UTF-8 became U+FFFD: the id stored was not the one typed.
        @Test func anArgumentThatIsNotUTF8IsRefused() throws {
            // Through the shell: a Swift String cannot hold the bytes.
            let output = try runCommand(
                "/bin/sh",
                [
                    "-c", #""$0" --socket /nonexistent/splitd.sock push cc primary "a$(printf '\377\376')""#,
                    Binaries.splitctl,
                ])
            #expect(output.exitCode == 64, "\(output)")
            #expect(
                output.stderr
                    == "splitctl: argument 6 ('a\\xff\\xfe') is not valid UTF-8 (byte 1): ids and paths must be UTF-8\n",
                "\(output.stderr)")
        }

        /// The link text was drawn over the status fields: at 60 columns the scene and revision
        /// were gone and the reason was cut in the middle of the socket path.
        @Test func theReconnectingStatusLineLeavesOutWholeFields() throws {
            try withDaemonAndTmux { daemon, tmux in
                try tmux.start(
                    "a", columns: 60, rows: 30,
                    command: attachPaneCommand(daemon, "rc", "--create", "--device", "ipad-pro-12.9"))
                // 480 pt wide: collapsed.
                try tmux.waitForScreen("a", what: "the first layout") { $0.contains("┌─ compact") }
                #expect(daemon.terminate() == .exited(0))
                let reason = "no socket at \(daemon.socketPath) (is splitd running?)"
                let narrow = try tmux.waitForScreen("a", what: "reconnecting, for want of a socket") {
                    $0.contains("(attempt 3)")
                }
                let status = try #require(
                    narrow.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(
                    status.range(
                        of: #"^scene rc │ rev \d+ │ …  +reconnecting \(attempt \d+\): …$"#, options: .regularExpression)
                        != nil,
                    "\(status)")
                // Wide: the reason, whole.
                try tmux.resize("a", columns: 200, rows: 30)
                let wide = try tmux.waitForScreen("a", what: "the reason in a wide terminal") { $0.contains(reason) }
                let wideStatus = try #require(
                    wide.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(
                    wideStatus.range(of: #"^scene rc │ rev \d+ │ "#, options: .regularExpression) != nil,
                    "\(wideStatus)")
                #expect(wideStatus.hasSuffix(": " + reason), "\(wideStatus)")
            }
        }
    }
}
