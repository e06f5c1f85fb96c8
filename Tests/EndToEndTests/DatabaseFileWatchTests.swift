import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitCore
import Testing

extension EndToEnd {
    /// A database file deleted or replaced under a running splitd: it must not go on
    /// acknowledging changes into the unlinked file, which the next start would not have. It
    /// refuses changes once it notices (within a second), copies what was committed back, and
    /// stops with status 75.
    @Suite struct DatabaseFileWatch {
        /// Resizes `scene` until a change is refused `storage` (the daemon noticed), returning the
        /// last acknowledged revision.
        private func resizeUntilRefused(_ client: SplitConnection, _ scene: String, from revision: Int) throws -> Int {
            var acknowledged = revision
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            var index = 0
            while ContinuousClock.now < deadline {
                index += 1
                do {
                    acknowledged = try client.resize(
                        scene, to: index % 2 == 0 ? IPadPro129.landscape : IPadPro129.oneThird
                    ).revision
                } catch {
                    // After the refusal the daemon stops: a closed connection is the same news.
                    guard error.serverCode == "storage" || error.serverCode == nil else { throw error }
                    return acknowledged
                }
                usleep(20_000)
            }
            throw HarnessError("no change was refused within 10 s of the database file's deletion")
        }

        @Test func aDeletedDatabaseIsCopiedBackBeforeTheDaemonStops() throws {
            let daemon = try DaemonProcess()
            defer { daemon.kill9() }
            let client = try daemon.client()
            let created = try client.createScene("kept", device: IPadPro129.device)
            for suffix in ["", "-wal", "-shm"] { unlink(daemon.databasePath + suffix) }
            let acknowledged = try resizeUntilRefused(client, "kept", from: created.revision)
            #expect(acknowledged > created.revision, "some changes were acknowledged after the deletion")
            let ended = daemon.process?.wait(timeout: .seconds(20))
            #expect(ended == .exited(75), "\(daemon.logTail())")
            #expect(daemon.log.contains("was deleted while splitd ran"), "\(daemon.logTail())")
            try daemon.start()
            let restored = try daemon.client().getScene("kept")
            #expect(restored.revision == acknowledged, "every acknowledged change is in the rescued file")
        }

        /// A copy that cannot be made (a full disk: the deleted file's blocks are still held)
        /// leaves nothing at the path for a restart to take as an empty database; the daemon
        /// keeps refusing changes and tries again each second, and finishes once there is room.
        @Test(.enabled(if: Machine.canMountTmpfs, "needs root and permission to mount a tmpfs"))
        func aRescueWaitsForRoomAndNeverLeavesAPartialCopy() throws {
            try withTmpfs(size: "16m", prefix: "splitd-rescue") { directory in
                let daemon = try DaemonProcess(directory: directory)
                defer { daemon.kill9() }
                let client = try daemon.client()
                let created = try client.createScene("held", device: IPadPro129.device)
                let filler = directory + "/filler"
                fillFileSystem(with: filler)
                for suffix in ["", "-wal", "-shm"] { unlink(daemon.databasePath + suffix) }
                let acknowledged = try resizeUntilRefused(client, "held", from: created.revision)
                // No room for the copy: still running, nothing at the path, no partial file left.
                usleep(1_500_000)
                #expect(daemon.isRunning, "\(daemon.logTail())")
                #expect(!FileManager.default.fileExists(atPath: daemon.databasePath))
                let partial = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
                    $0.contains(".partial-")
                }
                #expect(partial.isEmpty, "\(partial)")
                unlink(filler)
                #expect(daemon.process?.wait(timeout: .seconds(20)) == .exited(75), "\(daemon.logTail())")
                try daemon.start()
                #expect(try daemon.client().getScene("held").revision == acknowledged)
            }
        }

        /// A database path that is a symbolic link: SQLite writes the WAL next to the file the
        /// link leads to, and the flush must sync that one (it synced a stray `link-wal`, then
        /// failed with ENOENT once the zero-fill followed the link: exit 75 at the first change).
        @Test func aSymlinkedDatabaseTakesChangesAndKeepsThem() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitd-link")
            defer { removeDirectory(directory) }
            try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
            #expect(symlink(directory + "/real/d.db", directory + "/d.db") == 0)
            let daemon = try DaemonProcess(directory: directory)
            defer { daemon.kill9() }
            let client = try daemon.client()
            _ = try client.createScene("linked", device: IPadPro129.device)
            var last = 0
            for index in 0..<20 {
                last = try client.resize("linked", to: index % 2 == 0 ? IPadPro129.oneThird : IPadPro129.landscape)
                    .revision
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/d.db-wal"), "no stray WAL beside the link")
            try daemon.crashAndRestart()
            #expect(try daemon.client().getScene("linked").revision == last)
        }

        @Test func aReplacedDatabaseIsCopiedNextToTheNewFile() throws {
            let daemon = try DaemonProcess()
            defer { daemon.kill9() }
            let client = try daemon.client()
            let created = try client.createScene("mine", device: IPadPro129.device)
            // Another file takes the name (a backup copied over it): it is left alone.
            let other = daemon.directory + "/other.db"
            #expect(FileManager.default.createFile(atPath: other, contents: Data("not ours".utf8)))
            #expect(rename(other, daemon.databasePath) == 0)
            let acknowledged = try resizeUntilRefused(client, "mine", from: created.revision)
            #expect(daemon.process?.wait(timeout: .seconds(20)) == .exited(75), "\(daemon.logTail())")
            #expect(String(decoding: fileBytes(daemon.databasePath) ?? [], as: UTF8.self) == "not ours")
            let rescued = try FileManager.default.contentsOfDirectory(atPath: daemon.directory)
                .filter { $0.hasPrefix("d.db.rescued-") }
            #expect(rescued.count == 1, "\(rescued)")
            // The copy is a database splitd opens, with every acknowledged change.
            let copy = try DaemonProcess(extraArguments: [])
            defer { copy.kill9() }
            _ = copy.terminate()
            for suffix in ["", "-wal", "-shm"] { unlink(copy.databasePath + suffix) }
            #expect(link(daemon.directory + "/" + (rescued.first ?? "none"), copy.databasePath) == 0)
            try copy.start()
            #expect(try copy.client().getScene("mine").revision == acknowledged)
        }
    }
}
