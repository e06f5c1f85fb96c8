/// Cluster mode (`cluster.*`, `--cluster`, `--node`): scenes live in an etcd cluster
/// instead of the local database (docs/CLUSTER.md). Nil in `ServerSettings` when no
/// endpoints are configured: the single-host daemon.
public struct ClusterSettings: Sendable, Equatable {
    /// etcd client URLs as configured (`http://10.0.0.1:2379`), in order.
    public var endpoints: [String]
    /// This node's name: the value of the owner keys it writes, unique in the cluster.
    public var node: String
    /// The key prefix every key of the daemon lives under, ending in `/`.
    public var prefix: String
    /// PEM files of a TLS connection with a client certificate: all three or none.
    public var tlsCA: String?
    public var tlsCert: String?
    public var tlsKey: String?

    public init(
        endpoints: [String], node: String, prefix: String = "/splitd/", tlsCA: String? = nil, tlsCert: String? = nil,
        tlsKey: String? = nil
    ) {
        self.endpoints = endpoints
        self.node = node
        self.prefix = prefix
        self.tlsCA = tlsCA
        self.tlsCert = tlsCert
        self.tlsKey = tlsKey
    }

    /// Whether the endpoints are `https://` (then TLS files are required).
    public var secure: Bool { endpoints.first?.hasPrefix("https://") ?? false }

    /// Splits a comma-separated endpoint list, dropping blanks.
    public static func splitEndpoints(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// What is wrong with a configuration that has `endpoints` set: each problem in words,
    /// empty when it can be used. The endpoints' syntax only; whether etcd answers is
    /// learned at start.
    public static func problems(
        endpoints: [String], node: String?, prefix: String, tls: (ca: String?, cert: String?, key: String?)
    ) -> [String] {
        var problems: [String] = []
        if endpoints.isEmpty { problems.append("cluster.endpoints: no etcd endpoint in the list") }
        for endpoint in endpoints {
            if let problem = endpointProblem(endpoint) { problems.append("cluster.endpoints: \(problem)") }
        }
        let schemes = Set(endpoints.map { $0.hasPrefix("https://") })
        if schemes.count > 1 { problems.append("cluster.endpoints: the endpoints mix http:// and https://") }
        if node == nil {
            problems.append("cluster.node (--node, SPLITD_CLUSTER_NODE) is required when cluster.endpoints is set")
        } else if let node, let problem = nodeProblem(node) {
            problems.append("cluster.node: \(problem)")
        }
        if !prefix.hasPrefix("/") || !prefix.hasSuffix("/") || prefix.count < 2 {
            problems.append("cluster.prefix must start and end with '/' and name something, got '\(prefix)'")
        }
        let given = [tls.ca, tls.cert, tls.key].compactMap { $0 }
        if !given.isEmpty && given.count < 3 {
            problems.append("cluster.tls.ca, cluster.tls.cert and cluster.tls.key go together: set all three or none")
        }
        if schemes == [true] && given.isEmpty {
            problems.append("https:// etcd endpoints need cluster.tls.ca, cluster.tls.cert and cluster.tls.key")
        }
        if schemes == [false] && !given.isEmpty {
            problems.append("cluster.tls.* is set but the etcd endpoints are http://; use https:// endpoints")
        }
        return problems
    }

    /// Why one endpoint URL cannot be used, nil when it can.
    static func endpointProblem(_ url: String) -> String? {
        let rest: Substring
        if url.hasPrefix("https://") {
            rest = url.dropFirst(8)
        } else if url.hasPrefix("http://") {
            rest = url.dropFirst(7)
        } else {
            return "\"\(url)\" must start with http:// or https://"
        }
        let hostPort = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = hostPort.split(separator: ":", omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty, parts.count <= 2 else { return "\"\(url)\" has no host[:port]" }
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port) else {
                return "\"\(url)\" has a bad port (1-65535)"
            }
        }
        return nil
    }

    /// Why a node name cannot be used, nil when it can: it is a value in etcd and a word in
    /// logs, so printable ASCII without spaces or `/`, at most 64 bytes.
    static func nodeProblem(_ node: String) -> String? {
        guard !node.isEmpty else { return "must not be empty" }
        guard node.utf8.count <= 64 else { return "at most 64 bytes, got \(node.utf8.count)" }
        guard node.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "/" }) else {
            return "'\(node)' may hold printable ASCII only, without spaces or '/'"
        }
        return nil
    }
}
