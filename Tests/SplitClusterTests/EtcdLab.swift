import Foundation
import XCTest
@testable import SplitCluster

/// A 3-member etcd cluster in network namespaces for one test class, through
/// Scripts/cluster-netns (the same commands a person uses by hand). Runs only as root and
/// when SPLITD_CLUSTER_TESTS=1 (Scripts/test-cluster sets it), so that the other suites
/// never wait for etcd. Its state is set once in `init`; the kill/start calls only run the
/// script, so one thread may drive it while another commits.
final class EtcdLab: @unchecked Sendable {
    let name: String
    let net: String
    let tls: Bool
    let dir: String
    private(set) var endpoints: [EtcdEndpoint] = []

    static var enabled: Bool { ProcessInfo.processInfo.environment["SPLITD_CLUSTER_TESTS"] == "1" }

    static func skipUnlessEnabled() throws {
        guard enabled else {
            throw XCTSkip("etcd cluster tests run with SPLITD_CLUSTER_TESTS=1 (Scripts/test-cluster)")
        }
        guard getuid() == 0 else { throw XCTSkip("etcd cluster tests need root (network namespaces)") }
    }

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Scripts/cluster-netns").path
    }

    init(name: String, net: String, tls: Bool = false) throws {
        self.name = name
        self.net = net
        self.tls = tls
        self.dir = "/tmp/\(name)"
        let out = try run(["up"] + (tls ? ["--tls"] : []))
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("ENDPOINTS=") }) else {
            throw LabError.failed("no ENDPOINTS line in: \(out)")
        }
        endpoints = try EtcdEndpoint.parseList(String(line.dropFirst("ENDPOINTS=".count)))
    }

    enum LabError: Error { case failed(String) }

    var tlsFiles: EtcdTLSFiles? {
        tls
            ? EtcdTLSFiles(
                ca: "\(dir)/certs/ca.pem", cert: "\(dir)/certs/client.pem", key: "\(dir)/certs/client-key.pem") : nil
    }

    func clientOptions(
        callTimeout: Duration = .seconds(2), answerPings: Bool = true, only member: Int? = nil
    ) -> EtcdClientOptions {
        EtcdClientOptions(
            endpoints: member.map { [endpoints[$0 - 1]] } ?? endpoints, tls: tlsFiles, callTimeout: callTimeout,
            answerServerPings: answerPings)
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.script] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CLUSTER_NAME"] = name
        environment["CLUSTER_NET"] = net
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw LabError.failed("cluster-netns \(arguments): \(text)") }
        return text
    }

    /// The leader's member number, waiting for an election if there is none.
    func leader(timeout: TimeInterval = 10) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let n = Int((try? run(["leader"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") { return n }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw LabError.failed("no etcd leader within \(timeout) s")
    }

    func kill(_ member: Int) throws { try run(["kill", "\(member)"]) }
    func start(_ member: Int) throws { try run(["start", "\(member)"]) }

    func down() { _ = try? run(["down"]) }
}
