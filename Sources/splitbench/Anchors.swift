import Foundation
import Glibc

/// The anchors splitd is compared with in the same run: the bare libuv echo server driven by
/// the C closed-loop load generator (the ceiling), and Redis with `appendfsync always`
/// driven by `redis-benchmark` (the durable comparison). The echo server and the load
/// generator are the repository's own (`Benchmarks/anchors`), built from a copy so that a
/// read-only checkout works and the build leaves nothing in the tree.
struct Anchors {
    /// The folder of the anchors' sources inside the repository.
    static let sourceFolder = "Benchmarks/anchors"

    let directory: String
    var echoServer: String { directory + "/build/echo" }
    var loadgen: String { directory + "/build/loadgen" }
    var resizeTemplate: String { directory + "/resize.txt" }

    /// The anchors' sources when `--anchors` is not given: `Benchmarks/anchors` in the
    /// current directory, else in the checkout that holds this splitbench binary (found by
    /// walking up from `.build/<triple>/<configuration>/splitbench`).
    static func defaultSource() throws -> String {
        var candidates = [FileManager.default.currentDirectoryPath]
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: me).deletingLastPathComponent()
        while folder.path != "/" {
            candidates.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        for root in candidates where FileManager.default.fileExists(atPath: root + "/" + sourceFolder + "/Makefile") {
            return root + "/" + sourceFolder
        }
        throw BenchError(
            "cannot find \(sourceFolder)/Makefile in the current directory or above splitbench; pass --anchors")
    }

    /// Copies the anchors' sources into `scratch` and builds them with `make`.
    static func build(from source: String, in scratch: String) throws -> Anchors {
        let directory = scratch + "/anchors"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for item in ["Makefile", "echo.c", "loadgen.c", "resize.txt"] {
            try FileManager.default.copyItem(atPath: source + "/" + item, toPath: directory + "/" + item)
        }
        let make = try Subprocess.run("make", [], directory: directory, timeout: 300, scratch: scratch)
        guard make.status == 0 else {
            throw BenchError("building the anchors failed: \(make.errorOutput.suffix(800))")
        }
        return Anchors(directory: directory)
    }

    /// What `loadgen` printed on its RESULT line.
    struct LoadgenResult {
        var fields: [String: String]
        var line: String

        func number(_ key: String) -> Double { Double(fields[key] ?? "") ?? .nan }
        var requestsPerSecond: Double { number("rps") }
        var p50: Double { number("p50_us") }
        var p99: Double { number("p99_us") }
        var p999: Double { number("p999_us") }
        var errors: Int { Int(fields["errors"] ?? "") ?? -1 }
        var serverCPU: Double { number("server_cpu_pct") }
        var clientCPU: Double { number("client_cpu_pct") }
    }

    /// Runs the C load generator against `socket`; `template` sends the resize template
    /// (splitd's scenes bench-0...) instead of loadgen's fixed line; `-e` counts error replies.
    func runLoadgen(
        socket: String, connections: Int, depth: Int, warmup: Double, seconds: Double,
        serverPID: Int32?, clientCPU: Int?, scratch: String
    ) throws -> LoadgenResult {
        var arguments = [
            loadgen, "-s", socket, "-c", String(connections), "-d", String(depth),
            "-t", String(Int(seconds.rounded(.up))), "-w", String(Int(warmup.rounded(.up))), "-e",
            "-f", resizeTemplate,
        ]
        if let serverPID { arguments += ["-p", String(serverPID)] }
        let command = pinned(clientCPU, arguments)
        let run = try Subprocess.run(
            command[0], Array(command.dropFirst()), timeout: warmup + seconds + 30, scratch: scratch)
        guard let line = run.output.split(separator: "\n").last(where: { $0.hasPrefix("RESULT") }) else {
            throw BenchError("loadgen printed no RESULT (status \(run.status)): \(run.errorOutput.suffix(500))")
        }
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        var result = LoadgenResult(fields: fields, line: String(line))
        if !run.errorOutput.isEmpty && result.errors != 0 {
            result.line += "\n  loadgen: " + run.errorOutput.prefix(300)
        }
        return result
    }

