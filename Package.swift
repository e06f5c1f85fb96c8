// swift-tools-version:6.1
import PackageDescription

// Release builds of the daemon's own targets drop the runtime exclusivity checks
// (`swift_beginAccess`/`endAccess`, ~4 % of the daemon's CPU per change at 100 connections;
// the compile-time checks stay). Debug builds, which the tests use, keep them. Not on
// SplitCore: it is the package's library product, and SwiftPM refuses unsafe flags in a
// package used as a versioned dependency.
let releaseSpeed: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "splitd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "splitd", targets: ["splitd"]),
        .executable(name: "splitctl", targets: ["splitctl"]),
        .executable(name: "splitbench", targets: ["splitbench"]),
        .executable(name: "splitweb", targets: ["splitweb"]),
        .library(name: "SplitCore", targets: ["SplitCore"]),
    ],
    // `Cluster` (on by default) links the etcd client into splitd for `--cluster`. Builds that
    // only exercise the single-host daemon (the sanitizer runs) turn it off with
    // `--disable-default-traits` and skip compiling grpc-swift, NIO and BoringSSL.
    traits: [
        .trait(name: "Cluster", description: "splitd --cluster: scenes in etcd (SplitCluster)"),
        .default(enabledTraits: ["Cluster"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // splitweb only: HTTP and WebSocket for the browser bridge.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Cluster mode: etcd's gRPC API (SplitCluster only; the single-host daemon does not link it).
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    // One-way dependencies, bottom to top: SplitLines, SplitCore < SplitWire < SplitSettings;
    // SplitLines < SplitLoop (libuv, knows no request or scene); SplitStore (SQLite);
    // SplitServer on all of them; SplitClient and SplitLaunch for the clients. splitctl links
    // neither libuv nor SQLite.
    targets: [
        // System libraries (Debian: libuv1-dev, libsqlite3-dev).
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Pure semantics: no I/O, no libuv, no SQLite.
        .target(name: "SplitCore", exclude: ["CONTRACT.md"]),
        // Protocol 1: JSON values, fast codec of requests/layouts, message shapes.
        .target(name: "SplitWire", dependencies: ["SplitCore"], swiftSettings: releaseSpeed),
        // The one line framer (WIRE.md framing) of the daemon, the client, the benchmark and
        // the tests; no dependencies.
        .target(name: "SplitLines", swiftSettings: releaseSpeed),
        // The daemon's configuration: keys, layered loading, defaults, default paths, the
        // settings report (splitd and splitctl).
        .target(
            name: "SplitSettings",
            dependencies: [
                "SplitCore", "SplitWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]),
        // Storage behind a narrow interface (SQLite today).
        .target(
            name: "SplitStore", dependencies: ["CSQLite", "CSQLiteVFS", "CLinuxShims"], swiftSettings: releaseSpeed),
        // A pass-through VFS that writes each WAL frame with one write instead of two.
        .target(name: "CSQLiteVFS", dependencies: ["CSQLite"]),
        // The libuv transport: the loop, turn hooks, listener, connections, mailbox, timers,
        // signals, socket activation, sd_notify, peer credentials. Knows nothing of requests
        // or scenes; the only module that calls libuv.
        .target(name: "SplitLoop", dependencies: ["CLibUV", "CLinuxShims", "SplitLines"], swiftSettings: releaseSpeed),
        // The daemon: scenes, sessions, dispatch, group commit, on SplitLoop's transport.
        .target(
            name: "SplitServer",
            dependencies: [
                "CLinuxShims", "SplitCore", "SplitWire", "SplitStore", "SplitSettings", "SplitLoop",
                .product(name: "Logging", package: "swift-log"),
                // The distribution of flush times in `stats`.
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ], swiftSettings: releaseSpeed),
        // Pure drawing: a Layout (or a snapshot session, a sweep) as deterministic SVG.
        .target(name: "SplitRender", dependencies: ["SplitCore"]),
        // Browser tabs as live windows of scenes: one page, WebSocket to splitd's socket.
        .executableTarget(
            name: "splitweb",
            dependencies: [
                "SplitCore", "SplitRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // A small blocking client used by splitctl, benchmarks and tests.
        .target(name: "SplitClient", dependencies: ["SplitWire", "SplitCore", "SplitLines"]),
        // Starting a `splitd` child process and waiting for it: splitctl's `simulate
        // --embedded`, splitbench and the end-to-end tests.
        .target(name: "SplitLaunch"),

        .executableTarget(
            name: "splitd",
            dependencies: [
                "SplitServer", "SplitSettings", "SplitStore",
                // Cluster mode's glue (ClusterNode.swift); SplitServer itself links no etcd client.
                .target(name: "SplitCluster", condition: .when(traits: ["Cluster"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "splitctl",
            dependencies: [
                "SplitClient", "SplitCore", "SplitWire", "SplitSettings", "SplitLaunch", "SplitRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // YAML scenario files (`simulate`), converted to the JSON value the JSON path reads.
                .product(name: "Yams", package: "Yams"),
            ]),

        // Benchmarks: core microbenchmarks and the daemon load generator.
        // Linux-only C interfaces (epoll, affinity) for the benchmark's load generator.
        .target(name: "CLinuxShims"),
        .executableTarget(
            name: "splitbench",
            dependencies: [
                "SplitCore", "SplitWire", "SplitLines", "SplitLaunch", "CLinuxShims",
                // `splitbench cluster`: etcd and the cluster store directly.
                "SplitCluster", "SplitStore", "EtcdAPI",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // What the test targets share (a seeded generator).
        .target(name: "SplitTestSupport", path: "Tests/SplitTestSupport"),
        .testTarget(
            name: "SplitCoreTests",
            dependencies: [
                "SplitCore", "SplitTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "SplitWireTests",
            dependencies: [
                "SplitWire", "SplitCore", "SplitTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "SplitLinesTests",
            dependencies: [
                "SplitLines", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "SplitLoopTests", dependencies: ["SplitLoop"]),
        .testTarget(
            name: "SplitStoreTests", dependencies: ["SplitStore", "SplitTestSupport", "CSQLite", "CSQLiteVFS"]),
        .testTarget(
            name: "SplitServerTests",
            dependencies: [
                "SplitServer", "SplitSettings", "SplitLoop", "SplitLines", "SplitCore", "SplitWire", "SplitStore",
                "SplitTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "SplitRenderTests",
            dependencies: [
                "SplitRender", "SplitCore", .product(name: "PropertyBased", package: "swift-property-based"),
            ], exclude: ["Golden"]),
        // splitctl's pure parts (the attach screen's drawing), through `@testable import`.
        .testTarget(name: "SplitctlTests", dependencies: ["splitctl", "SplitCore"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "SplitClient", "SplitWire", "SplitCore", "SplitLaunch", "SplitTestSupport",
            ]),
        // etcd's v3 gRPC API, generated from etcd.proto by Scripts/generate-etcd-api (committed).
        .target(
            name: "EtcdAPI",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ], exclude: ["etcd.proto"]),
        // Cluster mode: an etcd client for plain threads, scene ownership with fencing, and the
        // etcd-backed SceneStore (docs/CLUSTER.md).
        .target(
            name: "SplitCluster",
            dependencies: [
                "EtcdAPI", "SplitStore",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // Against real etcd members in network namespaces (as root; Scripts/test-cluster).
        // Also two real splitd processes in cluster mode on the lab (ClusterDaemonTests).
        .testTarget(
            name: "SplitClusterTests",
            dependencies: ["SplitCluster", "EtcdAPI", "SplitStore", "SplitClient", "SplitLaunch", "SplitWire"]),
    ],
    swiftLanguageModes: [.v6]
)
