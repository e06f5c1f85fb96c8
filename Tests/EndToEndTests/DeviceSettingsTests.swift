import Foundation
import SplitClient
import SplitCore
import Testing

extension EndToEnd {
    /// SEMANTICS 2: "640 is ours, configurable", and rule sets with an optional hysteresis
    /// band, set through the daemon's configuration (`devices.*`).
    @Suite struct DeviceSettings {
        @Test func theWindowedIPadThresholdIsConfigurable() throws {
            // 678 (the 12.9" half split) is regular at the default 640, compact from 700 on.
            try withDaemon { daemon in
                let client = try daemon.client()
                let scene = try client.createScene(
                    "half", device: IPadPro129.device, size: Size(width: 678, height: 1024))
                #expect(scene.layout.traits.horizontalSizeClass == .regular)
            }
            try withDaemon(environment: ["SPLITD_DEVICES_WINDOWED_REGULAR_MIN_WIDTH": "700"]) { daemon in
                let client = try daemon.client()
                let half = try client.createScene(
                    "half", device: IPadPro129.device, size: Size(width: 678, height: 1024))
                #expect(half.layout.traits.horizontalSizeClass == .compact && half.layout.collapsed)
                let wider = try client.resize("half", to: Size(width: 700, height: 1024))
                #expect(wider.layout.traits.horizontalSizeClass == .regular)
                // Full screen stays regular whatever the threshold.
                let full = try client.createScene("full", device: IPadPro129.device)
                #expect(full.layout.traits.horizontalSizeClass == .regular)
            }
        }

        @Test func aRuleSetFromTheConfigurationIsADeviceAndItsHysteresisHolds() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-rulesets")
            defer { removeDirectory(directory) }
            let rules = directory + "/rules.json"
            _ = FileManager.default.createFile(
                atPath: rules,
                contents: Data(
                    #"""
                    {"ruleSets": [{"name": "kiosk", "defaults": {"horizontal": "regular", "vertical": "regular"}, "hysteresis": 16,
                                   "rules": [{"when": {"max-width": 500}, "horizontal": "compact"}]}]}
                    """#.utf8))
            let config = directory + "/splitd.json"
            _ = FileManager.default.createFile(
                atPath: config, contents: Data(#"{"devices": {"ruleSetsFile": "\#(rules)"}}"#.utf8))
            try withDaemon(extraArguments: ["--config", config]) { daemon in
                let client = try daemon.client()
                let scene = try client.createScene("k", device: "kiosk", size: Size(width: 800, height: 600))
                #expect(scene.layout.traits.horizontalSizeClass == .regular)
                // Regular -> compact only 16 pt past the breakpoint (at 484 or below).
                #expect(
                    try client.resize("k", to: Size(width: 490, height: 600)).layout.traits.horizontalSizeClass
                        == .regular)
                #expect(
                    try client.resize("k", to: Size(width: 484, height: 600)).layout.traits.horizontalSizeClass
                        == .compact)
                // And back only above 516.
                #expect(
                    try client.resize("k", to: Size(width: 510, height: 600)).layout.traits.horizontalSizeClass
                        == .compact)
                #expect(
                    try client.resize("k", to: Size(width: 517, height: 600)).layout.traits.horizontalSizeClass
                        == .regular)
                // The built-in devices are still there.
                #expect(
                    try client.createScene("m", device: "material", size: Size(width: 900, height: 600)).revision == 1)
            }
        }

        @Test func aBadRuleSetsFileRefusesTheStartNamingIt() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-rulesets-bad")
            defer { removeDirectory(directory) }
            let rules = directory + "/rules.json"
            _ = FileManager.default.createFile(
                atPath: rules, contents: Data(#"{"ruleSets": [{"name": "material", "rules": []}]}"#.utf8))
            let check = try runCommand(
                Binaries.splitd, ["--check-config"], environment: ["SPLITD_DEVICES_RULE_SETS_FILE": rules])
            #expect(check.exitCode != 0)
            #expect(check.stderr.contains("devices.ruleSetsFile"), "\(check.stderr)")
            let missing = try runCommand(
                Binaries.splitd, ["--check-config"],
                environment: ["SPLITD_DEVICES_RULE_SETS_FILE": directory + "/none.json"])
            #expect(missing.exitCode != 0)
            #expect(missing.stderr.contains("cannot read"), "\(missing.stderr)")
        }
    }
}
