import Dispatch
import EtcdAPI
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOPosix
import NIOSSL

/// One etcd client URL: `http://10.0.0.1:2379` (plaintext) or `https://...` (TLS).
public struct EtcdEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var secure: Bool

    public init(host: String, port: Int, secure: Bool) {
        self.host = host
        self.port = port
        self.secure = secure
    }

    /// Parses `http://HOST:PORT` or `https://HOST:PORT` (a missing port is etcd's 2379).
    public init(parsing url: String) throws(EtcdError) {
        let text = url.trimmingCharacters(in: .whitespaces)
        let secure: Bool
        let rest: Substring
        if text.hasPrefix("https://") {
            secure = true; rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            secure = false; rest = text.dropFirst(7)
        } else {
            throw .configuration("etcd endpoint \"\(url)\" must start with http:// or https://")
        }
        let hostPort = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = hostPort.split(separator: ":", omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty, parts.count <= 2 else {
            throw .configuration("etcd endpoint \"\(url)\" has no host[:port]")
        }
        var port = 2379
        if parts.count == 2 {
            guard let p = Int(parts[1]), (1...65535).contains(p) else {
                throw .configuration("etcd endpoint \"\(url)\" has a bad port")
            }
            port = p
        }
        self.init(host: String(host), port: port, secure: secure)
    }

    /// A comma-separated list, as in `--cluster` and `cluster.endpoints`.
    public static func parseList(_ list: String) throws(EtcdError) -> [EtcdEndpoint] {
        var endpoints: [EtcdEndpoint] = []
        for item in list.split(separator: ",") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            endpoints.append(try EtcdEndpoint(parsing: String(item)))
        }
        if endpoints.isEmpty { throw .configuration("no etcd endpoint in \"\(list)\"") }
        return endpoints
    }

    public var description: String { "\(secure ? "https" : "http")://\(host):\(port)" }
}

/// The files of a TLS connection with a client certificate (etcd's `--client-cert-auth`):
/// config `cluster.tls.ca`, `cluster.tls.cert`, `cluster.tls.key`, all PEM.
public struct EtcdTLSFiles: Sendable, Hashable {
    public var ca: String
    public var cert: String
    public var key: String

    public init(ca: String, cert: String, key: String) {
        self.ca = ca
        self.cert = cert
        self.key = key
    }
}

public struct EtcdClientOptions: Sendable {
    public var endpoints: [EtcdEndpoint]
    /// Required when the endpoints are https, refused when they are http.
    public var tls: EtcdTLSFiles?
    /// How long one call may take before the caller gets `timedOut` (an unknown outcome
    /// for a write).
    public var callTimeout: Duration
    /// Answer etcd's HTTP/2 PINGs below swift-nio-http2 (`PingResponder`). Only tests
    /// that show the problem turn it off.
    public var answerServerPings: Bool

    public init(
        endpoints: [EtcdEndpoint], tls: EtcdTLSFiles? = nil, callTimeout: Duration = .seconds(2),
        answerServerPings: Bool = true
    ) {
        self.endpoints = endpoints
        self.tls = tls
        self.callTimeout = callTimeout
        self.answerServerPings = answerServerPings
    }
}

/// Why an etcd call failed.
public enum EtcdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No answer within the call's timeout. A write's outcome is unknown.
    case timedOut(operation: String)
    /// The call failed with a gRPC status (etcd's own errors arrive this way too, e.g.
    /// "etcdserver: request timed out" as `unavailable`).
    case rpc(operation: String, code: String, message: String)
    /// The client was closed.
    case closed
    /// Bad endpoints or TLS files.
    case configuration(String)
    /// etcd cancelled a watch; `compactRevision` > 0 when the start revision was compacted
    /// (the watcher must re-read and watch again from the current revision).
    case watchCanceled(compactRevision: Int64, reason: String)

    public var description: String {
        switch self {
        case let .timedOut(operation): "etcd \(operation): no answer in time"
        case let .rpc(operation, code, message): "etcd \(operation): \(code): \(message)"
        case .closed: "etcd client closed"
        case let .configuration(message): message
        case let .watchCanceled(compactRevision, reason):
            "etcd watch cancelled (compacted at \(compactRevision)): \(reason)"
        }
    }

    /// Whether a write that failed this way may nevertheless have been applied. Only the
    /// statuses etcd returns before it proposes a request (a malformed or oversized request,
    /// refused credentials) say it was not; a timeout, a lost connection or a leader change
    /// may come after the proposal was committed.
    public var mayHaveApplied: Bool {
        switch self {
        case .timedOut: return true
        case let .rpc(_, code, _):
            return ![
                "invalidArgument", "failedPrecondition", "permissionDenied", "unauthenticated",
                "resourceExhausted", "outOfRange", "notFound", "unimplemented", "alreadyExists",
            ].contains(code)
        case .closed, .configuration, .watchCanceled: return false
        }
    }
}

