import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitWire
import Testing

extension EndToEnd {
    /// Promise 5 (docs/RELIABILITY.md): only allowed peers are served; the socket and the
    /// directory splitd creates are private by default; splitd never binds through a
    /// symbolic link and never removes anything at its socket path but a stale socket.
    @Suite struct Access {
        /// A protocol-1 exchange run as `nobody` (uid/gid 65534): writes `lines`, then prints
        /// everything the daemon answers until it closes or goes quiet. A write the daemon no
        /// longer reads (it refused the peer) must not stop the reading, hence no socat.
        private func exchangeAsNobody(socket: String, lines: [String]) throws -> CommandOutput {
            let script = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(5)
                s.connect(sys.argv[1])
                try:
                    s.sendall(sys.stdin.buffer.read())
                except OSError as error:
                    print("send:", error, file=sys.stderr)
                received = b""
                while True:
                    try:
                        chunk = s.recv(65536)
                    except OSError as error:
                        print("recv:", error, file=sys.stderr)
                        break
                    if not chunk:
                        break
                    received += chunk
                sys.stdout.write(received.decode())
                """
            return try runCommand(
                "/usr/bin/setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, socket,
                ], stdinText: lines.joined(separator: "\n") + "\n", timeout: .seconds(30))
        }

        static var canRunAsNobody: Bool {
            Machine.hasSetpriv && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        }

        /// splitctl refused as a peer exits 69, as when it may not open the socket: a script
        /// tells "cannot use splitd" from an error answer (65).
        @Test func splitctlRefusedAsAPeerExits69() throws {
            try withDaemon(extraArguments: ["--allow-uid", "4242"]) { daemon in
                let output = try runCommand(Binaries.splitctl, ["--socket", daemon.socketPath, "ping"])
                #expect(output.exitCode == 69, "\(output)")
                #expect(output.stderr.contains("unauthorized"), "\(output.stderr)")
            }
        }

        @Test(.enabled(if: canRunAsNobody, "needs root, setpriv and /usr/bin/python3 to run a client as nobody"))
        func aPeerOutsideTheAllowListGetsUnauthorizedAndChangesNothing() throws {
            try withDaemon { daemon in
                let owner = try daemon.client("owner")
                let created = try owner.createScene("mine", device: IPadPro129.device, config: mailConfig)
                // Let nobody reach the socket: the refusal must come from the peer check.
                #expect(chmod(daemon.directory, 0o755) == 0)
                #expect(chmod(daemon.socketPath, 0o666) == 0)

                let output = try exchangeAsNobody(
                    socket: daemon.socketPath,
                    lines: [
                        #"{"id":1,"op":"hello","protocol":1,"client":"intruder"}"#,
                        #"{"id":2,"op":"scene.delete","scene":"mine"}"#,
                    ])
                let replies = output.lines.compactMap { try? JSONParser.parse($0) }
                #expect(replies.count == 1, "\(output.stdout)")
                #expect(replies.first.map(errorCode(of:)) == "unauthorized", "\(output.stdout)")
                #expect(replies.first?["id"]?.isNull == true)

                let stats = try owner.stats()
                #expect(stats["refusedPeers"]?.int == 1)
                let scene = try owner.getScene("mine")
                #expect(scene.revision == created.revision && scene.layout == created.layout)
            }
        }

        @Test(.enabled(if: canRunAsNobody, "needs root, setpriv and /usr/bin/python3 to run a client as nobody"))
        func aPeerOnTheAllowListIsServed() throws {
            // The control for the test above: the same client, allowed by uid, is served.
            try withDaemon(extraArguments: ["--allow-uid", "0", "--allow-uid", "65534"]) { daemon in
                #expect(chmod(daemon.directory, 0o755) == 0)
                #expect(chmod(daemon.socketPath, 0o666) == 0)
                let output = try exchangeAsNobody(
                    socket: daemon.socketPath,
                    lines: [
                        #"{"id":1,"op":"hello","protocol":1,"client":"guest"}"#,
                        #"{"id":2,"op":"scene.list"}"#,
                    ])
                let replies = output.lines.compactMap { try? JSONParser.parse($0) }
                #expect(replies.count == 2 && replies.allSatisfy { $0["ok"]?.bool == true }, "\(output.stdout)")
                #expect(try daemon.client().stats()["refusedPeers"]?.int == 0)
            }
        }

        @Test func theSocketAndItsNewDirectoryArePrivate() throws {
            let root = try makeTemporaryDirectory(prefix: "splitd-perm")
            defer { removeDirectory(root) }
            let socket = root + "/run/splitd/s.sock"
            let daemon = try StartedDaemon(socket: socket, database: root + "/d.db", log: root + "/log")
            defer { daemon.stop() }
            #expect(mode(of: root + "/run") == 0o700)
            #expect(mode(of: root + "/run/splitd") == 0o700)
            #expect(mode(of: socket) == 0o600)
            #expect(fileKind(socket) == S_IFSOCK)
        }

        @Test func aSocketGroupSharesTheSocketWithThatGroupOnly() throws {
            let root = try makeTemporaryDirectory(prefix: "splitd-perm")
            defer { removeDirectory(root) }
            let socket = root + "/run/s.sock"
            let daemon = try StartedDaemon(
                socket: socket, database: root + "/d.db", log: root + "/log",
                extra: ["--socket-group", "65534"])
            defer { daemon.stop() }
            #expect(mode(of: root + "/run") == 0o750)
            #expect(mode(of: socket) == 0o660)
            #expect(groupOwner(of: socket) == 65534)
        }

        /// What may already be at the socket path; none of it may be followed or removed.
        enum Occupant: String, CaseIterable {
            case symlinkToNothing, symlinkToFile, symlinkToDirectory, regularFile, directory
        }

        @Test(arguments: Occupant.allCases)
        func nothingButAStaleSocketIsReplacedAtTheSocketPath(occupant: Occupant) throws {
            let root = try makeTemporaryDirectory(prefix: "splitd-path")
            defer { removeDirectory(root) }
            let socket = root + "/s.sock"
            let victim = root + "/victim"
            switch occupant {
            case .symlinkToNothing:
                #expect(symlink(root + "/elsewhere.sock", socket) == 0)
            case .symlinkToFile:
                #expect(FileManager.default.createFile(atPath: victim, contents: Data("keep me\n".utf8)))
                #expect(symlink(victim, socket) == 0)
            case .symlinkToDirectory:
                #expect(mkdir(victim, 0o700) == 0)
                #expect(symlink(victim, socket) == 0)
            case .regularFile:
                #expect(FileManager.default.createFile(atPath: socket, contents: Data("keep me\n".utf8)))
            case .directory:
                #expect(mkdir(socket, 0o700) == 0)
            }
            let before = describe(socket)
            let refused = try runSplitd(["--socket", socket, "--database", root + "/d.db"])
            #expect(refused.exitCode == 1, "\(refused)")
            #expect(refused.stderr.contains(socket), "\(refused.stderr)")
            #expect(describe(socket) == before)
            if occupant == .symlinkToFile { #expect(readText(victim) == "keep me\n") }
            if occupant == .symlinkToNothing {
                #expect(!FileManager.default.fileExists(atPath: root + "/elsewhere.sock"))
            }
            if occupant == .symlinkToDirectory {
                #expect((try? FileManager.default.contentsOfDirectory(atPath: victim)) == [])
            }
        }

        @Test func aSocketInUseIsNotTakenOver() throws {
            let root = try makeTemporaryDirectory(prefix: "splitd-path")
            defer { removeDirectory(root) }
            let socket = root + "/s.sock"
            let first = try StartedDaemon(socket: socket, database: root + "/first.db", log: root + "/first.log")
            defer { first.stop() }
            let refused = try runSplitd(["--socket", socket, "--database", root + "/second.db"])
            #expect(refused.exitCode == 1, "\(refused)")
            #expect(refused.stderr.contains("in use"), "\(refused.stderr)")
            let client = try SplitConnection.connect(to: socket)
            try client.hello(client: "still-there")
            try client.ping()
        }

        @Test func aStaleSocketIsReplaced() throws {
            // The one thing that may be removed: a socket nothing listens on (a killed daemon's).
            let root = try makeTemporaryDirectory(prefix: "splitd-path")
            defer { removeDirectory(root) }
            let socket = root + "/s.sock"
            let first = try StartedDaemon(socket: socket, database: root + "/d.db", log: root + "/log")
            first.kill()
            #expect(fileKind(socket) == S_IFSOCK)
            let second = try StartedDaemon(socket: socket, database: root + "/d.db", log: root + "/log")
            defer { second.stop() }
            try SplitConnection.connect(to: socket).hello(client: "after")
        }
    }
}

/// splitd started directly (not through DaemonProcess, whose paths are fixed), ready when
/// its socket accepts a connection.
final class StartedDaemon {
    let child: ChildProcess
    let log: String

    init(socket: String, database: String, log: String, extra: [String] = []) throws {
        self.log = log
        child = try ChildProcess(
            Binaries.splitd, ["--socket", socket, "--database", database] + extra,
            stdoutPath: log, stderrPath: log)
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while true {
            if let ended = child.pollExit() {
                throw HarnessError("splitd ended during start-up (\(ended))\n\(readText(log))")
            }
            if let probe = try? UnixSocket.connect(path: socket, deadline: .after(.seconds(1))) {
                probe.close()
                return
            }
            guard ContinuousClock.now < deadline else {
                child.killHard()
                throw HarnessError("splitd did not accept connections within 20 s\n\(readText(log))")
            }
            usleep(20_000)
        }
    }

    func stop() {
        child.signal(SIGTERM)
        if child.wait(timeout: .seconds(15)) == nil { child.killHard() }
    }

    func kill() { child.killHard() }
}

private func lstatOf(_ path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
}

private func mode(of path: String) -> mode_t? { lstatOf(path).map { $0.st_mode & 0o7777 } }

private func fileKind(_ path: String) -> mode_t? { lstatOf(path).map { $0.st_mode & S_IFMT } }

private func groupOwner(of path: String) -> gid_t? { lstatOf(path).map(\.st_gid) }

/// Kind, inode, mode, size and link target of what is at `path` (without following links).
private func describe(_ path: String) -> String {
    guard let info = lstatOf(path) else { return "nothing" }
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "-"
    return
        "kind \(info.st_mode & S_IFMT) inode \(info.st_ino) mode \(info.st_mode & 0o7777) size \(info.st_size) -> \(target)"
}
