import Foundation
import Glibc
@testable import SplitSettings
import Testing

@Suite("Cluster configuration")
struct ClusterConfigTests {
    private let base = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    private func writeFile(_ text: String) -> String {
        let path = "/tmp/splitd-cluster-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    private func problems(_ sources: ConfigSources) async -> [String] {
        do {
            _ = try await ConfigLoader.load(sources)
            return []
        } catch let error as ConfigError {
            return error.problems
        } catch {
            return ["\(error)"]
        }
    }

    @Test func withoutEndpointsTheDaemonIsSingleHost() async throws {
        let settings = try await ConfigLoader.load(ConfigSources(environment: base))
        #expect(settings.cluster == nil)
        #expect(settings.databasePath == "/home/u/.local/state/splitd/splitd.db")
    }

    @Test func flagsBeatEnvironmentBeatFileBeatDefaults() async throws {
        let file = writeFile(
            #"{"cluster": {"endpoints": "http://10.0.0.9:2379", "node": "file-node", "prefix": "/file/"}}"#)
        var environment = base
        environment["SPLITD_CLUSTER_ENDPOINTS"] = "http://10.0.0.1:2379, http://10.0.0.2:2379"
        environment["SPLITD_CLUSTER_NODE"] = "env-node"
        let fromFile = try await ConfigLoader.load(ConfigSources(configFile: file, environment: base))
        #expect(
            fromFile.cluster
                == ClusterSettings(endpoints: ["http://10.0.0.9:2379"], node: "file-node", prefix: "/file/"))
        let fromEnvironment = try await ConfigLoader.load(ConfigSources(configFile: file, environment: environment))
        #expect(fromEnvironment.cluster?.endpoints == ["http://10.0.0.1:2379", "http://10.0.0.2:2379"])
        #expect(fromEnvironment.cluster?.node == "env-node")
        #expect(fromEnvironment.cluster?.prefix == "/file/")
        let fromFlags = try await ConfigLoader.load(
            ConfigSources(
                flags: ["cluster.endpoints": "http://127.0.0.1:2379", "cluster.node": "flag-node"], configFile: file,
                environment: environment))
        #expect(
            fromFlags.cluster
                == ClusterSettings(endpoints: ["http://127.0.0.1:2379"], node: "flag-node", prefix: "/file/"))
        let defaults = try await ConfigLoader.load(
            ConfigSources(flags: ["cluster.endpoints": "http://127.0.0.1", "cluster.node": "n"], environment: base))
        #expect(defaults.cluster?.prefix == "/splitd/")
    }

    @Test func tlsFilesComeFromTheNestedObjectOrTheEnvironment() async throws {
        let file = writeFile(
            #"{"cluster": {"endpoints": "https://10.0.0.1:2379", "node": "a", "tls": {"ca": "/c/ca.pem", "cert": "/c/n.pem", "key": "/c/n-key.pem"}}}"#
        )
        let fromFile = try await ConfigLoader.load(ConfigSources(configFile: file, environment: base))
        #expect(fromFile.cluster?.tlsCA == "/c/ca.pem")
        #expect(fromFile.cluster?.tlsCert == "/c/n.pem")
        #expect(fromFile.cluster?.tlsKey == "/c/n-key.pem")
        var environment = base
        environment["SPLITD_CLUSTER_TLS_CA"] = "/e/ca.pem"
        let layered = try await ConfigLoader.load(ConfigSources(configFile: file, environment: environment))
        #expect(layered.cluster?.tlsCA == "/e/ca.pem")
        #expect(layered.cluster?.tlsCert == "/c/n.pem")
    }

    @Test func badClusterSettingsAreRefusedWithTheirReason() async throws {
        func refused(_ flags: [String: String], environment extra: [String: String] = [:]) async -> [String] {
            await problems(ConfigSources(flags: flags, environment: base.merging(extra) { $1 }))
        }
        #expect(
            await refused(["cluster.endpoints": "10.0.0.1:2379", "cluster.node": "a"]).contains {
                $0.contains("must start with http:// or https://")
            })
        #expect(
            await refused(["cluster.endpoints": "http://10.0.0.1:99999", "cluster.node": "a"]).contains {
                $0.contains("bad port")
            })
        #expect(
            await refused(["cluster.endpoints": "http://10.0.0.1:2379"]).contains {
                $0.contains("cluster.node (--node, SPLITD_CLUSTER_NODE) is required")
            })
        #expect(
            await refused(["cluster.endpoints": "http://10.0.0.1:2379", "cluster.node": "a b"]).contains {
                $0.contains("cluster.node")
            })
        #expect(
            await refused(["cluster.endpoints": "https://10.0.0.1:2379", "cluster.node": "a"]).contains {
                $0.contains("https:// etcd endpoints need")
            })
        #expect(
            await refused(
                ["cluster.endpoints": "http://10.0.0.1:2379", "cluster.node": "a"],
                environment: ["SPLITD_CLUSTER_TLS_CA": "/c/ca.pem"]
            ).contains { $0.contains("go together") })
        #expect(
            await refused(["cluster.endpoints": "http://a:1,https://b:2", "cluster.node": "a"]).contains {
                $0.contains("mix")
            })
        #expect(await refused(["cluster.node": "a"]).contains { $0.contains("cluster.endpoints is not") })
        let file = writeFile(#"{"cluster": {"tls": {"cafile": "x"}}}"#)
        #expect(
            await problems(ConfigSources(configFile: file, environment: base)).contains {
                $0.contains("unknown setting 'cluster.tls.cafile'")
            })
    }

    @Test func theSettingsReportShowsTheCluster() async throws {
        let single = try await ConfigLoader.load(ConfigSources(environment: base))
        #expect(SettingsReport.describe(single, configFile: nil).contains("cluster.endpoints"))
        #expect(SettingsReport.describe(single, configFile: nil).contains("none (single host: the local database)"))
        let clustered = try await ConfigLoader.load(
            ConfigSources(
                flags: ["cluster.endpoints": "http://10.0.0.1:2379", "cluster.node": "n1"], environment: base))
        let report = SettingsReport.describe(clustered, configFile: nil)
        #expect(report.contains("http://10.0.0.1:2379"))
        #expect(report.contains("n1"))
        #expect(report.contains("/splitd/"))
    }

    @Test func theDocumentedDefaultsNestTheTLSKeys() throws {
        let text = ConfigKeys.documentedDefaultJSON()
        #expect(text.contains("\"tls\": {"))
        #expect(text.contains("SPLITD_CLUSTER_TLS_CA"))
    }
}
