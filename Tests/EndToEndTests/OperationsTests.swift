import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// What an operator meets: the open-file limit, and a stop with a subscriber behind.
    @Suite struct Operations {
        /// A soft and hard open-file limit too low for `limits.maxClients`: the start says so,
        /// and the clients past what it leaves room for get `limit_exceeded` with the reason,
        /// where the kernel used to drop them without a word; those connected are served.
        @Test func aLowOpenFileLimitIsReportedAndClientsPastItAreRefusedWithAReason() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-nofile")
            defer { removeDirectory(directory) }
            let socket = directory + "/s.sock", log = directory + "/splitd.log"
            let child = try splitdWithOpenFileLimit(96, socket: socket, database: directory + "/d.db", log: log)
            defer { child.killHard() }
            var connections = [try waitForSocket(socket, child: child, log: log)]
            for _ in 0..<59 { connections.append(try SplitConnection.connect(to: socket, timeout: .seconds(5))) }
            let (answered, refused, other) = pingTally(
                connections, refusalContaining: "the open-file limit (96 descriptors) leaves room for 32")
            for error in other { Issue.record("unexpected: \(error)") }
            #expect(answered == 32 && refused == 28, "answered \(answered), refused \(refused)")
            let text = readText(log)
            #expect(
                text.contains(
                    "the open-file limit (96) leaves room for 32 clients, fewer than limits.maxClients (1024)"),
                "\(text)")
            // The refusals are logged, but not one line each.
            let lines = text.split(separator: "\n").filter { $0.contains("refused connection") }
            #expect(lines.count == 1 && lines[0].contains("too many clients"), "\(lines)")
            for connection in connections { connection.close() }
        }

        /// SIGTERM while a viewer is far behind (its pushes held and coalesced, with
        /// `output.slowReaderPushes` `coalesce`): the viewer still gets the newest layout
        /// before the connection closes, and the daemon exits 0.
        @Test func aLaggingViewerGetsTheNewestLayoutAtAStop() throws {
            let daemon = try DaemonProcess(environment: ["SPLITD_OUTPUT_SLOW_READER_PUSHES": "coalesce"])
            let (writer, viewer) = try writerAndSlowViewer(daemon)
            let last = try resizeBursts(writer, count: 60)
            let held = try writer.stats()["coalescedPushes"]?.int ?? 0
            #expect(held > 0, "the viewer never fell behind: the test proves nothing")
            let process = try #require(daemon.process)
            process.signal(SIGTERM)
            let (revisions, _) = pushRevisions(of: viewer, until: last)
            #expect(revisions.last == last, "last push \(revisions.last ?? 0), newest revision \(last)")
            let ended = process.wait(timeout: .seconds(15))
            #expect(ended == .exited(0), "\(String(describing: ended))\n\(daemon.logTail())")
        }

        /// A reload that takes a uid off the allow-list disconnects that uid's open
        /// connections too (`unauthorized`), and the log names what the reload applied.
        @Test func aReloadRevokesOpenConnectionsOffTheAllowList() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-revoke")
            defer { removeDirectory(directory) }
            let config = directory + "/splitd.json"
            _ = FileManager.default.createFile(
                atPath: config, contents: Data(#"{"access":{"allowUids":[\#(getuid())]}}"#.utf8))
            let daemon = try DaemonProcess(extraArguments: ["--config", config])
            let client = try daemon.client("soon-revoked")
            try client.ping()
            _ = FileManager.default.createFile(atPath: config, contents: Data(#"{"access":{"allowUids":[4242]}}"#.utf8))
            daemon.process?.signal(SIGHUP)
            var refusal: ClientError?
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            while refusal == nil, ContinuousClock.now < deadline {
                do {
                    try client.ping()
                    usleep(20_000)
                } catch {
                    refusal = error
                }
            }
            guard case .server(let code, let message)? = refusal else {
                Issue.record("no refusal: \(String(describing: refusal))\n\(daemon.logTail())")
                return
            }
            #expect(code == "unauthorized" && message.contains("configuration reloaded"), "\(message)")
            #expect(
                daemon.logTail().contains("configuration reloaded: access.allowUids [\(getuid())] -> [4242]"),
                "\(daemon.logTail())")
            #expect(daemon.terminate() == .exited(0))
        }

        /// A reload that lowers `output.totalLimitBytes` under what stalled clients hold applies
        /// at once: the one holding the most is disconnected without waiting for more output.
        @Test func aReloadThatLowersTheTotalOutputLimitAppliesAtOnce() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-total-limit")
            defer { removeDirectory(directory) }
            let config = directory + "/splitd.json"
            let limits = #"{"output":{"softLimitBytes":65536,"hardLimitBytes":1048576,"totalLimitBytes":%d}}"#
            _ = FileManager.default.createFile(atPath: config, contents: Data(String(format: limits, 268_435_456).utf8))
            let daemon = try DaemonProcess(extraArguments: ["--config", config])
            let (writer, first) = try writerAndSlowViewer(daemon)
            let viewers = [first, try slowViewer(daemon, "viewer-2"), try slowViewer(daemon, "viewer-3")]
            // ~900 pushes for each viewer: ~0.5 MB each left in the daemon (a push is ~530
            // bytes with revision 2's layout members), under the 1 MiB hard limit, ~1.4 MB
            // together, and under 1 MiB once the largest is gone.
            _ = try resizeBursts(writer, count: 9)
            let before = try writer.stats()
            let queued = try #require(before["queuedOutputBytes"]?.int)
            #expect(queued > 1_048_576, "\(before)")
            #expect(before["slowClientsDisconnected"] == 0)
            _ = FileManager.default.createFile(atPath: config, contents: Data(String(format: limits, 1_048_576).utf8))
            daemon.process?.signal(SIGHUP)
            var stats = before
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            while stats["slowClientsDisconnected"] == 0, ContinuousClock.now < deadline {
                usleep(20_000)
                stats = try writer.stats()
            }
            #expect(stats["slowClientsDisconnected"] == 1, "\(stats)\n\(daemon.logTail())")
            #expect((stats["queuedOutputBytes"]?.int ?? .max) <= 1_048_576)
            #expect(daemon.logTail().contains("output.totalLimitBytes 268435456 -> 1048576"), "\(daemon.logTail())")
            withExtendedLifetime(viewers) {}
            #expect(daemon.terminate() == .exited(0))
        }

        /// A second SIGTERM while the stop waits for a client that does not read ends the wait:
        /// the daemon exits 0 at once instead of after `shutdown.timeoutMilliseconds`.
        @Test func aSecondSigtermEndsTheDrain() throws {
            let daemon = try DaemonProcess(environment: ["SPLITD_SHUTDOWN_TIMEOUT_MILLISECONDS": "60000"])
            let (writer, stalled) = try writerAndSlowViewer(daemon)
            _ = try resizeBursts(writer, count: 10)
            let process = try #require(daemon.process)
            process.signal(SIGTERM)
            // Still draining: the stalled viewer has not read its output.
            #expect(process.wait(timeout: .milliseconds(500)) == nil, "the daemon did not wait for the stalled viewer")
            let began = ContinuousClock.now
            process.signal(SIGTERM)
            let ended = process.wait(timeout: .seconds(20))
            #expect(ended == .exited(0), "\(String(describing: ended))\n\(daemon.logTail())")
            #expect(began.duration(to: .now) < .seconds(10))
            #expect(daemon.logTail().contains("SIGTERM again while stopping"), "\(daemon.logTail())")
            stalled.close()
        }

        /// SYSTEMD.md's exit statuses for the command line: a usage error is 64 with the
        /// usage on stderr, and the two print-and-exit flags do not combine silently.
        @Test func commandLineUsageErrorsExit64() throws {
            for arguments in [
                ["--bogus"], ["--allow-uid", "abc"], ["--check-config", "--print-default-config"],
                // An empty path (an unset variable) never falls back to the defaults.
                ["--socket", "", "--check-config"], ["--database", "", "--check-config"],
                ["--durability", "fast", "--check-config"], ["--log-level", "INFO", "--check-config"],
                ["--allow-uid", "-1", "--check-config"],
            ] {
                let run = try runSplitd(arguments)
                #expect(run.exitCode == 64, "\(arguments): \(run)")
                #expect(run.stderr.contains("Usage: splitd"), "\(arguments): \(run.stderr)")
            }
            // An empty --socket-group is a value (owner only), not a missing one.
            let ownerOnly = try runSplitd(["--socket-group", "", "--check-config"])
            #expect(ownerOnly.exitCode == 0 && ownerOnly.stdout.contains("none (owner only)"), "\(ownerOnly)")
            let printed = try runSplitd(["--print-default-config"])
            #expect(printed.exitCode == 0 && printed.stdout.hasPrefix("{"))
        }

        /// A socket path that is a file, a folder or a symbolic link is refused before a
        /// database is opened: the refused start creates none.
        @Test func aRefusedSocketPathCreatesNoDatabase() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-refused")
            defer { removeDirectory(directory) }
            _ = FileManager.default.createFile(atPath: directory + "/file.sock", contents: Data("x".utf8))
            mkdir(directory + "/folder.sock", 0o700)
            symlink(directory + "/elsewhere.sock", directory + "/link.sock")
            for (name, reason) in [
                ("file.sock", "it exists and is not a socket"), ("folder.sock", "it exists and is not a socket"),
                ("link.sock", "it is a symbolic link"),
            ] {
                let database = directory + "/\(name).db"
                let run = try runSplitd(["--socket", directory + "/" + name, "--database", database])
                #expect(run.exitCode == 1, "\(name): \(run)")
                #expect(run.stderr.contains(reason), "\(name): \(run.stderr)")
                #expect(access(database, F_OK) != 0, "\(name): the refused start created its database")
            }
            #expect(readText(directory + "/file.sock") == "x", "the file at the socket path is left as it was")
        }

        /// `splitd --demo` (README's main job): the demo scene is created and resized through the
        /// app-switcher sizes, every resize a revision pushed to attached clients.
        @Test func theDemoResizesItsSceneAndPushesEachRevision() throws {
            let daemon = try DaemonProcess(extraArguments: ["--demo"])
            let viewer = try daemon.client("viewer")
            let attached = try viewer.attach("demo", role: .viewer)
            let push = try viewer.nextPush(timeout: .seconds(10))
            #expect(push["event"] == "layout")
            #expect(push["scene"] == "demo")
            #expect((push["revision"]?.int ?? 0) > attached.revision)
            #expect(daemon.log.contains("demo: resizing 'demo'"), "\(daemon.logTail())")
            #expect(daemon.terminate() == .exited(0))
        }

        /// A database that already has a scene called `demo` the demo did not create: `--demo`
        /// leaves it as it is, and says so.
        @Test func theDemoLeavesAnotherSceneCalledDemoAlone() throws {
            let daemon = try DaemonProcess()
            let owner = try daemon.client("owner")
            let created = try owner.createScene("demo", device: IPadPro129.device, config: mailConfig)
            #expect(daemon.terminate() == .exited(0))
            let demo = try DaemonProcess(extraArguments: ["--demo"], directory: daemon.directory)
            usleep(2_000_000)  // longer than the demo's 1.5 s between resizes
            let scene = try demo.client("checker").getScene("demo")
            #expect(scene.revision == created.revision)
            #expect(demo.log.contains("that the demo did not create; not changing it"), "\(demo.logTail())")
            #expect(demo.terminate() == .exited(0))
        }

        /// A second daemon on a socket in use is refused before it touches its database: no
        /// directory or file is created for it.
        @Test func aSecondDaemonOnABusySocketCreatesNoDatabase() throws {
            let daemon = try DaemonProcess()
            let other = daemon.directory + "/other/d.db", log = daemon.directory + "/second.log"
            let second = try ChildProcess(
                Binaries.splitd, ["--socket", daemon.socketPath, "--database", other],
                stdoutPath: log, stderrPath: log)
            #expect(second.wait(timeout: .seconds(20)) == .exited(1))
            #expect(readText(log).contains("is in use: another daemon is listening on it"), "\(readText(log))")
            #expect(access(daemon.directory + "/other", F_OK) != 0, "the refused daemon created its database directory")
            try daemon.client().ping()
            #expect(daemon.terminate() == .exited(0))
        }
    }
}

