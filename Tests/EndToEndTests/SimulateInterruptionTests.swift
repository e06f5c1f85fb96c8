import Foundation
import SplitWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// Ctrl-C or SIGTERM during `simulate` used to leave the current run's scene on a running
    /// daemon, and the embedded daemon's temporary directory (94 MiB of zero-filled WAL) behind.
    @Suite struct SimulateInterruption {
        /// A directory with enough runs to be interrupted in the middle: the shipped scenarios,
        /// 20 copies of each (simulate takes a file given twice once).
        static func manyRuns() throws -> String {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-many-runs")
            for copy in 0..<20 {
                for name in ShippedScenarios.files {
                    try FileManager.default.copyItem(
                        atPath: ShippedScenarios.directory + "/" + name, toPath: "\(directory)/\(copy)-\(name)")
                }
            }
            return directory
        }

        @Test func aSignalStopsAnEmbeddedRunAndRemovesItsDirectory() throws {
            let temporary = try makeTemporaryDirectory(prefix: "splitctl-sim-tmp")
            let scenarios = try Self.manyRuns()
            defer {
                removeDirectory(temporary)
                removeDirectory(scenarios)
            }
            let simulate = try ChildProcess(
                Binaries.splitctl, ["simulate", "--embedded", scenarios],
                environment: ["TMPDIR": temporary],
                stdoutPath: temporary + ".out",
                stderrPath: temporary + ".err")
            defer {
                simulate.killHard()
                unlink(temporary + ".out")
                unlink(temporary + ".err")
            }
            // Running: the embedded daemon listens in its directory under $TMPDIR.
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            func embeddedDirectories() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter {
                    $0.hasPrefix("splitctl-sim-")
                }
            }
            while ContinuousClock.now < deadline,
                !embeddedDirectories().contains(where: {
                    FileManager.default.fileExists(atPath: "\(temporary)/\($0)/splitd.sock")
                })
            {
                usleep(10_000)
            }
            #expect(embeddedDirectories().count == 1)
            #expect(simulate.isRunning)
            usleep(300_000)
            let wal = embeddedDirectories().first.flatMap {
                try? FileManager.default.attributesOfItem(atPath: "\(temporary)/\($0)/splitd.db-wal")[.size] as? Int
            }
            #expect((wal ?? 0) <= 8 << 20, "a small WAL: \(wal ?? -1) bytes")
            simulate.signal(SIGINT)
            #expect(simulate.wait(timeout: .seconds(30)) == .exited(130))
            #expect(readText(temporary + ".err") == "splitctl: interrupted by SIGINT\n")
            #expect(embeddedDirectories().isEmpty, "left behind: \(embeddedDirectories())")
        }

        @Test func aSignalStopsARunAgainstADaemonAndDeletesItsScene() throws {
            let scenarios = try Self.manyRuns()
            defer { removeDirectory(scenarios) }
            try withDaemon { daemon in
                let simulate = try ChildProcess(
                    Binaries.splitctl, ["--socket", daemon.socketPath, "simulate", scenarios],
                    stdoutPath: daemon.directory + "/sim.out", stderrPath: daemon.directory + "/sim.err")
                defer { simulate.killHard() }
                let client = try daemon.client()
                func scenes() throws -> [JSONValue] { try client.call("scene.list")["scenes"]?.array ?? [] }
                let deadline = ContinuousClock.now.advanced(by: .seconds(20))
                while try scenes().isEmpty, ContinuousClock.now < deadline, simulate.isRunning { usleep(2_000) }
                #expect(simulate.isRunning)
                simulate.signal(SIGTERM)
                #expect(simulate.wait(timeout: .seconds(30)) == .exited(143))
                #expect(readText(daemon.directory + "/sim.err") == "splitctl: interrupted by SIGTERM\n")
                let left = try scenes()
                #expect(left.isEmpty, "left behind: \(left)")
            }
        }
    }
}
