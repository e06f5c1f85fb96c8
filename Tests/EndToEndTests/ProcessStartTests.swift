import Foundation
import Glibc
import SplitClient
import Testing

extension EndToEnd {
    /// What needs separate daemon processes: answers that do not depend on the process.
    @Suite struct ReproducibleAcrossProcesses {
        /// `scene.get` answers byte for byte the same in two daemon processes (member order
        /// does not depend on the process's hash seed).
        @Test func sceneGetIsByteForByteReproducibleAcrossProcesses() throws {
            var answers: [String] = []
            for _ in 0..<2 {
                try withDaemon { daemon in
                    let fd = try connectBlocking(daemon.socketPath)
                    defer { close(fd) }
                    let lines = [
                        #"{"id":1,"op":"scene.create","scene":"mail","device":"ipad-pro-12.9","config":{"style":"tripleColumn","sizePolicy":"latest"}}"#,
                        #"{"id":2,"op":"intent","scene":"mail","intent":{"kind":"push","column":"secondary","vc":"m1"}}"#,
                        #"{"id":3,"op":"scene.get","scene":"mail"}"#,
                    ]
                    let request = Array((lines.joined(separator: "\n") + "\n").utf8)
                    #expect(request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == request.count)
                    let received = try readLines(fd, count: 3)
                    answers.append(String(decoding: received[2], as: UTF8.self))
                }
            }
            #expect(answers.count == 2)
            #expect(answers.first?.contains(#""state":{"#) == true)
            #expect(answers.first == answers.last)
        }
    }
}

/// The first `count` lines read from `fd` (each without its newline).
private func readLines(_ fd: Int32, count: Int) throws -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while lines.count < count {
        let read = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard read > 0 else { throw ReadFailure() }
        for byte in chunk[0..<read] {
            if byte == 0x0A {
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
    }
    return lines
}

private struct ReadFailure: Error {}

extension EndToEnd {
    /// Signals that arrive while splitd starts, before its signal watchers exist, neither kill
    /// it silently (a SIGHUP once ended it with status 129 and no log line) nor leave it
    /// half-started.
    @Suite struct StartupSignals {
        /// Spawns splitd and waits for its first log line ("starting": its code runs, nothing
        /// can guard the process's own exec before that); true when it came.
        private func spawn(in directory: String) throws -> (ChildProcess, Bool) {
            let child = try ChildProcess(
                Binaries.splitd, ["--socket", directory + "/s.sock", "--database", directory + "/d.db"],
                stdoutPath: directory + "/log", stderrPath: directory + "/log")
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while ContinuousClock.now < deadline, child.pollExit() == nil {
                if !readText(directory + "/log").isEmpty { return (child, true) }
                usleep(500)
            }
            return (child, false)
        }

        /// Spawns splitd, then from its first log line on sends `number` every 2 ms until its
        /// socket accepts or it ends.
        private func start(signalling number: Int32, in directory: String) throws -> (ChildProcess, Bool) {
            let socket = directory + "/s.sock"
            let (child, started) = try spawn(in: directory)
            guard started else { return (child, false) }
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while ContinuousClock.now < deadline {
                if child.pollExit() != nil { return (child, false) }
                if let probe = try? UnixSocket.connect(path: socket, deadline: .after(.milliseconds(50))) {
                    probe.close()
                    return (child, true)
                }
                child.signal(number)
                usleep(2_000)
            }
            return (child, false)
        }

        @Test func aReloadSignalDuringStartUpIsIgnored() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-hup")
            defer { removeDirectory(directory) }
            let (child, ready) = try start(signalling: SIGHUP, in: directory)
            defer { child.killHard() }
            #expect(
                ready,
                "splitd ended: \(child.termination.map(String.init(describing:)) ?? "-")\n\(readText(directory + "/log"))"
            )
            child.signal(SIGTERM)
            #expect(child.wait(timeout: .seconds(20)) == .exited(0), "\(readText(directory + "/log"))")
        }

        @Test func aStopSignalDuringStartUpStopsGracefully() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-term")
            defer { removeDirectory(directory) }
            let (child, started) = try spawn(in: directory)
            defer { child.killHard() }
            #expect(started)
            child.signal(SIGTERM)
            let ended = child.wait(timeout: .seconds(20))
            let log = readText(directory + "/log")
            #expect(ended == .exited(0), "\(log)")
            #expect(log.contains("stopped"), "\(log)")
            // Stopped before it was ready: it never says it is (nor tells systemd READY=1).
            if log.contains("during start-up") { #expect(!log.contains(" ready on "), "\(log)") }
        }
    }
}