/// Waits for `socket` to accept a connection from the daemon `child` and returns it.
private func waitForSocket(_ socket: String, child: ChildProcess, log: String) throws -> SplitConnection {
    let deadline = ContinuousClock.now.advanced(by: .seconds(20))
    while ContinuousClock.now < deadline {
        if let ended = child.pollExit() {
            throw HarnessError("splitd ended during start-up (\(ended))\n\(readText(log))")
        }
        if let connection = try? SplitConnection.connect(to: socket, timeout: .seconds(1)) { return connection }
        usleep(20_000)
    }
    throw HarnessError("splitd did not accept connections\n\(readText(log))")
}

/// A writer that created scene "busy", and a viewer attached to it with a 4 KiB receive
/// buffer, so that it falls behind as soon as it stops reading.
private func writerAndSlowViewer(_ daemon: DaemonProcess) throws -> (SplitConnection, SplitConnection) {
    let writer = try daemon.client("writer")
    try writer.createScene("busy", device: IPadPro129.device, config: mailConfig)
    return (writer, try slowViewer(daemon, "viewer"))
}

/// A viewer of "busy" with a 4 KiB receive buffer that does not read.
private func slowViewer(_ daemon: DaemonProcess, _ name: String) throws -> SplitConnection {
    let viewer = try daemon.client(name)
    var small: Int32 = 4096
    setsockopt(viewer.socket.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    try viewer.attach("busy", role: .viewer)
    return viewer
}

/// `count` bursts of 100 pipelined resizes of "busy" (each a change); the last revision.
private func resizeBursts(_ writer: SplitConnection, count: Int) throws -> Int {
    var last = 0
    for batch in 0..<count {
        var ids: [JSONValue] = []
        for index in 0..<100 {
            let width = 700 + ((batch * 100 + index) % 2) * 300
            ids.append(try writer.send(op: "resize", ["scene": "busy", "width": .int(Int64(width)), "height": 1024]))
        }
        for id in ids { last = max(last, try writer.response(to: id, timeout: .seconds(10))["revision"]?.int ?? 0) }
    }
    return last
}

/// Pings every connection: how many were answered, how many refused `limit_exceeded` with a
/// message containing `refusalContaining`, and every other outcome.
func pingTally(
    _ connections: [SplitConnection], refusalContaining text: String
) -> (answered: Int, refused: Int, other: [String]) {
    var answered = 0, refused = 0, other: [String] = []
    for connection in connections {
        do {
            try connection.ping()
            answered += 1
        } catch {
            if case .server(let code, let message) = error, code == "limit_exceeded", message.contains(text) {
                refused += 1
            } else {
                other.append("\(error)")
            }
        }
    }
    return (answered, refused, other)
}

/// splitd under `ulimit -n LIMIT`, which sets the soft and the hard limit: it cannot raise it.
func splitdWithOpenFileLimit(_ limit: Int, socket: String, database: String, log: String) throws -> ChildProcess {
    try ChildProcess(
        "/bin/sh",
        [
            "-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", Binaries.splitd,
            "--socket", socket, "--database", database,
        ],
        stdoutPath: log, stderrPath: log)
}