/// A long-lived client of an etcd cluster over its gRPC API, usable from async code and,
/// through the `…Blocking` calls, from a plain thread (the daemon's flush thread).
///
/// Threading: a blocking call runs its request in a detached task and waits on a semaphore
/// with a timeout. It must never be made on a Swift concurrency pool thread or a NIO event
/// loop thread: with 2 cores those are the threads that would have to run the request
/// (a deadlock), so such calls trap.
///
/// Connections: one HTTP/2 connection at a time, to the first endpoint that answers (gRPC's
/// pick-first), moving on when it fails; etcd forwards writes to its leader itself.
public final class EtcdClient: Sendable {
    public typealias Transport = HTTP2ClientTransport.Posix

    public let options: EtcdClientOptions
    let grpc: GRPCClient<Transport>
    let kv: Etcdserverpb_KV.Client<Transport>
    let leases: Etcdserverpb_Lease.Client<Transport>
    let watches: Etcdserverpb_Watch.Client<Transport>
    let maintenance: Etcdserverpb_Maintenance.Client<Transport>
    private let runner: Task<Void, Never>
    private let counters = Locked(Counters())

    struct Counters {
        var pingsAnswered = 0
        var connections = 0
    }

    /// PINGs answered by `PingResponder` over all connections so far.
    public var pingsAnswered: Int { counters.withLock { $0.pingsAnswered } }
    /// Connections opened so far.
    public var connectionsOpened: Int { counters.withLock { $0.connections } }

    public init(options: EtcdClientOptions) throws(EtcdError) {
        guard !options.endpoints.isEmpty else { throw .configuration("no etcd endpoint") }
        let secure = options.endpoints[0].secure
        guard options.endpoints.allSatisfy({ $0.secure == secure }) else {
            throw .configuration("etcd endpoints mix http:// and https://")
        }
        let security: Transport.TransportSecurity
        if secure {
            guard let files = options.tls else {
                throw .configuration("https etcd endpoints need cluster.tls.ca, cluster.tls.cert and cluster.tls.key")
            }
            for path in [files.ca, files.cert, files.key] where !FileManager.default.isReadableFile(atPath: path) {
                throw .configuration("cannot read TLS file \(path)")
            }
            security = .tls(
                .mTLS(
                    certificateChain: [.file(path: files.cert, format: .pem)],
                    privateKey: .file(path: files.key, format: .pem)
                ) { config in
                    config.trustRoots = .certificates([.file(path: files.ca, format: .pem)])
                    config.serverCertificateVerification = .fullVerification
                })
        } else {
            if options.tls != nil { throw .configuration("TLS files given but the etcd endpoints are http://") }
            security = .plaintext
        }
        let target: any ResolvableTarget
        if options.endpoints.allSatisfy({ Self.isIPv4($0.host) }) {
            target = ResolvableTargets.IPv4.ipv4(pairs: options.endpoints.map { (host: $0.host, port: $0.port) })
        } else if options.endpoints.count == 1 {
            target = ResolvableTargets.DNS(host: options.endpoints[0].host, port: options.endpoints[0].port)
        } else {
            throw .configuration("several etcd endpoints must be IPv4 addresses")
        }
        let counters = self.counters
        let answerPings = options.answerServerPings
        let config = Transport.Config.defaults { config in
            config.channelDebuggingCallbacks.onCreateTCPConnection = { channel in
                channel.eventLoop.makeCompletedFuture {
                    counters.withLock { $0.connections += 1 }
                    guard answerPings else { return }
                    let responder = PingResponder { _ in counters.withLock { $0.pingsAnswered += 1 } }
                    let pipeline = channel.pipeline.syncOperations
                    if let tls = try? pipeline.context(handlerType: NIOSSLClientHandler.self) {
                        try pipeline.addHandler(responder, position: .after(tls.handler))
                    } else {
                        try pipeline.addHandler(responder, position: .first)
                    }
                }
            }
        }
        let transport: Transport
        do {
            transport = try Transport(target: target, transportSecurity: security, config: config)
        } catch {
            throw .configuration("etcd transport: \(error)")
        }
        let grpc = GRPCClient(transport: transport)
        self.options = options
        self.grpc = grpc
        self.kv = Etcdserverpb_KV.Client(wrapping: grpc)
        self.leases = Etcdserverpb_Lease.Client(wrapping: grpc)
        self.watches = Etcdserverpb_Watch.Client(wrapping: grpc)
        self.maintenance = Etcdserverpb_Maintenance.Client(wrapping: grpc)
        self.runner = Task.detached {
            try? await grpc.runConnections()
        }
    }

