import Foundation

/// Memory per idle scene and restart time: create N scenes, read the daemon's resident
/// memory before and after, stop it (SIGTERM), start it again on the same database and time
/// until the socket answers with every scene restored.
enum IdleScenes {
    struct Result {
        var scenes: Int
        var createSeconds: Double
        var residentBefore: Int
        var residentAfter: Int
        var bytesPerScene: Double
        var databaseBytes: Int
        var stopSeconds: Double
        var restartSeconds: Double
        var restoredScenes: Int?
        var residentAfterRestart: Int?
    }

    /// `keep`: leave the folder (database and log) for a later look, and print where it is.
    static func run(options: DaemonOptions, scenes: Int, keep: Bool = false) throws -> Result {
        var launch = options.launch(named: "idle", environment: ["SPLITD_LIMITS_MAX_SCENES": String(scenes + 1000)])
        launch.durability = options.durability
        defer {
            if keep { print("kept \(launch.directory)") } else { removeDirectory(launch.directory) }
        }
        let first = try DaemonProcess(launch)
        _ = try first.waitUntilReady()
        let probe = ProcessProbe(pid: first.pid)
        let before = probe.residentBytes() ?? 0
        let createSeconds = try SceneSetup.createScenes(socketPath: first.socketPath, count: scenes, batch: 1000)
        sleep(seconds: 0.5)
        let after = probe.residentBytes() ?? 0
        let stopStarted = monotonicNanoseconds()
        let status = first.stop(timeout: 60)
        let stopSeconds = Double(monotonicNanoseconds() - stopStarted) / 1e9
        guard status == 0 else {
            throw BenchError("splitd exited with status \(status) on SIGTERM; log: \(first.logTail())")
        }
        let databaseBytes = fileSize(first.databasePath) + fileSize(first.databasePath + "-wal")

        let second = try DaemonProcess(launch)
        defer { second.stop() }
        let restartSeconds = try second.waitUntilReady(timeout: 120)
        let stats = try LineClient(path: second.socketPath).call(#"{"id":1,"op":"stats"}"#)
        let restored = Fanout.integer(after: #""scenes":"#, in: Array(stats.utf8))
        return Result(
            scenes: scenes, createSeconds: createSeconds, residentBefore: before, residentAfter: after,
            bytesPerScene: Double(after - before) / Double(max(1, scenes)), databaseBytes: databaseBytes,
            stopSeconds: stopSeconds, restartSeconds: restartSeconds, restoredScenes: restored,
            residentAfterRestart: ProcessProbe(pid: second.pid).residentBytes())
    }

    static func report(_ result: Result) -> String {
        "idle scenes: \(result.scenes) created in \(fixed(result.createSeconds, 1)) s; RSS \(mebibytes(result.residentBefore)) -> "
            + "\(mebibytes(result.residentAfter)) MiB = \(fixed(result.bytesPerScene / 1024, 2)) KiB per idle scene; "
            + "database \(mebibytes(result.databaseBytes)) MiB; stop \(fixed(result.stopSeconds, 2)) s; "
            + "restart until answering \(fixed(result.restartSeconds, 2)) s with \(result.restoredScenes.map(String.init) ?? "?") scenes "
            + "(RSS \(mebibytes(result.residentAfterRestart)) MiB)"
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
