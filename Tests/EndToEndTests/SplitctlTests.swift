import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing

/// Runs the splitctl binary against `daemon` (`--socket` first unless `socket` is false).
func splitctl(
    _ daemon: DaemonProcess?, _ arguments: String..., environment: [String: String] = [:],
    stdin: String? = nil
) throws -> CommandOutput {
    let socket = daemon.map { ["--socket", $0.socketPath] } ?? []
    return try runCommand(Binaries.splitctl, socket + arguments, environment: environment, stdinText: stdin)
}

/// Runs `executable` with none of the socket variables a developer's shell may have set
/// (`SPLITD_SOCKET`, `SPLITD_SOCKET_PATH`, `SPLITD_CONFIG`, `CONFIGURATION_DIRECTORY`,
/// `XDG_RUNTIME_DIR`), then `environment`.
func withoutSocketEnvironment(
    _ executable: String, _ arguments: [String], environment: [String: String]
) throws -> CommandOutput {
    let unset = ["SPLITD_SOCKET", "SPLITD_SOCKET_PATH", "SPLITD_CONFIG", "CONFIGURATION_DIRECTORY", "XDG_RUNTIME_DIR"]
        .flatMap { ["-u", $0] }
    let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return try runCommand("/usr/bin/env", unset + assignments + [executable] + arguments)
}

/// The one JSON object a `--json` command printed.
func jsonOutput(_ output: CommandOutput, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    #expect(output.exitCode == 0, "\(output)", sourceLocation: sourceLocation)
    #expect(output.lines.count == 1, "expected one line: \(output.stdout)", sourceLocation: sourceLocation)
    return try JSONParser.parse(output.lines.first ?? "")
}

extension EndToEnd {
    /// splitctl's argument parsing, JSON output shape, exit codes and error lines.
    @Suite struct Splitctl {
        @Test func helpListsEverySubcommandAndExitsZero() throws {
            let output = try splitctl(nil, "--help")
            #expect(output.exitCode == 0)
            for name in [
                "hello", "ping", "scene", "resize", "push", "pop", "pop-to-root", "show", "show-detail", "back",
                "select-tab", "present", "dismiss", "set-display-mode", "display-mode-button", "gesture",
                "tap-dimmed", "show-column", "hide-column", "set-config", "snapshot", "stats", "devices", "watch",
            ] {
                #expect(output.stdout.contains("  \(name) "), "\(name)")
            }
        }