    /// Runs `body` with the echo server listening on a socket in `scratch`.
    func withEchoServer<T>(cpu: Int?, scratch: String, _ body: (_ socket: String, _ pid: Int32) throws -> T) throws -> T
    {
        let socket = scratch + "/echo.sock"
        unlink(socket)
        let command = pinned(cpu, [echoServer, "-s", socket, "-t", "600"])
        let server = try Background(command[0], Array(command.dropFirst()), logPath: scratch + "/echo.log")
        defer { server.stop() }
        try waitForSocket(socket)
        return try body(socket, server.pid)
    }

    /// What `redis-benchmark --csv` reported.
    struct RedisResult {
        var requestsPerSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var line: String
    }

    /// How often Redis flushes its append-only file: before every reply (the durable anchor),
    /// or once a second (no flush on the path of a request, as splitd's `normal`).
    enum AppendFsync: String {
        case always
        case everysec
    }

    /// Redis on a Unix socket with the append-only file (flushed as `appendfsync` says), on the
    /// same file system as splitd's databases, measured with redis-benchmark: SET, 400-byte
    /// values, `clients` clients, no pipelining.
    static func runRedis(
        clients: Int, requests: Int, appendfsync: AppendFsync = .always, serverCPU: Int?, clientCPU: Int?,
        scratch: String
    ) throws -> RedisResult {
        let directory = scratch + "/redis-\(monotonicNanoseconds() % 1_000_000_000)"
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/redis.sock"
        let config = """
            port 0
            unixsocket \(socket)
            unixsocketperm 700
            daemonize no
            dir \(directory)/data
            logfile \(directory)/redis.log
            save ""
            appendonly yes
            appendfsync \(appendfsync.rawValue)

            """
        try config.write(toFile: directory + "/redis.conf", atomically: true, encoding: .utf8)
        let command = pinned(serverCPU, ["redis-server", directory + "/redis.conf"])
        let server = try Background(command[0], Array(command.dropFirst()), logPath: directory + "/redis.stdout")
        defer { server.stop() }
        try waitForSocket(socket, probe: "PING")
        let benchmark = pinned(
            clientCPU,
            [
                "redis-benchmark", "-s", socket, "-c", String(clients), "-P", "1",
                "-t", "set", "-d", "400", "-r", "10000", "-n", String(requests), "--csv",
            ])
        let run = try Subprocess.run(benchmark[0], Array(benchmark.dropFirst()), timeout: 120, scratch: scratch)
        return try parseRedisCSV(run.output)
    }

    /// Reads redis-benchmark's CSV: a header line naming the columns (Redis 7), or the older
    /// two-column `"SET","rps"` form.
    static func parseRedisCSV(_ text: String) throws -> RedisResult {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
        func cells(_ line: String) -> [String] {
            line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        }
        if let headerIndex = lines.firstIndex(where: { $0.hasPrefix("\"test\"") }), headerIndex + 1 < lines.count {
            let header = cells(lines[headerIndex])
            let values = cells(lines[headerIndex + 1])
            func value(_ key: String) -> Double {
                guard let column = header.firstIndex(of: key), column < values.count else { return .nan }
                return Double(values[column]) ?? .nan
            }
            return RedisResult(
                requestsPerSecond: value("rps"), p50Milliseconds: value("p50_latency_ms"),
                p99Milliseconds: value("p99_latency_ms"), line: lines[headerIndex + 1])
        }
        if let line = lines.first(where: { $0.hasPrefix("\"SET") }), let rps = Double(cells(line).last ?? "") {
            return RedisResult(requestsPerSecond: rps, p50Milliseconds: .nan, p99Milliseconds: .nan, line: line)
        }
        throw BenchError("cannot read redis-benchmark's output: \(text.prefix(400))")
    }
}

/// Waits until something accepts connections on `socket` (and, with `probe`, answers a line).
func waitForSocket(_ socket: String, probe: String? = nil, timeout: Double = 10) throws {
    let deadline = monotonicNanoseconds() + nanoseconds(seconds: timeout)
    while monotonicNanoseconds() < deadline {
        if let client = try? LineClient(path: socket, timeout: 0.05) {
            guard let probe else { return }
            if (try? client.send(line: probe + "\r")) != nil, (try? client.readLine(timeout: 1)) != nil { return }
        }
        sleep(seconds: 0.02)
    }
    throw BenchError("nothing answered on \(socket) within \(timeout) s")
}