    deinit {
        grpc.beginGracefulShutdown()
    }

    /// Stops the connections; calls in flight finish, new ones fail.
    public func close() {
        grpc.beginGracefulShutdown()
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    func callOptions(_ timeout: Duration?) -> CallOptions {
        var options = CallOptions.defaults
        options.timeout = timeout ?? self.options.callTimeout
        return options
    }

    static func mapped(_ error: any Error, _ operation: String) -> EtcdError {
        if let error = error as? EtcdError { return error }
        if let rpc = error as? RPCError {
            if rpc.code == .deadlineExceeded { return .timedOut(operation: operation) }
            return .rpc(operation: operation, code: "\(rpc.code)", message: rpc.message)
        }
        if error is CancellationError { return .timedOut(operation: operation) }
        return .rpc(operation: operation, code: "unknown", message: "\(error)")
    }

    // MARK: async calls

    public func range(
        _ request: Etcdserverpb_RangeRequest, timeout: Duration? = nil
    ) async throws(EtcdError) -> Etcdserverpb_RangeResponse {
        do { return try await kv.range(request, options: callOptions(timeout)) } catch {
            throw Self.mapped(error, "range")
        }
    }

    public func put(
        _ request: Etcdserverpb_PutRequest, timeout: Duration? = nil
    ) async throws(EtcdError) -> Etcdserverpb_PutResponse {
        do { return try await kv.put(request, options: callOptions(timeout)) } catch { throw Self.mapped(error, "put") }
    }

    public func deleteRange(
        _ request: Etcdserverpb_DeleteRangeRequest, timeout: Duration? = nil
    ) async throws(EtcdError) -> Etcdserverpb_DeleteRangeResponse {
        do { return try await kv.deleteRange(request, options: callOptions(timeout)) } catch {
            throw Self.mapped(error, "delete")
        }
    }

    public func txn(
        _ request: Etcdserverpb_TxnRequest, timeout: Duration? = nil
    ) async throws(EtcdError) -> Etcdserverpb_TxnResponse {
        do { return try await kv.txn(request, options: callOptions(timeout)) } catch { throw Self.mapped(error, "txn") }
    }

    public func compact(
        revision: Int64, timeout: Duration? = nil
    ) async throws(EtcdError) -> Etcdserverpb_CompactionResponse {
        let request = Etcdserverpb_CompactionRequest.with {
            $0.revision = revision; $0.physical = true
        }
        do { return try await kv.compact(request, options: callOptions(timeout)) } catch {
            throw Self.mapped(error, "compact")
        }
    }

    public func leaseGrant(
        ttlSeconds: Int64, timeout: Duration? = nil
    ) async throws(EtcdError) -> Etcdserverpb_LeaseGrantResponse {
        let request = Etcdserverpb_LeaseGrantRequest.with { $0.ttl = ttlSeconds }
        do { return try await leases.leaseGrant(request, options: callOptions(timeout)) } catch {
            throw Self.mapped(error, "lease grant")
        }
    }

    public func leaseRevoke(id: Int64, timeout: Duration? = nil) async throws(EtcdError) {
        let request = Etcdserverpb_LeaseRevokeRequest.with { $0.id = id }
        do { _ = try await leases.leaseRevoke(request, options: callOptions(timeout)) } catch {
            throw Self.mapped(error, "lease revoke")
        }
    }

    public func status(timeout: Duration? = nil) async throws(EtcdError) -> Etcdserverpb_StatusResponse {
        do { return try await maintenance.status(Etcdserverpb_StatusRequest(), options: callOptions(timeout)) } catch {
            throw Self.mapped(error, "status")
        }
    }

    /// Watches every key under `prefix` from etcd revision `fromRevision` (0: from now on),
    /// handing each response with events to `onResponse` in etcd's order, until the handler
    /// returns false or the task is cancelled. `onCreated` runs once etcd accepted the watch.
    /// Throws `watchCanceled` when etcd cancels the watch (a compacted start revision).
    ///
    /// The watch requires a leader (etcd's `hasleader` metadata, as clientv3's
    /// `WithRequireLeader`): a member that lost its leader (a partition) ends the stream with
    /// "no leader" instead of keeping it open and silent while the majority goes on.
    public func watch(
        prefix: [UInt8], fromRevision: Int64,
        onCreated: @escaping @Sendable () -> Void = {},
        onResponse: @escaping @Sendable (Etcdserverpb_WatchResponse) async -> Bool
    ) async throws(EtcdError) {
        let create = Etcdserverpb_WatchRequest.with {
            $0.createRequest = .with {
                $0.key = Data(prefix)
                $0.rangeEnd = Data(ClusterKeys.rangeEnd(ofPrefix: prefix))
                $0.startRevision = fromRevision
            }
        }
        do {
            try await watches.watch(
                metadata: ["hasleader": "true"],
                requestProducer: { writer in
                    try await writer.write(create)
                    // The request stream stays open for the watch's life.
                    while !Task.isCancelled { try await Task.sleep(for: .seconds(60)) }
                },
                onResponse: { response in
                    for try await message in response.messages {
                        if message.canceled {
                            throw EtcdError.watchCanceled(
                                compactRevision: message.compactRevision, reason: message.cancelReason)
                        }
                        if message.created { onCreated() }
                        if message.events.isEmpty { continue }
                        if await !onResponse(message) { return }
                    }
                })
        } catch {
            throw Self.mapped(error, "watch")
        }
    }

    // MARK: blocking calls (plain threads only)

    /// Runs `body` in a detached task and waits for it on this thread, at most `timeout`
    /// (the client's call timeout and a margin when nil). On timeout the task is cancelled
    /// and the call throws `timedOut`: for a write, an unknown outcome.
    public func blocking<T: Sendable>(
        _ operation: String, timeout: Duration? = nil,
        _ body: @escaping @Sendable (EtcdClient) async throws(EtcdError) -> T
    ) throws(EtcdError) -> T {
        precondition(
            MultiThreadedEventLoopGroup.currentEventLoop == nil,
            "a blocking etcd call on a NIO event loop thread would wait for itself")
        let inTask = withUnsafeCurrentTask { $0 != nil }
        precondition(!inTask, "a blocking etcd call inside a Swift task would hold a pool thread; use the async call")
        let box = Locked<Result<T, EtcdError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached { [self] in
            let result: Result<T, EtcdError>
            do throws(EtcdError) { result = .success(try await body(self)) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        let wait = timeout ?? (options.callTimeout + .milliseconds(500))
        let nanos = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        if done.wait(timeout: .now() + .nanoseconds(Int(nanos))) == .timedOut {
            task.cancel()
            throw .timedOut(operation: operation)
        }
        return try box.withLock { $0! }.get()
    }

    public func rangeBlocking(
        _ request: Etcdserverpb_RangeRequest, timeout: Duration? = nil
    ) throws(EtcdError) -> Etcdserverpb_RangeResponse {
        try blocking("range", timeout: timeout.map { $0 + .milliseconds(200) }) { client throws(EtcdError) in
            try await client.range(request, timeout: timeout)
        }
    }

    public func txnBlocking(
        _ request: Etcdserverpb_TxnRequest, timeout: Duration? = nil
    ) throws(EtcdError) -> Etcdserverpb_TxnResponse {
        try blocking("txn", timeout: timeout.map { $0 + .milliseconds(200) }) { client throws(EtcdError) in
            try await client.txn(request, timeout: timeout)
        }
    }

    public func putBlocking(
        _ request: Etcdserverpb_PutRequest, timeout: Duration? = nil
    ) throws(EtcdError) -> Etcdserverpb_PutResponse {
        try blocking("put", timeout: timeout.map { $0 + .milliseconds(200) }) { client throws(EtcdError) in
            try await client.put(request, timeout: timeout)
        }
    }

    public func statusBlocking(timeout: Duration? = nil) throws(EtcdError) -> Etcdserverpb_StatusResponse {
        try blocking("status", timeout: timeout.map { $0 + .milliseconds(200) }) { client throws(EtcdError) in
            try await client.status(timeout: timeout)
        }
    }

    public func compactBlocking(revision: Int64) throws(EtcdError) {
        _ = try blocking("compact") { client throws(EtcdError) in try await client.compact(revision: revision) }
    }
}

/// A value behind a lock, shareable across threads and tasks.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