        @Test(arguments: [
            ["resize"],  // missing scene
            ["resize", "s"],  // neither size nor preset
            ["resize", "s", "12by3"],  // bad size
            ["resize", "s", "100x100", "--preset", "1/2"],  // both
            ["push", "s", "sidebar", "vc"],  // unknown column
            ["select-tab", "s", "two"],  // not an integer
            ["present", "s", "vc", "--style", "sideways"],
            ["set-display-mode", "s", "sometimes"],
            ["set-config", "s", "{not json"],
            ["set-config", "s", "[1,2]"],
            ["snapshot", "s"],  // neither sizes nor preset
            ["scene", "create", "s"],  // missing --device
            ["--timeout", "-1", "ping"],
            ["frobnicate"],
        ])
        func usageErrorsExit64WithoutContactingTheDaemon(arguments: [String]) throws {
            // No daemon at all: a usage error must be reported before any connection attempt.
            let output = try runCommand(Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock"] + arguments)
            #expect(output.exitCode == 64, "\(arguments): \(output)")
            // The first line states the problem like every splitctl error; the usage hint follows.
            let first = output.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(
                first.hasPrefix("splitctl: ") && first.count > "splitctl: ".count + 5, "\(arguments): \(output.stderr)")
            #expect(!output.stderr.contains("Error: "), "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }

        @Test func anUnreachableDaemonExits69WithOneLine() throws {
            let output = try runCommand(Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock", "ping"])
            #expect(output.exitCode == 69)
            #expect(output.stderr.hasPrefix("splitctl: "))
            #expect(output.stderr.contains("/nonexistent/splitd.sock"))
            #expect(output.stderr.split(separator: "\n").count == 1)
            #expect(output.stdout.isEmpty)
        }

        @Test func anErrorResponseExits65WithTheCodeAndMessageOnOneLine() throws {
            try withDaemon { daemon in
                let missing = try splitctl(daemon, "scene", "get", "nope")
                #expect(missing.exitCode == 65)
                #expect(missing.stderr.hasPrefix("splitctl: unknown_scene: "), "\(missing.stderr)")
                #expect(missing.stderr.split(separator: "\n").count == 1)
                #expect(missing.stdout.isEmpty)

                // --json: the response without id/ok on stdout, its `error` object; the
                // stderr line and the exit code as without it.
                let json = try splitctl(daemon, "--json", "scene", "get", "nope")
                #expect(json.exitCode == 65)
                #expect(json.stderr.hasPrefix("splitctl: unknown_scene: "), "\(json.stderr)")
                let printed = try JSONParser.parse(json.stdout)
                #expect(printed["error"]?["code"] == .string("unknown_scene"), "\(json.stdout)")
                #expect(printed["error"]?["message"] == .string("no scene 'nope'"), "\(json.stdout)")
                #expect(json.stdout.split(separator: "\n").count == 1)

                let mismatch = try splitctl(daemon, "hello", "--protocol-version", "9")
                #expect(mismatch.exitCode == 65)
                #expect(mismatch.stderr.hasPrefix("splitctl: version_mismatch: "))

                #expect(
                    try splitctl(daemon, "scene", "create", "x", "--device", "ipad-pro-99").stderr.hasPrefix(
                        "splitctl: unknown_device: "))
                #expect(try splitctl(daemon, "scene", "create", "x", "--device", "ipad-pro-12.9").exitCode == 0)
                let exists = try splitctl(daemon, "scene", "create", "x", "--device", "ipad-pro-12.9")
                #expect(exists.exitCode == 65 && exists.stderr.hasPrefix("splitctl: scene_exists: "))
                let pop = try splitctl(daemon, "pop", "x", "primary")
                #expect(pop.exitCode == 65 && pop.stderr.hasPrefix("splitctl: invalid_intent: "), "\(pop)")
                let stale = try splitctl(daemon, "resize", "x", "500x500", "--base-revision", "99")
                #expect(stale.exitCode == 65 && stale.stderr.hasPrefix("splitctl: conflict: "))
            }
        }

        @Test func socketResolutionFollowsTheDaemonsOrder() throws {
            try withDaemon { daemon in
                // $SPLITD_SOCKET when no --socket.
                let viaEnvironment = try splitctl(nil, "ping", environment: ["SPLITD_SOCKET": daemon.socketPath])
                #expect(viaEnvironment.exitCode == 0, "\(viaEnvironment)")
                // --socket wins over the environment.
                let explicit = try splitctl(daemon, "ping", environment: ["SPLITD_SOCKET": "/nonexistent/x.sock"])
                #expect(explicit.exitCode == 0)
                // $XDG_RUNTIME_DIR/splitd/splitd.sock next: point it at an empty directory.
                let runtime = try makeTemporaryDirectory(prefix: "splitctl-xdg")
                defer { removeDirectory(runtime) }
                let viaXDG = try splitctl(nil, "ping", environment: ["SPLITD_SOCKET": "", "XDG_RUNTIME_DIR": runtime])
                #expect(viaXDG.exitCode == 69)
                #expect(viaXDG.stderr.contains(runtime + "/splitd/splitd.sock"), "\(viaXDG.stderr)")
            }
        }

        /// Defect: only `SPLITD_SOCKET` was read, not the daemon's full name `SPLITD_SOCKET_PATH`
        /// nor `socket.path` of its config file. splitctl now resolves with the daemon's own
        /// code: for each environment, the path it tries is the one `splitd --check-config` reports.
        @Test func socketResolutionIsTheDaemonsForEveryEnvironment() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-socketpath")
            defer { removeDirectory(directory) }
            try #"{"socket": {"path": "\#(directory)/from-file.sock"}}"#.write(
                toFile: directory + "/splitd.json", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: directory + "/confdir", withIntermediateDirectories: true)
            try #"{"socket": {"path": "\#(directory)/from-confdir.sock"}}"#
                .write(toFile: directory + "/confdir/splitd.json", atomically: true, encoding: .utf8)
            let runtime = directory + "/runtime"
            let cases: [([String: String], String)] = [
                ([:], "/run/splitd/splitd.sock"),
                (["XDG_RUNTIME_DIR": runtime], runtime + "/splitd/splitd.sock"),
                (["XDG_RUNTIME_DIR": runtime, "SPLITD_SOCKET": directory + "/alias.sock"], directory + "/alias.sock"),
                (["SPLITD_SOCKET_PATH": directory + "/full.sock"], directory + "/full.sock"),
                // The full name wins over the alias.
                (
                    ["SPLITD_SOCKET": directory + "/alias.sock", "SPLITD_SOCKET_PATH": directory + "/full.sock"],
                    directory + "/full.sock"
                ),
                // The config file is below the environment and above the defaults.
                (
                    ["SPLITD_CONFIG": directory + "/splitd.json", "XDG_RUNTIME_DIR": runtime],
                    directory + "/from-file.sock"
                ),
                (
                    ["SPLITD_CONFIG": directory + "/splitd.json", "SPLITD_SOCKET_PATH": directory + "/full.sock"],
                    directory + "/full.sock"
                ),
                (["CONFIGURATION_DIRECTORY": directory + "/confdir"], directory + "/from-confdir.sock"),
                (
                    ["CONFIGURATION_DIRECTORY": directory + "/confdir", "SPLITD_CONFIG": directory + "/splitd.json"],
                    directory + "/from-file.sock"
                ),
                // A configuration directory without splitd.json is not an error (the daemon skips it).
                (["CONFIGURATION_DIRECTORY": runtime, "XDG_RUNTIME_DIR": runtime], runtime + "/splitd/splitd.sock"),
            ]
            for (environment, expected) in cases {
                let daemonSays = try withoutSocketEnvironment(
                    Binaries.splitd, ["--check-config"], environment: environment)
                #expect(daemonSays.exitCode == 0, "\(environment): \(daemonSays)")
                let daemonPath = daemonSays.lines.first { $0.hasPrefix("socket.path") }?
                    .dropFirst("socket.path".count).trimmingCharacters(in: .whitespaces)
                #expect(daemonPath == expected, "\(environment): splitd --check-config")
                let client = try withoutSocketEnvironment(Binaries.splitctl, ["ping"], environment: environment)
                #expect(client.exitCode == 69, "\(environment): \(client)")
                #expect(client.stderr == "splitctl: no socket at \(expected) (is splitd running?)\n", "\(environment)")
            }
            // --socket wins over everything and reads no configuration.
            let explicit = try withoutSocketEnvironment(
                Binaries.splitctl, ["--socket", directory + "/x.sock", "ping"],
                environment: ["SPLITD_CONFIG": directory + "/missing.json"])
            #expect(
                explicit.stderr == "splitctl: no socket at \(directory)/x.sock (is splitd running?)\n", "\(explicit)")
        }

