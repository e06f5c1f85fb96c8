import Foundation
import SplitWire
import Testing

/// The scenarios shipped in Config/scenarios and what the catalog says about them.
enum ShippedScenarios {
    static let directory = Binaries.packageRoot + "/Config/scenarios"
    static let goldenDirectory = directory + "/golden"

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
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
    /// Issue 4 item 3: `splitctl simulate` with golden files.
    @Suite struct Simulate {
        @Test func checkPassesOnEveryShippedScenario() throws {
            let output = try simulate("--embedded", "--check", "--json", ShippedScenarios.directory)
            #expect(output.exitCode == 0, "\(output.stdout)\n\(output.stderr)")
            let summary = try JSONParser.parse(output.lines.last ?? "")
            let files = summary["files"]?.array ?? []
            #expect(files.count == ShippedScenarios.files.count)
            #expect(files.count >= 4)
            for file in files { #expect(file["status"]?.string == "ok", "\(file)") }
            #expect(summary["failed"]?.int == 0)

            // The device matrix: every profile x 3 styles, each run a creation plus one resize per preset.
            let presets = try ShippedScenarios.profilePresetCounts()
            let matrix = try #require(files.first { $0["file"]?.string?.hasSuffix("/device-matrix.json") == true })
            #expect(matrix["runs"]?.int == 3 * presets.count)
            #expect(matrix["steps"]?.int == 3 * presets.reduce(0) { $0 + 1 + $1 })
            // One app-switcher run per iPad profile and style, three sessions each.
            let iPads = try JSONParser.parse(readText(Binaries.packageRoot + "/Config/devices.json"))["profiles"]?.array?
                .filter { $0["idiom"]?.string == "pad" }.count ?? 0
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
            try JSONWriter.string(golden).write(toFile: directory + "/wechat-ipad.json", atomically: true, encoding: .utf8)

            let output = try simulate("--embedded", "--check", "--golden-dir", directory,
                                      ShippedScenarios.directory + "/wechat-ipad.json")
            #expect(output.exitCode == 1, "\(output)")
            #expect(output.stdout.contains("FAILED"))
            #expect(output.stdout.contains("\(label): layout.collapsed\n    expected: \(!originalCollapsed)\n    actual:   \(originalCollapsed)"),
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
            let positions = ["\"format\"", "\"runs\"", "\"do\"", "\"layout\"", "\"revision\"", "\"step\"", "\"scenario\""]
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
            let output = try simulate("--embedded", "--record", "--golden-dir", directory + "/golden", directory + "/wrong.json")
            #expect(output.exitCode == 1, "\(output)")
            #expect(output.stdout.contains("step 2 (expect, steps[1]): collapsed: expected false, actual true"), "\(output.stdout)")
            #expect(!output.stdout.contains("size.width"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/golden/wrong.json"))
        }

        @Test func runsAgainstARunningDaemonAndDeletesItsScenes() throws {
            try withDaemon { daemon in
                let output = try splitctl(daemon, "simulate", "--check", ShippedScenarios.directory + "/wechat-ipad.json")
                #expect(output.exitCode == 0, "\(output)")
                #expect(output.stdout.contains("ok        \(ShippedScenarios.directory)/wechat-ipad.json"))
                #expect(try daemon.client().listScenes().isEmpty)
            }
        }

        @Test func aMissingGoldenFileFailsTheCheck() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-golden")
            defer { removeDirectory(directory) }
            let output = try simulate("--embedded", "--check", "--golden-dir", directory, ShippedScenarios.directory + "/photo-browser.json")
            #expect(output.exitCode == 1)
            #expect(output.stdout.contains("no golden file at \(directory)/photo-browser.json"))
        }

        @Test(arguments: [
            [],                                                      // no scenario
            ["--check", "--record", "x.json"],
            ["--embedded", "--socket", "/tmp/x.sock", "x.json"],
            ["--golden-dir"],                                        // option without its value
            ["--frobnicate", "x.json"],
        ])
        func usageErrorsExit64(arguments: [String]) throws {
            let output = try runCommand(Binaries.splitctl, ["simulate"] + arguments)
            #expect(output.exitCode == 64, "\(arguments): \(output)")
            #expect(!output.stderr.isEmpty)
            #expect(output.stdout.isEmpty)
        }

        @Test(arguments: [
            ("missing.json", nil, "missing.json: no such file or directory"),
            ("bad.json", "{\"device\": ", "bad.json: not valid JSON"),
            ("typo.json", "{\"device\": \"mac\", \"steps\": [{\"resise\": \"portrait/full\"}]}", "typo.json: steps[0].resise: unknown key"),
            ("two.json", "{\"device\": \"mac\", \"steps\": [{\"resize\": \"portrait/full\", \"expect\": {\"collapsed\": false}}]}",
             "two.json: steps[0]: a step needs exactly one of"),
            ("nodevice.json", "{\"steps\": []}", "nodevice.json: device: a device profile id or rule-set name is required"),
            ("matrix.json", "{\"device\": \"${d}\", \"matrix\": {\"d\": 3}, \"steps\": []}", "matrix.json: matrix.d: expected a non-empty array"),
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

        @Test func anUnreachableDaemonExits69() throws {
            let output = try simulate("--socket", "/nonexistent/splitd.sock", ShippedScenarios.directory + "/wechat-ipad.json")
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
