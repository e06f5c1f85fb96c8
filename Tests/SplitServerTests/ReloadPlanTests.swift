import Foundation
@testable import SplitServer
@testable import SplitSettings
import Testing

/// Every configuration key, changed alone, is either applied by a SIGHUP or named as needing a
/// restart, as its documentation says ("Reloaded on SIGHUP" / "Needs a restart"): a key that
/// is neither would be silently ignored by a reload.
@Suite("SIGHUP reload plan")
struct ReloadPlanTests {
    private static let environment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    /// A rule-set file the loader accepts (it reads the file).
    private static let validRuleSetsFile: String = {
        let path = "/tmp/splitd-reload-rulesets-\(getpid()).json"
        let json =
            #"{"ruleSets": [{"name": "reload-test", "rules": [{"when": {"max-width": 400}, "horizontal": "compact"}]}]}"#
        _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        return path
    }()

    /// A valid value for `spec` other than its default, as a command-line flag would give it.
    private static func otherValue(for spec: ConfigKeySpec) -> [String] {
        switch spec.kind {
        case .choice(let allowed):
            return allowed.filter { "\"\($0)\"" != spec.defaultJSON }
        case .int:
            let value = Int(spec.defaultJSON ?? "") ?? 0
            return [String(value - 1), String(value + 1)]
        case .intArray:
            return ["4242"]
        case .string:
            switch spec.key {
            case "socket.path": return ["/tmp/reload-test/other.sock"]
            case "database.path": return ["/tmp/reload-test/other.db"]
            case "socket.group": return ["0"]
            case "devices.ruleSetsFile": return [validRuleSetsFile]
            case "cluster.endpoints": return ["http://127.0.0.2:2379"]
            case "cluster.prefix": return ["/other/"]
            case "cluster.tls.ca", "cluster.tls.cert", "cluster.tls.key": return ["/other/file.pem"]
            default: return ["other-\(spec.key)"]
            }
        }
    }

    @Test(arguments: ConfigKeys.all.map(\.key))
    func eachKeyIsAppliedOrNamed(_ key: String) async throws {
        let spec = try #require(ConfigKeys.spec(key))
        let reloaded = spec.help.contains("Reloaded on SIGHUP")
        let needsRestart = spec.help.contains("Needs a restart")
        #expect(
            reloaded != needsRestart, "\(key)'s help must say exactly one of 'Reloaded on SIGHUP' and 'Needs a restart'"
        )
        // A cluster key is valid only beside the others: a cluster (with TLS for tls.*) underneath.
        var environment = Self.environment
        if key.hasPrefix("cluster.") {
            let tls = key.hasPrefix("cluster.tls.")
            environment["SPLITD_CLUSTER_ENDPOINTS"] = tls ? "https://127.0.0.1:2379" : "http://127.0.0.1:2379"
            environment["SPLITD_CLUSTER_NODE"] = "n1"
            if tls {
                for name in ["CA", "CERT", "KEY"] { environment["SPLITD_CLUSTER_TLS_\(name)"] = "/c/\(name).pem" }
            }
        }
        let current = try await ConfigLoader.load(ConfigSources(environment: environment))
        var changed: ServerSettings?
        for value in Self.otherValue(for: spec) {
            guard
                let settings = try? await ConfigLoader.load(
                    ConfigSources(flags: [key: value], environment: environment)),
                settings != current
            else { continue }
            changed = settings
            break
        }
        let new = try #require(changed, "no valid value of \(key) changes the settings")
        let plan = ReloadPlan(current: current, new: new)
        if reloaded {
            #expect(plan.applied == new)
            #expect(plan.restartNeeded.isEmpty)
            // The log names what was taken, and only that.
            #expect(
                plan.appliedChanges.count == 1 && plan.appliedChanges.first?.hasPrefix(key + " ") == true,
                "\(plan.appliedChanges)")
        } else {
            #expect(plan.applied == current)
            #expect(plan.restartNeeded.count == 1)
            #expect(plan.appliedChanges.isEmpty)
        }
    }

    @Test func nothingChangedNamesNothing() async throws {
        let current = try await ConfigLoader.load(ConfigSources(environment: Self.environment))
        let plan = ReloadPlan(current: current, new: current)
        #expect(plan.applied == current)
        #expect(plan.restartNeeded.isEmpty && plan.appliedChanges.isEmpty)
    }

    @Test func theGroupCommitKeysAreNamedTogether() async throws {
        let current = try await ConfigLoader.load(ConfigSources(environment: Self.environment))
        let new = try await ConfigLoader.load(
            ConfigSources(
                flags: ["database.flushDelayMicroseconds": "0", "database.flushDelayCount": "64"],
                environment: Self.environment))
        #expect(ReloadPlan(current: current, new: new).restartNeeded == ["group commit (database.flushDelay*)"])
    }

    /// The rule-set file is read once: the catalog is built from the bytes the configuration
    /// checked (a file changed or removed since is not read again), and a reload that finds
    /// other bytes at the same path names the devices as needing a restart.
    @Test func theRuleSetFileIsReadOnceAndAChangeOfItsContentIsNamed() async throws {
        let path = "/tmp/splitd-reload-rulesets-content-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first =
            #"{"ruleSets": [{"name": "first", "rules": [{"when": {"max-width": 400}, "horizontal": "compact"}]}]}"#
        let second =
            #"{"ruleSets": [{"name": "second", "rules": [{"when": {"max-width": 400}, "horizontal": "compact"}]}]}"#
        _ = FileManager.default.createFile(atPath: path, contents: Data(first.utf8))
        let current = try await ConfigLoader.load(
            ConfigSources(flags: ["devices.ruleSetsFile": path], environment: Self.environment))
        _ = FileManager.default.createFile(atPath: path, contents: Data(second.utf8))
        let catalog = try current.deviceCatalog()
        #expect(catalog.contains(device: "first") && !catalog.contains(device: "second"))
        let new = try await ConfigLoader.load(
            ConfigSources(flags: ["devices.ruleSetsFile": path], environment: Self.environment))
        #expect(ReloadPlan(current: current, new: new).restartNeeded == ["devices"])
        try FileManager.default.removeItem(atPath: path)
        #expect(try current.deviceCatalog().contains(device: "first"))
    }
}
