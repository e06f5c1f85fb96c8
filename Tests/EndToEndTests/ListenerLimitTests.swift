import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitWire
import Testing

extension EndToEnd {
    /// The listener at the open-file limit, and two daemons racing for one socket path.
    @Suite struct ListenerLimit {
        /// 120 clients wait in the listen backlog of a daemon whose open-file limit (96) leaves
        /// room for 32 (the daemon is stopped with SIGSTOP while they connect, so that it meets
        /// them all at once). Every client past the 32 gets `limit_exceeded` naming the limit:
        /// none is dropped without a word (libuv used to accept and close them silently once
        /// `accept` failed with EMFILE), and `stats` counts every refusal.
        @Test func everyClientPastTheOpenFileLimitGetsLimitExceeded() throws {
            raiseOpenFileLimit()
            let directory = try makeTemporaryDirectory(prefix: "splitd-listener-limit")
            defer { removeDirectory(directory) }
            let socket = directory + "/s.sock", log = directory + "/splitd.log"
            let child = try splitdWithOpenFileLimit(96, socket: socket, database: directory + "/d.db", log: log)
            defer { child.killHard() }
            var connections = [try connectWhenReady(socket, child: child, log: log)]
            try connections[0].ping()
            #expect(kill(child.pid, SIGSTOP) == 0)
            for _ in 0..<120 { connections.append(try SplitConnection.connect(to: socket, timeout: .seconds(5))) }
            #expect(kill(child.pid, SIGCONT) == 0)

            let (answered, refused, other) = pingTally(
                connections,
                refusalContaining: "too many clients (the open-file limit (96 descriptors) leaves room for 32)")
            #expect(
                answered == 32 && refused == 89 && other.isEmpty,
                "answered \(answered), refused \(refused), other \(other.count): \(Set(other))\n\(readText(log))")
            for connection in connections { connection.close() }

