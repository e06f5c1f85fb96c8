import EtcdAPI
import Foundation
import SplitStore
import XCTest
@testable import SplitCluster

/// etcd with `--client-cert-auth` and https endpoints, certificates made by
/// Scripts/cluster-netns with openssl.
final class EtcdTLSTests: XCTestCase {
    nonisolated(unsafe) static var lab: EtcdLab?
    var lab: EtcdLab { Self.lab! }

    override func setUpWithError() throws {
        try EtcdLab.skipUnlessEnabled()
        if Self.lab == nil { Self.lab = try EtcdLab(name: "sdctls", net: "10.231.30", tls: true) }
    }

    override class func tearDown() {
        lab?.down()
        lab = nil
    }

    func testCommitOverTLSWithAClientCertificateOnOneConnection() throws {
        let client = try EtcdClient(options: lab.clientOptions(only: 1))
        defer { client.close() }
        let lease = try EtcdLease(client: client)
        let store = try EtcdSceneStore(
            client: client, node: "tls-node", lease: lease,
            options: ClusterStoreOptions(keys: ClusterKeys(prefix: "/tls/")))
        defer { try? store.close() }
        var batch = StoreBatch()
        batch.upsertScene(id: "s", device: "d", revision: 1, state: [1])
        try store.commit(batch)
        // The responder sits after the TLS handler; a connection that etcd closed would show as
        // a second connection below.
        for revision in 2...1200 {
            batch.removeAll()
            batch.appendJournal(scene: "s", revision: Int64(revision), change: [UInt8(revision % 256)])
            try store.commit(batch)
        }
        XCTAssertEqual(try store.journal(scene: "s", from: 0).count, 1199)
        print("TLS: 1200 commits on \(client.connectionsOpened) connection(s), \(client.pingsAnswered) PINGs answered")
        XCTAssertEqual(client.connectionsOpened, 1)
        // No PING floor here: etcd 3.4 serves gRPC over TLS through Go's net/http HTTP/2 server,
        // which sends no per-request PINGs (plaintext goes through gRPC's own transport, which
        // does: the plaintext test holds that floor). What TLS must show is every commit on one
        // connection with the client certificate.
    }

    func testACertificateFromAnotherCAIsRefused() throws {
        var options = lab.clientOptions(callTimeout: .seconds(1), only: 1)
        options.tls = EtcdTLSFiles(
            ca: "\(lab.dir)/certs/ca.pem", cert: "\(lab.dir)/certs/rogue.pem", key: "\(lab.dir)/certs/rogue-key.pem")
        let rogue = try EtcdClient(options: options)
        defer { rogue.close() }
        XCTAssertThrowsError(
            try rogue.putBlocking(
                .with {
                    $0.key = Data(Array("/tls/rogue".utf8)); $0.value = Data([1])
                }))
        let good = try EtcdClient(options: lab.clientOptions(only: 1))
        defer { good.close() }
        XCTAssertEqual(try good.rangeBlocking(.with { $0.key = Data(Array("/tls/rogue".utf8)) }).kvs.count, 0)
    }

    func testPlaintextClientsAreRefusedByATLSCluster() throws {
        XCTAssertThrowsError(try EtcdClient(options: EtcdClientOptions(endpoints: lab.endpoints, tls: nil)))
        let endpoints = lab.endpoints.map { EtcdEndpoint(host: $0.host, port: $0.port, secure: false) }
        let plain = try EtcdClient(options: EtcdClientOptions(endpoints: [endpoints[0]], callTimeout: .seconds(1)))
        defer { plain.close() }
        XCTAssertThrowsError(
            try plain.putBlocking(
                .with {
                    $0.key = Data(Array("/tls/plain".utf8)); $0.value = Data([1])
                }))
    }
}
