import Foundation

/// The daemon-level parts of `splitbench cluster` (`daemon-change`, `daemon-push`,
/// `failover`): figures through `splitd --cluster` nodes rather than the store alone.
enum ClusterDaemonParts {
    /// splitd next to this splitbench.
    static var defaultSplitd: String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("splitd").path
    }

    /// Refuses, before anything starts, a splitd without cluster mode.
    static func requireClusterSplitd(_ binary: String, parts: [ClusterPart]) throws {
        let names = parts.map(\.rawValue).joined(separator: ", ")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("\(names): no splitd at \(binary) (pass --splitd)")
        }
        let help = try Subprocess.run(binary, ["--help"], timeout: 30, scratch: NSTemporaryDirectory())
        guard help.output.contains("--cluster") else {
            throw BenchError("\(names): \(binary) has no cluster mode (no --cluster in its --help)")
        }
        throw BenchError(
            "\(names): not measured by this splitbench yet (the etcd parts put, store and watch are; docs/CLUSTER.md)")
    }

    static func run(_ part: ClusterPart) throws -> String {
        throw BenchError("\(part.rawValue): not measured by this splitbench yet")
    }
}