        @Test func theClientLibrarysResolutionKnowsTheFullEnvironmentName() {
            // SplitClient's environment-only resolution: the full name over the alias, as splitd.
            #expect(
                resolveSocketPath(
                    explicit: nil, environment: ["SPLITD_SOCKET": "/a.sock", "SPLITD_SOCKET_PATH": "/b.sock"])
                    == "/b.sock")
            #expect(
                resolveSocketPath(
                    explicit: nil, environment: ["SPLITD_SOCKET_PATH": "/b.sock", "XDG_RUNTIME_DIR": "/run/user/1"])
                    == "/b.sock")
            #expect(resolveSocketPath(explicit: "/c.sock", environment: ["SPLITD_SOCKET_PATH": "/b.sock"]) == "/c.sock")
        }

        @Test func aConfigurationSplitdCannotReadExits78() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-socketpath")
            defer { removeDirectory(directory) }
            try "{not json".write(toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
            for (environment, problem) in [
                (["SPLITD_CONFIG": directory + "/missing.json"], "cannot read config file \(directory)/missing.json"),
                (["SPLITD_CONFIG": directory + "/bad.json"], "config file \(directory)/bad.json is not valid JSON"),
            ] {
                let output = try withoutSocketEnvironment(Binaries.splitctl, ["ping"], environment: environment)
                #expect(output.exitCode == 78, "\(output)")
                #expect(
                    output.stderr.hasPrefix(
                        "splitctl: cannot tell where splitd listens: invalid configuration: \(problem)"),
                    "\(output.stderr)")
                #expect(output.stderr.hasSuffix(" (give --socket PATH)\n"))
                #expect(output.stderr.split(separator: "\n").count == 1)
            }
        }

        @Test func theConfigFilesSocketReachesARunningDaemon() throws {
            try withDaemon { daemon in
                let config = daemon.directory + "/client.json"
                try #"{"socket": {"path": "\#(daemon.socketPath)"}}"#.write(
                    toFile: config, atomically: true, encoding: .utf8)
                let viaFile = try withoutSocketEnvironment(
                    Binaries.splitctl, ["--json", "ping"], environment: ["SPLITD_CONFIG": config])
                #expect(viaFile.exitCode == 0, "\(viaFile)")
                let viaFullName = try withoutSocketEnvironment(
                    Binaries.splitctl, ["--json", "stats"],
                    environment: ["SPLITD_SOCKET_PATH": daemon.socketPath])
                #expect(viaFullName.exitCode == 0, "\(viaFullName)")
            }
        }

        /// Defect: every change without events printed `no change`, also when the revision moved
        /// (a column width set while collapsed changes the state with no events).
        @Test func noChangeOnlyWhenTheRevisionStayed() throws {
            try withDaemon { daemon in
                #expect(try splitctl(daemon, "scene", "create", "s", "--device", "ipad-pro-12.9").exitCode == 0)
                let same = try splitctl(daemon, "resize", "s", "1366x1024")
                #expect(same.exitCode == 0)
                #expect(same.lines.first == "revision 1")
                #expect(same.lines.last == "no change", "\(same.stdout)")

                #expect(try splitctl(daemon, "resize", "s", "375x1024").stdout.contains("didCollapse"))
                let widthWhileCollapsed = try splitctl(
                    daemon, "set-config", "s", #"{"preferredPrimaryColumnWidth": 280}"#)
                #expect(widthWhileCollapsed.exitCode == 0)
                #expect(widthWhileCollapsed.lines.first == "revision 3")
                #expect(widthWhileCollapsed.lines.last == "no events", "\(widthWhileCollapsed.stdout)")
                #expect(!widthWhileCollapsed.stdout.contains("no change"))

                // With --base-revision the revision before is known without asking.
                let again = try splitctl(
                    daemon, "set-config", "s", #"{"preferredPrimaryColumnWidth": 280}"#, "--base-revision", "3")
                #expect(again.lines.last == "no change", "\(again.stdout)")
                let popped = try splitctl(daemon, "pop-to-root", "s", "compact", "--base-revision", "3")
                #expect(popped.exitCode == 0, "\(popped)")
                #expect(popped.lines.first == "revision 4" && popped.stdout.contains("events:"), "\(popped.stdout)")
                // A preset resize reads the revision on its way.
                #expect(try splitctl(daemon, "resize", "s", "--preset", "landscape/1/3").lines.last == "no change")
                #expect(try daemon.client().getScene("s").revision == 4)
            }
        }

        /// Defect: ids longer than 19 characters were cut and glued to the kind
        /// (`iphone-17-pro-max-zoprofile`).
        @Test func devicesHumanOutputKeepsWholeIdsInAlignedColumns() throws {
            try withDaemon { daemon in
                let devices = try #require(try jsonOutput(try splitctl(daemon, "--json", "devices"))["devices"]?.array)
                let human = try splitctl(daemon, "devices")
                #expect(human.exitCode == 0)
                #expect(human.lines.count == devices.count)
                #expect(devices.contains { ($0["device"]?.string?.count ?? 0) > 20 })
                for (line, device) in zip(human.lines, devices) {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    #expect(fields.first == device["device"]?.string, "\(line)")
                    #expect(fields.dropFirst().first == device["kind"]?.string, "\(line)")
                    #expect(!line.hasSuffix(" "))
                }
                // The kind column starts at the same place on every line.
                let kindColumns = Set(
                    zip(human.lines, devices).compactMap { line, device in
                        line.range(of: "  " + (device["kind"]?.string ?? "?")).map {
                            line.distance(from: line.startIndex, to: $0.lowerBound)
                        }
                    })
                #expect(kindColumns.count == 1, "\(human.stdout)")
            }
        }

        @Test func jsonOutputIsTheServersResultObject() throws {
            try withDaemon { daemon in
                let created = try jsonOutput(
                    try splitctl(
                        daemon, "--json", "scene", "create", "mail", "--device", "ipad-pro-12.9",
                        "--config", #"{"roots":{"primary":"inbox","secondary":"detail"}}"#))
                #expect(created["scene"] == "mail")
                #expect(created["revision"] == 1)
                #expect(created["id"] == nil && created["ok"] == nil)
                let layout = try decodeLayout(try #require(created["layout"]))
                #expect(layout.column(.primary)?.stack == ["inbox"])

                // --json after the subcommand works too, and the result equals the protocol's.
                let fetched = try jsonOutput(try splitctl(daemon, "scene", "get", "mail", "--json"))
                let direct = try daemon.client().call("scene.get", ["scene": "mail"])
                #expect(fetched == direct)

                let list = try jsonOutput(try splitctl(daemon, "--json", "scene", "list"))
                #expect(list["scenes"]?.array?.count == 1)
                #expect(list["scenes"]?[0]?["device"] == "ipad-pro-12.9")

                let resized = try jsonOutput(try splitctl(daemon, "--json", "resize", "mail", "375x1024"))
                #expect(resized["revision"] == 2)
                #expect(resized["layout"]?["collapsed"] == true)
                #expect(resized["events"]?.array?.isEmpty == false)

                let hello = try jsonOutput(try splitctl(daemon, "--json", "hello"))
                #expect(hello["protocol"] == 1)
                #expect(try jsonOutput(try splitctl(daemon, "--json", "stats"))["scenes"] == 1)
                #expect(try jsonOutput(try splitctl(daemon, "--json", "devices"))["devices"]?.array?.isEmpty == false)
                let ping = try splitctl(daemon, "--json", "ping")
                #expect(ping.exitCode == 0)

                let deleted = try splitctl(daemon, "--json", "scene", "delete", "mail")
                #expect(deleted.exitCode == 0)
                #expect(try jsonOutput(try splitctl(daemon, "--json", "scene", "list"))["scenes"] == .array([]))
            }
        }

        @Test func humanOutputShowsSizeClassesModeAndColumns() throws {
            try withDaemon { daemon in
                let created = try splitctl(
                    daemon, "scene", "create", "mail", "--device", "ipad-pro-12.9",
                    "--config", #"{"roots":{"primary":"inbox","secondary":"detail"}}"#)
                #expect(created.exitCode == 0)
                #expect(created.stdout.contains("1366x1024"))
                #expect(created.stdout.contains("regular/regular"))
                #expect(created.stdout.contains("oneBesideSecondary"))
                let primaryLine = try #require(created.lines.first { $0.contains("primary") })
                #expect(primaryLine.contains("x=0") && primaryLine.contains("w=320") && primaryLine.contains("inbox"))
                let secondaryLine = try #require(
                    created.lines.first { $0.contains("secondary") && !$0.contains("oneBeside") })
                #expect(
                    secondaryLine.contains("x=320") && secondaryLine.contains("w=1046")
                        && secondaryLine.contains("detail"))

                let collapsed = try splitctl(daemon, "resize", "mail", "375x1024")
                #expect(collapsed.stdout.contains("collapsed"))
                #expect(collapsed.stdout.contains("inbox > detail"))
                #expect(collapsed.stdout.contains("didCollapse"))
            }
        }

        @Test func everyIntentSubcommandSendsItsIntent() throws {
            try withDaemon { daemon in
                let config =
                    #"{"style":"doubleColumn","roots":{"primary":"inbox","secondary":"detail"},"tabs":[{"root":"a"},{"root":"b"}]}"#
                #expect(
                    try splitctl(
                        daemon, "scene", "create", "s", "--device", "ipad-pro-12.9", "--size", "1024x1366", "--config",
                        config
                    ).exitCode == 0)
                func layout(_ arguments: String...) throws -> Layout {
                    let output = try runCommand(
                        Binaries.splitctl, ["--socket", daemon.socketPath, "--json"] + arguments)
                    let result = try jsonOutput(output)
                    return try decodeLayout(try #require(result["layout"]))
                }
                #expect(try layout("push", "s", "primary", "p1").column(.primary)?.stack.last == "p1")
                #expect(try layout("show", "s", "primary", "p2").column(.primary)?.stack.last == "p2")
                #expect(try layout("pop", "s", "primary").column(.primary)?.stack.last == "p1")
                #expect(try layout("pop-to-root", "s", "primary").column(.primary)?.stack.count == 1)
                #expect(try layout("show-detail", "s", "d1").column(.secondary)?.stack.last == "d1")
                #expect(try layout("select-tab", "s", "1").column(.primary)?.stack.last == "b")
                #expect(try layout("present", "s", "m", "--style", "formSheet").presentations.map(\.vc) == ["m"])
                #expect(try layout("dismiss", "s").presentations.isEmpty)
                // Portrait doubleColumn: overlay, secondaryOnly; the actions of SEMANTICS 5.
                #expect(try layout("display-mode-button", "s").displayMode == .oneOverSecondary)
                #expect(try layout("tap-dimmed", "s").displayMode == .secondaryOnly)
                #expect(try layout("gesture", "s").displayMode == .oneOverSecondary)
                #expect(try layout("hide-column", "s", "primary").displayMode == .secondaryOnly)
                #expect(try layout("show-column", "s", "primary").displayMode == .oneOverSecondary)
                #expect(try layout("set-display-mode", "s", "primaryHidden").displayMode == .secondaryOnly)
                #expect(try layout("set-config", "s", #"{"style":"tripleColumn"}"#).columns.count == 3)
                let file = try makeTemporaryDirectory(prefix: "splitctl-config") + "/config.json"
                defer { removeDirectory((file as NSString).deletingLastPathComponent) }
                try #"{"style":"doubleColumn"}"#.write(toFile: file, atomically: true, encoding: .utf8)
                #expect(try layout("set-config", "s", "@" + file).columns.count == 2)
                // `back` on the collapsed stack.
                _ = try layout("resize", "s", "375x1024")
                _ = try layout("push", "s", "primary", "deeper")
                #expect(try layout("back", "s").columns.first?.stack.last != "deeper")
            }
        }

        @Test func resizeByPresetUsesTheScenesDevice() throws {
            try withDaemon { daemon in
                #expect(try splitctl(daemon, "scene", "create", "s", "--device", "ipad-pro-12.9").exitCode == 0)
                let third = try jsonOutput(try splitctl(daemon, "--json", "resize", "s", "--preset", "landscape/1/3"))
                #expect(third["layout"]?["size"] == IPadPro129.oneThird.wireObject)
                let half = try jsonOutput(try splitctl(daemon, "--json", "resize", "s", "--preset", "1/2"))
                #expect(half["layout"]?["size"] == IPadPro129.half.wireObject)
                // A preset only splitd's catalog can refuse: 65 like snapshot's (it was 64 for
                // resize and 65 for snapshot).
                let unknown = try splitctl(daemon, "resize", "s", "--preset", "landscape/7/8")
                #expect(unknown.exitCode == 65, "\(unknown)")
                #expect(
                    unknown.stderr.hasPrefix(
                        "splitctl: unknown preset 'landscape/7/8' for ipad-pro-12.9 (known: landscape/full, "),
                    "\(unknown.stderr)")
                #expect(unknown.stderr.split(separator: "\n").count == 1)
                let snapshot = try splitctl(daemon, "snapshot", "s", "--preset", "landscape/7/8")
                #expect(snapshot.exitCode == 65, "\(snapshot)")
                #expect(
                    snapshot.stderr.hasPrefix("splitctl: bad_request: unknown snapshot preset"), "\(snapshot.stderr)")
                // With --json both print the error object, with the same code.
                for command in ["resize", "snapshot"] {
                    let json = try splitctl(daemon, "--json", command, "s", "--preset", "landscape/7/8")
                    #expect(json.exitCode == 65, "\(json)")
                    #expect(
                        try JSONParser.parse(json.stdout)["error"]?["code"] == .string("bad_request"),
                        "\(command): \(json.stdout)")
                }
                // Nothing was resized.
                #expect(try daemon.client().getScene("s").revision == 3)
            }
        }

        @Test func snapshotSubcommands() throws {
            try withDaemon { daemon in
                #expect(try splitctl(daemon, "scene", "create", "s", "--device", "ipad-pro-12.9").exitCode == 0)
                let explicit = try jsonOutput(
                    try splitctl(daemon, "--json", "snapshot", "s", "--size", "375x1024", "--size", "1024x1366"))
                #expect(explicit["snapshots"]?.array?.count == 2)
                #expect(explicit["baseRevision"] == 1)
                let preset = try jsonOutput(try splitctl(daemon, "--json", "snapshot", "s", "--preset", "appSwitcher"))
                #expect((preset["snapshots"]?.array?.count ?? 0) >= 3)
                let list = try jsonOutput(try splitctl(daemon, "--json", "snapshot", "list", "s"))
                let sessions = try #require(list["sessions"]?.array)
                #expect(sessions.count == 2)
                let session = try #require(sessions.first?["session"])
                let sessionArgument = session.string ?? JSONWriter.string(session)
                let fetched = try jsonOutput(try splitctl(daemon, "--json", "snapshot", "get", sessionArgument))
                #expect(fetched["snapshots"] == explicit["snapshots"])
                let human = try splitctl(daemon, "snapshot", "s", "--size", "375x1024")
                #expect(human.exitCode == 0)
                #expect(human.stdout.contains("375x1024") && human.stdout.contains("collapsed"))
                #expect(try splitctl(daemon, "snapshot", "get", "no-such-session").exitCode == 65)
            }
        }

        @Test func watchPrintsTheAttachResultThenEachPush() throws {
            try withDaemon { daemon in
                #expect(try splitctl(daemon, "scene", "create", "s", "--device", "ipad-pro-12.9").exitCode == 0)
                let outPath = daemon.directory + "/watch.out", errPath = daemon.directory + "/watch.err"
                let watch = try ChildProcess(
                    Binaries.splitctl, ["--socket", daemon.socketPath, "--json", "watch", "s", "--count", "2"],
                    stdoutPath: outPath, stderrPath: errPath)
                defer { watch.killHard() }
                // Wait until it has attached (its first line is out), bounded.
                let deadline = ContinuousClock.now.advanced(by: .seconds(10))
                while readText(outPath).isEmpty, ContinuousClock.now < deadline, watch.isRunning { usleep(10_000) }
                let changer = try daemon.client()
                let first = try changer.resize("s", to: IPadPro129.half)
                let second = try changer.intent("s", .displayModeButton)
                #expect(watch.wait(timeout: .seconds(10)) == .exited(0), "\(readText(errPath))")
                let lines = readText(outPath).split(separator: "\n").map(String.init)
                #expect(lines.count == 3)
                let attached = try JSONParser.parse(lines[0])
                #expect(attached["revision"] == 1 && attached["layout"] != nil)
                let pushes = try lines.dropFirst().map { try LayoutPush(decoding: try JSONParser.parse($0)) }
                #expect(pushes.map(\.revision) == [first.revision, second.revision])
                #expect(pushes.map(\.layout) == [first.layout, second.layout])
            }
        }

        @Test func completionScriptsAreGenerated() throws {
            for shell in ["bash", "zsh", "fish"] {
                let output = try splitctl(nil, "--generate-completion-script", shell)
                #expect(output.exitCode == 0)
                #expect(output.stdout.contains("splitctl"))
                #expect(output.stdout.contains("show-detail"))
            }
        }
    }
}
