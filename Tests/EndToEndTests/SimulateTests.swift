import Foundation
import SplitWire
import Testing

/// The scenarios shipped in Config/scenarios and what the catalog says about them.
enum ShippedScenarios {
    static let directory = Binaries.packageRoot + "/Config/scenarios"
    static let goldenDirectory = directory + "/golden"

    /// Scenario files: `*.json`, `*.yaml` and `*.yml`.
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    }

    /// The device profiles of Config/devices.json and how many presets each has.
    static func profilePresetCounts() throws -> [Int] {
        let catalog = try JSONParser.parse(readText(Binaries.packageRoot + "/Config/devices.json"))
        return (catalog["profiles"]?.array ?? []).map { $0["presets"]?.array?.count ?? 0 }
    }
}

/// Runs `splitctl simulate ARGS` (no daemon: --embedded or an explicit --socket in ARGS).
func simulate(_ arguments: String...) throws -> CommandOutput {
    try runCommand(Binaries.splitctl, ["simulate"] + arguments, timeout: .seconds(150))
}

extension EndToEnd {
    /// `splitctl simulate` with golden files.
    @Suite struct Simulate {
        @Test func checkPassesOnEveryShippedScenario() throws {
            let output = try simulate("--embedded", "--check", "--json", ShippedScenarios.directory)
            #expect(output.exitCode == 0, "\(output.stdout)\n\(output.stderr)")
            let summary = try JSONParser.parse(output.lines.last ?? "")
            let files = summary["files"]?.array ?? []
            #expect(files.count == ShippedScenarios.files.count)
            #expect(files.count >= 4)
            // The YAML scenario is among them, picked up from the directory like the JSON ones.
            #expect(files.contains { $0["file"]?.string?.hasSuffix("/display-modes-yaml.yaml") == true })
            for file in files { #expect(file["status"]?.string == "ok", "\(file)") }
            #expect(summary["failed"]?.int == 0)

            // The device matrix: every profile x 3 styles, each run a creation plus one resize per preset.
            let presets = try ShippedScenarios.profilePresetCounts()
            let matrix = try #require(files.first { $0["file"]?.string?.hasSuffix("/device-matrix.json") == true })
            #expect(matrix["runs"]?.int == 3 * presets.count)
            #expect(matrix["steps"]?.int == 3 * presets.reduce(0) { $0 + 1 + $1 })
            // One app-switcher run per iPad profile with split sizes and style, three sessions
            // each. The current-lineup rows (revision 2) mark their multitasking widths as
            // unpublished and so have no Split View sizes to snapshot: the scenario leaves them out.
            let iPads =
                try JSONParser.parse(readText(Binaries.packageRoot + "/Config/devices.json"))["profiles"]?.array?
                .filter { profile in
                    profile["idiom"]?.string == "pad"
                        && !(profile["unpublished"]?.array?.contains { $0.string == "multitaskingWidths" } ?? false)
                }.count ?? 0
            let appSwitcher = try #require(files.first { $0["file"]?.string?.hasSuffix("/app-switcher.json") == true })
            #expect(appSwitcher["runs"]?.int == 2 * iPads)
            #expect(appSwitcher["snapshots"]?.int == 3 * 2 * iPads)
        }

        @Test func anAlteredGoldenFileFailsWithADiffNamingTheStepAndField() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-golden")
            defer { removeDirectory(directory) }
            var golden = try JSONParser.parse(readText(ShippedScenarios.goldenDirectory + "/wechat-ipad.json"))
            // Flip `collapsed` in the step that collapses to the 1/3 window, and change a stack.
            var runs = try #require(golden["runs"]?.array)
            var steps = try #require(runs[0]["steps"]?.array)
            let index = try #require(steps.firstIndex { $0["do"]?.string?.hasPrefix("resize landscape/1/3") == true })
            let label = "step \(steps[index]["step"]?.int ?? -1) (\(steps[index]["do"]?.string ?? ""))"
            let originalCollapsed = try #require(steps[index]["layout"]?["collapsed"]?.bool)
            steps[index] = try replacing(steps[index], at: ["layout", "collapsed"], with: .bool(!originalCollapsed))
            steps[index] = try replacing(steps[index], at: ["revision"], with: .int(999))
            runs[0] = try replacing(runs[0], at: ["steps"], with: .array(steps))
            golden = try replacing(golden, at: ["runs"], with: .array(runs))
            try JSONWriter.string(golden).write(
                toFile: directory + "/wechat-ipad.json", atomically: true, encoding: .utf8)

            let output = try simulate(
                "--embedded", "--check", "--golden-dir", directory,
                ShippedScenarios.directory + "/wechat-ipad.json")
            #expect(output.exitCode == 1, "\(output)")
            #expect(output.stdout.contains("FAILED"))
            #expect(
                output.stdout.contains(
                    "\(label): layout.collapsed\n    expected: \(!originalCollapsed)\n    actual:   \(originalCollapsed)"
                ),
                "\(output.stdout)")
            #expect(output.stdout.contains("\(label): revision\n    expected: 999\n"), "\(output.stdout)")
            #expect(output.stdout.contains(": 1 failed in "))
        }

