import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitCore
import Testing

extension EndToEnd {
    /// A database file deleted or replaced under a running splitd: before stop 22 it went on
    /// acknowledging changes into the unlinked file, stopped with status 0, and the next start
    /// had none of them (audit of stop 22, D4). Now it refuses changes once it notices (within
    /// a second), copies what was committed back, and stops with status 75.
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
                    acknowledged = try client.resize(scene, to: index % 2 == 0 ? IPadPro129.landscape : IPadPro129.oneThird).revision
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
