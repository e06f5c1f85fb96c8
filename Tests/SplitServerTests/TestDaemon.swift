import Foundation
import Glibc
import Logging
import SplitLines
import SplitLoop
@testable import SplitServer
@testable import SplitSettings
import SplitStore
import SplitWire

/// A splitd running on a thread of the test process, on a temporary socket, with an
/// in-memory store the test can make fail.
final class TestDaemon: @unchecked Sendable {
    let directory: String
    let socketPath: String
    let store: MemorySceneStore
    private let control = DaemonControl()
    private let finished = DispatchSemaphore(value: 0)

    init(
        store: MemorySceneStore = MemorySceneStore(), cluster: (any ClusterMember)? = nil,
        configure: (inout ServerSettings) -> Void = { _ in }
    ) throws {
        directory = "/tmp/sst-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        socketPath = directory + "/s.sock"
        self.store = store
        signal(SIGPIPE, SIG_IGN)
        var settings = ServerSettings(socketPath: socketPath, databasePath: nil)
        configure(&settings)
        let logger = Self.quietLogger()
        let control = control, finished = finished, frozen = settings
        nonisolated(unsafe) let cluster = cluster
        let thread = Thread {
            _ = Daemon.run(
                settings: frozen, logger: logger, environment: [:], configReloader: nil, demo: nil,
                store: store, control: control, handleSignals: false, cluster: cluster)
            finished.signal()
        }
        thread.start()
        guard control.waitUntilReady(timeout: 10) else { throw TestFailure("daemon did not start") }
    }

    private static func quietLogger() -> Logger {
        var logger = Logger(label: "splitd.test", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .critical
        return logger
    }

    func connect() throws -> TestClient { try TestClient(path: socketPath) }

    /// Stops like SIGTERM and waits for the loop to end.
    func stop() {
        requestStop()
        waitUntilFinished()
    }

    /// Starts a graceful stop without waiting for it.
    func requestStop() { control.stop() }

    func waitUntilFinished() {
        _ = waitUntilFinished(seconds: 10)
    }

    /// Whether the loop ended within `seconds`.
    func waitUntilFinished(seconds: Double) -> Bool {
        let ended = finished.wait(timeout: .now() + seconds) == .success
        if ended { try? FileManager.default.removeItem(atPath: directory) }
        return ended
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A blocking line client with timeouts on every read.
final class TestClient {
    private var fd: Int32
    private var lines = LineQueue(maxLineLength: 64 << 20)
    private var nextID: Int64 = 1
    /// Pushes seen while waiting for responses.
    var pushes: [JSONValue] = []

    /// `receiveBuffer`: SO_RCVBUF in bytes before connecting (a small one makes a peer that
    /// does not read look slow to the daemon sooner); nil keeps the kernel's default.
    init(path: String, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        guard var address = UnixSocketAddress(path: path) else { throw TestFailure("bad path") }
        guard address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            throw TestFailure("connect failed: \(errno)")
        }
    }

    deinit { close() }

    /// Closes once: a second close could hit a descriptor another test reuses.
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// Sends `text` from another thread (a writer that does not wait for the reader).
    /// With `thenShutdown`, half-closes the connection once everything is sent.
    func sendInBackground(raw text: String, thenShutdown: Bool = false) {
        let fd = fd, bytes = Array(text.utf8)
        Thread {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { return }
                offset += sent
            }
            if thenShutdown { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }
        }.start()
    }

    /// Half-closes the connection (what `socat` and `nc -N` do when their input ends).
    /// Sends `text` if the kernel takes all of it now; false if it would have to wait.
    func sendWithoutWaiting(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        return sent == bytes.count
    }

    func shutdownWriting() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Every line until the daemon closes the connection (or `timeout` ms of silence).
    func readUntilClosed(timeout: Int32 = 5000) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        while let line = try readLine(timeout: timeout) { lines.append(line) }
        return lines
    }

    func send(raw text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestFailure("send failed: \(errno)") }
            offset += sent
        }
    }

    /// Sends `fields` with a fresh id and returns the response with that id.
    @discardableResult
    func request(_ fields: JSONObject) throws -> JSONValue {
        let id = nextID
        nextID += 1
        var object = fields
        object["id"] = .int(id)
        try send(raw: JSONWriter.string(.object(object)) + "\n")
        return try response(id: .int(id))
    }

    func response(id: JSONValue) throws -> JSONValue {
        while true {
            let message = try readMessage()
            if message["event"] != nil { pushes.append(message); continue }
            guard message["id"] == id else { throw TestFailure("expected response \(id), got \(message)") }
            return message
        }
    }

    /// The next line as JSON, or a failure after `timeout` seconds / at end of stream.
    func readMessage(timeout: Int32 = 5000) throws -> JSONValue {
        guard let line = try readLine(timeout: timeout) else { throw TestFailure("connection closed") }
        return try JSONParser.parse(line)
    }

    /// Reads pushes until none arrives for `quiet` ms.
    func drainPushes(quiet: Int32 = 200) throws {
        while let line = try readLine(timeout: quiet) {
            pushes.append(try JSONParser.parse(line))
        }
    }

    /// The next line; nil at end of stream or when nothing arrives within `timeout` ms.
    func readLine(timeout: Int32) throws -> [UInt8]? {
        while true {
            if let line = lines.nextLine() { return line }
            guard !lines.isBroken else { throw TestFailure("a line longer than \(lines.maxLineLength) bytes") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// True once the daemon closed the connection (reads hit end of stream).
    func isClosedByPeer(within timeout: Int32 = 5000) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK)) == 0
    }
}

extension JSONValue {
    var isOK: Bool { self["ok"]?.bool == true }
    var errorCode: String? { self["error"]?["code"]?.string }
}