        @Test func recordWritesDeterministicSortedGoldensThatCheckAccepts() throws {
            let first = try makeTemporaryDirectory(prefix: "splitctl-golden")
            let second = try makeTemporaryDirectory(prefix: "splitctl-golden")
            defer {
                removeDirectory(first)
                removeDirectory(second)
            }
            let scenario = ShippedScenarios.directory + "/photo-browser.json"
            for directory in [first, second] {
                let recorded = try simulate("--embedded", "--record", "--golden-dir", directory, scenario)
                #expect(recorded.exitCode == 0, "\(recorded)")
                #expect(recorded.stdout.hasPrefix("recorded  \(directory)/photo-browser.json"))
            }
            let text = readText(first + "/photo-browser.json")
            #expect(!text.isEmpty && text == readText(second + "/photo-browser.json"))
            // Keys are sorted at every level: format < runs < scenario; do < layout < revision < step.
            let positions = [
                "\"format\"", "\"runs\"", "\"do\"", "\"layout\"", "\"revision\"", "\"step\"", "\"scenario\"",
            ]
            .map { text.range(of: $0)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil })
            #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
            #expect(try simulate("--embedded", "--check", "--golden-dir", first, scenario).exitCode == 0)
        }

        @Test func aFailedExpectationFailsTheRunAndIsNotRecorded() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            // SEMANTICS 2: a 375 pt window on the 12.9-inch iPad is compact, so the scene collapses.
            let scenario = """
                {"device": "ipad-pro-12.9", "steps": [{"resize": "landscape/1/3"}, {"expect": {"collapsed": false, "size.width": 375}}]}
                """
            try scenario.write(toFile: directory + "/wrong.json", atomically: true, encoding: .utf8)
            let output = try simulate(
                "--embedded", "--record", "--golden-dir", directory + "/golden", directory + "/wrong.json")
            #expect(output.exitCode == 1, "\(output)")
            #expect(
                output.stdout.contains("step 2 (expect, steps[1]): collapsed: expected false, actual true"),
                "\(output.stdout)")
            #expect(!output.stdout.contains("size.width"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/golden/wrong.json"))
        }

        @Test func aResizeStepCanStateTheInterfaceOrientation() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            // SEMANTICS 1: a 320x980 Slide Over window matches neither side of the 12.9-inch
            // screen, so by the rule it keeps the last value (landscape); stated, it wins.
            let scenario = """
                {"device": "ipad-pro-12.9", "steps": [
                  {"resize": {"width": 320, "height": 980}},
                  {"expect": {"interfaceOrientation": "landscape", "orientation": "portrait"}},
                  {"resize": {"width": 375, "height": 980}, "interfaceOrientation": "portrait"},
                  {"expect": {"interfaceOrientation": "portrait"}},
                  {"resize": "landscape/1/3", "interfaceOrientation": "portrait"},
                  {"expect": {"interfaceOrientation": "portrait", "size.width": 375}},
                  {"resize": "landscape/1/2"},
                  {"expect": {"interfaceOrientation": "landscape"}}
                ]}
                """
            try scenario.write(toFile: directory + "/held.json", atomically: true, encoding: .utf8)
            let output = try simulate(
                "--embedded", "--record", "--golden-dir", directory + "/golden", directory + "/held.json")
            #expect(output.exitCode == 0, "\(output)")
            let golden = try JSONParser.parse(readText(directory + "/golden/held.json"))
            let steps = golden["runs"]?[0]?["steps"]?.array ?? []
            // Stated orientations are part of the step's description; others read as before.
            #expect(
                steps.compactMap { $0["do"]?.string }.filter { $0.hasPrefix("resize") } == [
                    "resize 320x980", "resize 375x980 held portrait",
                    "resize landscape/1/3 = 375x1024 held portrait", "resize landscape/1/2 = 678x1024",
                ])
        }

        @Test func runsAgainstARunningDaemonAndDeletesItsScenes() throws {
            try withDaemon { daemon in
                let output = try splitctl(
                    daemon, "simulate", "--check", ShippedScenarios.directory + "/wechat-ipad.json")
                #expect(output.exitCode == 0, "\(output)")
                #expect(output.stdout.contains("ok        \(ShippedScenarios.directory)/wechat-ipad.json"))
                #expect(try daemon.client().listScenes().isEmpty)
            }
        }

        @Test func aMissingGoldenFileFailsTheCheck() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-golden")
            defer { removeDirectory(directory) }
            let output = try simulate(
                "--embedded", "--check", "--golden-dir", directory, ShippedScenarios.directory + "/photo-browser.json")
            #expect(output.exitCode == 1)
            #expect(output.stdout.contains("no golden file at \(directory)/photo-browser.json"))
        }

        @Test(arguments: [
            [],  // no scenario
            ["--check", "--record", "x.json"],
            ["--embedded", "--socket", "/tmp/x.sock", "x.json"],
            ["--golden-dir"],  // option without its value
            ["--frobnicate", "x.json"],
        ])
        func usageErrorsExit64(arguments: [String]) throws {
            let output = try runCommand(Binaries.splitctl, ["simulate"] + arguments)
            #expect(output.exitCode == 64, "\(arguments): \(output)")
            #expect(!output.stderr.isEmpty)
            #expect(output.stdout.isEmpty)
        }

        @Test(
            arguments: [
                ("missing.json", nil, "missing.json: no such file or directory"),
                ("bad.json", "{\"device\": ", "bad.json: not valid JSON"),
                (
                    "lines.json", "{\n \"device\": \"mac\",\n \"steps\": [,]\n}\n",
                    "lines.json: not valid JSON (line 3, column 12 (byte 31): unexpected ','"
                ),
                (
                    "typo.json", "{\"device\": \"mac\", \"steps\": [{\"resise\": \"portrait/full\"}]}",
                    "typo.json: steps[0].resise: unknown key"
                ),
                (
                    "two.json",
                    "{\"device\": \"mac\", \"steps\": [{\"resize\": \"portrait/full\", \"expect\": {\"collapsed\": false}}]}",
                    "two.json: steps[0]: a step needs exactly one of"
                ),
                (
                    "held.json",
                    "{\"device\": \"mac\", \"steps\": [{\"resize\": \"portrait/full\", \"interfaceOrientation\": \"upsideDown\"}]}",
                    "held.json: steps[0].interfaceOrientation: expected portrait or landscape, got 'upsideDown'"
                ),
                (
                    "heldintent.json",
                    "{\"device\": \"mac\", \"steps\": [{\"intent\": {\"kind\": \"back\"}, \"interfaceOrientation\": \"portrait\"}]}",
                    "heldintent.json: steps[0].interfaceOrientation: only resize steps can state the interface orientation"
                ),
                (
                    "nodevice.json", "{\"steps\": []}",
                    "nodevice.json: device: a device profile id or rule-set name is required"
                ),
                (
                    "matrix.json", "{\"device\": \"${d}\", \"matrix\": {\"d\": 3}, \"steps\": []}",
                    "matrix.json: matrix.d: expected a non-empty array"
                ),
            ] as [(String, String?, String)])
        func anInvalidScenarioExits66NamingTheFileAndField(name: String, content: String?, message: String) throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            if let content { try content.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
            let output = try simulate("--embedded", directory + "/" + name)
            #expect(output.exitCode == 66, "\(output)")
            #expect(output.stderr.hasPrefix("splitctl: \(directory)/\(message)"), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1)
        }

        /// Defect: YAML scenario files were not read at all. The shipped YAML copy of
        /// display-modes.json must give the same layouts, step by step, as the JSON original.
        @Test func aYAMLScenarioGivesTheSameLayoutsAsItsJSONTwin() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-golden")
            defer { removeDirectory(directory) }
            let output = try simulate(
                "--embedded", "--record", "--golden-dir", directory,
                ShippedScenarios.directory + "/display-modes.json",
                ShippedScenarios.directory + "/display-modes-yaml.yaml")
            #expect(output.exitCode == 0, "\(output)")
            let fromJSON = try JSONParser.parse(readText(directory + "/display-modes.json"))
            let fromYAML = try JSONParser.parse(readText(directory + "/display-modes-yaml.json"))
            let jsonSteps = try #require(fromJSON["runs"]?[0]?["steps"]?.array)
            #expect(jsonSteps.count == 16)
            #expect(fromYAML["runs"]?[0]?["steps"]?.array == jsonSteps)
            #expect(fromYAML["scenario"] == "display-modes-yaml")
            // And the shipped goldens agree too (a change to one file and not the other shows here).
            let shippedJSON = try JSONParser.parse(readText(ShippedScenarios.goldenDirectory + "/display-modes.json"))
            let shippedYAML = try JSONParser.parse(
                readText(ShippedScenarios.goldenDirectory + "/display-modes-yaml.json"))
            #expect(shippedYAML["runs"]?[0]?["steps"] == shippedJSON["runs"]?[0]?["steps"])
        }

        @Test func aDirectoryGivesItsJSONAndYAMLFilesByName() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            try #"{"device": "ipad-pro-12.9", "steps": [{"expect": {"collapsed": false}}]}"#
                .write(toFile: directory + "/a.json", atomically: true, encoding: .utf8)
            // Core-schema scalars: ints, floats, booleans typed; `yes` would be a string.
            try
                "device: ipad-pro-12.9\nsize: {width: 678, height: 1024.0}\nsteps:\n  - expect: {collapsed: false, size.width: 678, columns.count: 0x2}\n"
                .write(toFile: directory + "/b.yml", atomically: true, encoding: .utf8)
            try
                "device: ipad-pro-12.9\nsteps:\n  - resize: landscape/1/3\n  - expect:\n      collapsed: true\n      traits.horizontalSizeClass: compact\n"
                .write(toFile: directory + "/c.yaml", atomically: true, encoding: .utf8)
            try "not a scenario".write(toFile: directory + "/notes.txt", atomically: true, encoding: .utf8)
            let output = try simulate("--embedded", "--json", directory)
            #expect(output.exitCode == 0, "\(output)")
            let summary = try JSONParser.parse(output.lines.last ?? "")
            #expect(
                summary["files"]?.array?.compactMap { $0["file"]?.string }
                    == ["a.json", "b.yml", "c.yaml"].map { directory + "/" + $0 })
            #expect(summary["expectations"]?.int == 6)
            #expect(summary["failed"]?.int == 0)
        }

        @Test func yamlScalarsFollowTheCoreSchema() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            // YAML 1.1 read `no` as false; here it is the string "no", which does not match false.
            try "device: ipad-pro-12.9\nsteps:\n  - expect: {collapsed: no}\n"
                .write(toFile: directory + "/norway.yaml", atomically: true, encoding: .utf8)
            let output = try simulate("--embedded", directory + "/norway.yaml")
            #expect(output.exitCode == 1, "\(output)")
            #expect(output.stdout.contains(#"collapsed: expected "no", actual false"#), "\(output.stdout)")
        }

        @Test(
            arguments: [
                (
                    "bad.yaml", "device: mac\nsteps: [\n",
                    "bad.yaml: not valid YAML (line 3, column 1: did not find expected node content"
                ),
                (
                    "tabs.yml", "device: mac\nsteps:\n\t- resize: portrait/full\n",
                    "tabs.yml: not valid YAML (line 3, column 1: found character that cannot start any token"
                ),
                // A duplicate key is reported where it repeats, not at its first occurrence.
                (
                    "dup.yaml", "device: mac\ndevice: iphone-8\nsteps: []\n",
                    "dup.yaml: not valid YAML (line 2, column 1: duplicate key \"device\")"
                ),
                (
                    "dup2.yaml",
                    "steps: []\nconfig:\n  style: classic\n  x: 1\n  style: tripleColumn\n  style: b\ndevice: mac\n",
                    "dup2.yaml: not valid YAML (line 5, column 3: duplicate key \"style\")"
                ),
                (
                    "dup3.yaml", "steps: []\nconfig: {style: classic, \"style\": tripleColumn}\ndevice: mac\n",
                    "dup3.yaml: not valid YAML (line 2, column 26: duplicate key \"style\")"
                ),
                (
                    "two.yaml", "device: mac\nsteps: []\n---\ndevice: mac\n",
                    "two.yaml: not valid YAML (line 3, column 1: but found another document"
                ),
                ("empty.yaml", "# nothing\n", "empty.yaml: not valid YAML (empty document)"),
                ("list.yaml", "- device: mac\n", "list.yaml: a scenario must be a mapping"),
                (
                    "typo.yaml", "device: mac\nsteps:\n  - resise: portrait/full\n",
                    "typo.yaml: steps[0].resise: unknown key"
                ),
                (
                    "inf.yaml", "device: mac\nsteps:\n  - resize: {width: .inf, height: 10}\n",
                    "inf.yaml: steps[0].resize.width: '.inf' is not a finite number: JSON has no infinity or NaN (line 3, column 21)"
                ),
                (
                    "merge.yaml", "base: &b {device: mac}\n<<: *b\nsteps: []\n",
                    "merge.yaml: merge keys (<<) are not supported (line 2, column 1)"
                ),
                (
                    "key.yaml", "device: mac\n[a]: 1\nsteps: []\n",
                    "key.yaml: a key must be a plain string, not a sequence (line 2, column 1)"
                ),
            ] as [(String, String, String)])
        func anInvalidYAMLScenarioExits66NamingTheFileAndWhere(name: String, content: String, message: String) throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            try content.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            let output = try simulate("--embedded", directory + "/" + name)
            #expect(output.exitCode == 66, "\(output)")
            #expect(output.stderr.hasPrefix("splitctl: \(directory)/\(message)"), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }

        /// A file that is not UTF-8 used to get Foundation's "the file isn't in the correct format".
        @Test func aScenarioThatIsNotUTF8IsToldWhere() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            for (name, bytes, offset) in [
                ("bom.json", [0xFF, 0xFE] + Array(#"{"device": "mac"}"#.utf8), 0),
                ("latin1.yaml", Array("device: caf".utf8) + [0xE9] + Array("\nsteps: []\n".utf8), 11),
            ] {
                try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
                let output = try simulate("--embedded", directory + "/" + name)
                #expect(output.exitCode == 66, "\(output)")
                #expect(output.stderr == "splitctl: \(directory)/\(name): not valid UTF-8 (byte \(offset))\n")
            }
        }

        /// Defect: an unreadable or invalid golden file exited 1 (a failed scenario) instead of
        /// 66 (bad input), as the help and docs say.
        @Test(arguments: [
            ("{\"format\": 1, \"runs\": [", "unreadable golden file: byte "),
            ("{\"format\": 2, \"runs\": []}", "not a format-1 golden file (re-record it with --record)"),
            ("[1, 2]", "not a format-1 golden file"),
        ])
        func anInvalidGoldenFileExits66(content: String, message: String) throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-golden")
            defer { removeDirectory(directory) }
            try content.write(toFile: directory + "/photo-browser.json", atomically: true, encoding: .utf8)
            let output = try simulate(
                "--embedded", "--check", "--golden-dir", directory,
                ShippedScenarios.directory + "/photo-browser.json")
            #expect(output.exitCode == 66, "\(output)")
            #expect(
                output.stderr.hasPrefix("splitctl: \(directory)/photo-browser.json: \(message)"), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }

        /// Defect: two scenario files with one base name silently shared (and overwrote) one
        /// golden file.
        @Test func twoScenarioFilesSharingAGoldenFileAreAUsageError() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            for sub in ["ca", "cb"] {
                try FileManager.default.createDirectory(
                    atPath: "\(directory)/\(sub)", withIntermediateDirectories: true)
                try #"{"device": "ipad-pro-12.9", "steps": []}"#.write(
                    toFile: "\(directory)/\(sub)/x.json", atomically: true, encoding: .utf8)
            }
            try "device: ipad-pro-12.9\nsteps: []\n".write(
                toFile: directory + "/ca/x.yaml", atomically: true, encoding: .utf8)
            let golden = directory + "/golden"
            for mode in ["--record", "--check"] {
                let output = try simulate(
                    "--embedded", mode, "--golden-dir", golden, directory + "/ca/x.json", directory + "/cb/x.json")
                #expect(output.exitCode == 64, "\(mode): \(output)")
                #expect(
                    output.stderr
                        == "splitctl: \(directory)/ca/x.json and \(directory)/cb/x.json would share the golden file "
                        + "\(golden)/x.json (rename one, or run them in separate invocations)\n", "\(output.stderr)")
                #expect(output.stdout.isEmpty)
            }
            #expect(!FileManager.default.fileExists(atPath: golden + "/x.json"))
            // x.json and x.yaml side by side: both would use golden/x.json beside them.
            let sideBySide = try simulate("--embedded", "--record", directory + "/ca")
            #expect(sideBySide.exitCode == 64, "\(sideBySide)")
            #expect(
                sideBySide.stderr.contains(
                    "\(directory)/ca/x.json and \(directory)/ca/x.yaml would share the golden file \(directory)/ca/golden/x.json"
                ),
                "\(sideBySide.stderr)")
            // Without golden files involved, both run; the same file twice is not a clash.
            #expect(try simulate("--embedded", directory + "/ca/x.json", directory + "/cb/x.json").exitCode == 0)
            #expect(
                try simulate(
                    "--embedded", "--record", "--golden-dir", golden, directory + "/ca/x.json", directory + "/ca/x.json"
                ).exitCode == 0)
        }

        @Test func anUnreachableDaemonExits69() throws {
            let output = try simulate(
                "--socket", "/nonexistent/splitd.sock", ShippedScenarios.directory + "/wechat-ipad.json")
            #expect(output.exitCode == 69)
            #expect(output.stderr.hasPrefix("splitctl: no socket at /nonexistent/splitd.sock"))
            #expect(output.stdout.isEmpty)
        }
    }
}

/// `value` with the member at `path` (object keys) replaced.
private func replacing(_ value: JSONValue, at path: [String], with replacement: JSONValue) throws -> JSONValue {
    guard let key = path.first else { return replacement }
    guard var object = value.object, let child = object[key] else { throw HarnessError("no '\(key)' in \(value)") }
    object[key] = try replacing(child, at: Array(path.dropFirst()), with: replacement)
    return .object(object)
}