            // Every refusal is counted: by the listener (`acceptFailures`, refused at EMFILE
            // with its reserve descriptor) or by the server (`errors.limit_exceeded`).
            // (Until the daemon has seen the others close, the client asking is refused too.)
            var stats: JSONValue?, refusedLater = 0
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            while stats == nil, ContinuousClock.now < deadline {
                do {
                    stats = try SplitConnection.connect(to: socket).stats()
                } catch {
                    if case .server(let code, _) = error, code == "limit_exceeded" { refusedLater += 1 }
                    usleep(20_000)
                }
            }
            let failures = stats?["acceptFailures"]?.int ?? -1
            let limitErrors = stats?["errors"]?["limit_exceeded"]?.int ?? 0
            #expect(
                failures + limitErrors == refused + refusedLater,
                "acceptFailures \(failures), errors.limit_exceeded \(limitErrors), refused \(refused) + \(refusedLater)"
            )
            // Logged, but not one line each.
            let lines = readText(log).split(separator: "\n").filter {
                $0.contains("refused connection") || $0.contains("could not be accepted")
            }
            #expect(!lines.isEmpty && lines.count <= 2, "\(lines)")
            #expect(child.isRunning)
        }

        /// Two daemons started at the same moment on one socket path: exactly one serves it,
        /// the other refuses to start ("in use"), round after round. A daemon that had bound
        /// the socket but not yet called listen(2) used to look stale to the other, which
        /// unlinked its socket file and bound its own: both reported ready.
        @Test func twoDaemonsStartedAtOnceLeaveExactlyOneRunning() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-race")
            defer { removeDirectory(directory) }
            let socket = directory + "/s.sock"
            for round in 0..<30 {
                let logs = [directory + "/a\(round).log", directory + "/b\(round).log"]
                let daemons = try logs.map {
                    try ChildProcess(
                        Binaries.splitd, ["--socket", socket, "--database", ":memory:"], stdoutPath: $0, stderrPath: $0)
                }
                defer { daemons.forEach { $0.killHard() } }
                // Settled: each one has either exited or said it is ready.
                let settled = eventually(within: .seconds(20)) {
                    zip(daemons, logs).allSatisfy { daemon, log in
                        !daemon.isRunning || readText(log).contains(" ready on ")
                    }
                }
                let running = daemons.filter(\.isRunning)
                let refusedInUse = zip(daemons, logs).filter { daemon, log in
                    daemon.pollExit() == .exited(1)
                        && readText(log).contains("is in use: another daemon is listening on it")
                }
                #expect(
                    settled && running.count == 1 && refusedInUse.count == 1,
                    "round \(round): \(running.count) running, \(refusedInUse.count) refused\n\(logs.map(readText).joined(separator: "\n---\n"))"
                )
                if running.count == 1 {
                    #expect(
                        (try? SplitConnection.connect(to: socket, timeout: .seconds(5)).ping()) != nil, "round \(round)"
                    )
                    running[0].signal(SIGTERM)
                    #expect(running[0].wait(timeout: .seconds(15)) == .exited(0), "round \(round)")
                }
                guard settled, running.count == 1 else { return }
            }
        }

        /// A lock on `PATH.lock` held by someone else (a daemon between bind and listen)
        /// refuses the start, and the socket file there is left alone.
        @Test func aHeldSocketLockRefusesTheStart() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-lock")
            defer { removeDirectory(directory) }
            let socket = directory + "/s.sock", log = directory + "/splitd.log"
            // The other daemon: a bound socket that does not listen yet, and the lock.
            let bound = try bindWithoutListening(socket)
            defer { close(bound) }
            let original = inode(socket)
            let lock = open(socket + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            defer { close(lock) }
            #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
            let daemon = try ChildProcess(
                Binaries.splitd, ["--socket", socket, "--database", ":memory:"], stdoutPath: log, stderrPath: log)
            defer { daemon.killHard() }
            #expect(daemon.wait(timeout: .seconds(20)) == .exited(1), "\(readText(log))")
            #expect(readText(log).contains("is in use: another daemon is listening on it"), "\(readText(log))")
            #expect(original != nil && inode(socket) == original, "the socket file was removed or replaced")
        }

        /// A daemon refused because another one holds `PATH.lock` (starting: it has not bound
        /// yet) is refused before it opens its database: nothing is created at its own
        /// database path. The lock used to be taken only at listen, after the database was
        /// opened (created, its WAL zero-filled).
        @Test func aHeldSocketLockRefusesTheStartBeforeTheDatabaseIsOpened() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-lock")
            defer { removeDirectory(directory) }
            let socket = directory + "/s.sock", log = directory + "/splitd.log"
            let database = directory + "/other/d.db"
            let lock = open(socket + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            defer { close(lock) }
            #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
            let daemon = try ChildProcess(
                Binaries.splitd, ["--socket", socket, "--database", database], stdoutPath: log, stderrPath: log)
            defer { daemon.killHard() }
            #expect(daemon.wait(timeout: .seconds(20)) == .exited(1), "\(readText(log))")
            #expect(readText(log).contains("is in use: another daemon is listening on it"), "\(readText(log))")
            #expect(access(directory + "/other", F_OK) != 0, "the refused daemon created its database directory")
            #expect(access(socket, F_OK) != 0)
        }
    }
}

/// Connects to the daemon `child` once `socket` accepts connections.
private func connectWhenReady(_ socket: String, child: ChildProcess, log: String) throws -> SplitConnection {
    let deadline = ContinuousClock.now.advanced(by: .seconds(20))
    while ContinuousClock.now < deadline {
        if let ended = child.pollExit() {
            throw HarnessError("splitd ended during start-up (\(ended))\n\(readText(log))")
        }
        if let connection = try? SplitConnection.connect(to: socket, timeout: .seconds(1)) { return connection }
        usleep(20_000)
    }
    throw HarnessError("splitd did not accept connections within 20 s\n\(readText(log))")
}

/// A Unix stream socket bound to `path` that does not listen.
private func bindWithoutListening(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard fd >= 0, status == 0 else { throw HarnessError("cannot bind \(path): errno \(errno)") }
    return fd
}

/// The inode at `path` (nil if nothing is there).
private func inode(_ path: String) -> ino_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_ino : nil
}
