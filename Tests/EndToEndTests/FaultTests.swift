import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// Promise 2 (docs/RELIABILITY.md): when the database refuses a write, the change gets
    /// `storage` and is not applied; reads keep being served; once the fault is gone the same
    /// change succeeds at the next revision and is durable; a corrupt or unusable database
    /// is refused at start, with a message, and left byte for byte as it was.
    @Suite struct Fault {
        @Test(.enabled(if: Machine.hasPython, "needs python3 with sqlite3"))
        func aDatabaseLockedByAnotherProcess() throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                try client.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let before = try client.intent("mail", .push(column: .primary, vc: "thread"))

                let lock = try DatabaseLockHolder(database: daemon.databasePath)
                try expectRefusedWrites(client, scene: "mail", acknowledged: before)
                lock.release()

                try expectRecovery(client, daemon: daemon, scene: "mail", acknowledged: before)
            }
        }

        @Test(
            .enabled(if: Machine.canMakeImmutable, "needs root and a file system with chattr +i (not tmpfs/overlayfs)"))
        func aDatabaseThatBecomesReadOnly() throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                try client.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let before = try client.intent("mail", .push(column: .primary, vc: "thread"))

                let files = [daemon.databasePath, daemon.databasePath + "-wal"]
                try setImmutable(files, true)
                defer { try? setImmutable(files, false) }
                try expectRefusedWrites(client, scene: "mail", acknowledged: before)
                try setImmutable(files, false)

                try expectRecovery(client, daemon: daemon, scene: "mail", acknowledged: before)
            }
        }

        @Test(
            .enabled(if: Machine.canMakeImmutable, "needs root and a file system with chattr +i (not tmpfs/overlayfs)"))
        func aReadOnlyDatabaseIsRefusedAtStartAndLeftAlone() throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                try client.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let acknowledged = try client.intent("mail", .push(column: .primary, vc: "thread"))
                client.close()
                #expect(daemon.terminate() == .exited(0))

                try setImmutable([daemon.databasePath], true)
                defer { try? setImmutable([daemon.databasePath], false) }
                let bytes = fileBytes(daemon.databasePath)
                let refused = try runSplitd(daemon.arguments)
                #expect(refused.exitCode == 1, "\(refused)")
                #expect(
                    refused.stderr.contains("refusing to start") && refused.stderr.contains(daemon.databasePath),
                    "\(refused.stderr)")
                #expect(fileBytes(daemon.databasePath) == bytes)

                try setImmutable([daemon.databasePath], false)
                try daemon.start()
                let restored = try daemon.client().getScene("mail")
                #expect(restored.revision == acknowledged.revision && restored.layout == acknowledged.layout)
            }
        }

        @Test(.enabled(if: Machine.canMountTmpfs, "needs root and permission to mount a tmpfs"))
        func aFullDisk() throws {
            try withTmpfs(size: "4m", prefix: "splitd-full") { directory in
                let daemon = try DaemonProcess(directory: directory)
                defer { daemon.kill9() }
                do {
                    try fillDiskAndRecover(daemon, directory: directory)
                } catch {
                    Issue.record("\(error)\n\(daemon.logTail())")
                }
                #expect(daemon.isRunning, "\(daemon.logTail())")
            }
        }

        /// On a volume smaller than a WAL cycle (66 MB by default) the WAL would fill the disk
        /// before its first checkpoint, and every change after would fail for good. splitd
        /// fits the cycle to the room it has, says so, and keeps going.
        @Test(.enabled(if: Machine.canMountTmpfs, "needs root and permission to mount a tmpfs"))
        func aSmallVolumeKeepsTakingChanges() throws {
            try withTmpfs(size: "8m", prefix: "splitd-small") { directory in
                let daemon = try DaemonProcess(directory: directory)
                defer { daemon.kill9() }
                let client = try daemon.client()
                _ = try client.createScene("small", device: IPadPro129.device)
                var last = 0
                for index in 0..<4000 {
                    let size = index % 2 == 0 ? IPadPro129.oneThird : IPadPro129.landscape
                    do {
                        last = try client.resize("small", to: size).revision
                    } catch {
                        Issue.record("change \(index) refused: \(error)\n\(daemon.logTail())")
                        return
                    }
                }
                #expect(last == 4001)
                let stats = try client.stats()
                #expect((stats["walCheckpoints"]?.int ?? 0) > 0, "\(stats)")
                #expect(daemon.log.contains("WAL checkpoints every"), "\(daemon.logTail())")
            }
        }

        /// Scenes are created until the disk is full; the one that could not be stored is not
        /// there; the others are served; freeing space lets the same create succeed.
        private func fillDiskAndRecover(_ daemon: DaemonProcess, directory: String) throws {
            let client = try daemon.client()
            let config: JSONValue = [
                "roots": ["primary": "inbox", "secondary": "detail"],
                "tabs": .array(
                    (0..<32).map { .object(["root": .string("tab\($0)-" + String(repeating: "r", count: 100))]) }),
            ]
            var acknowledged: [String: SceneReply] = [:]
            for index in 0..<5 {
                let name = "before-\(index)"
                acknowledged[name] = try client.createScene(name, device: IPadPro129.device, config: config)
            }
            let filler = directory + "/filler"
            fillFileSystem(with: filler)

            var refused: String?
            for index in 0..<5000 where refused == nil {
                let name = "full-\(index)"
                do {
                    acknowledged[name] = try client.createScene(name, device: IPadPro129.device, config: config)
                } catch {
                    guard error.serverCode == "storage" else { throw error }
                    refused = name
                }
            }
            guard let refused else {
                Issue.record("no create was refused on a full disk")
                return
            }
            // Not applied, and everything acknowledged is still served.
            #expect(serverErrorCode { _ = try client.getScene(refused) } == "unknown_scene")
            #expect(Set(try client.listScenes().map(\.scene)) == Set(acknowledged.keys))
            let sample = try client.getScene("before-0")
            #expect(
                sample.revision == acknowledged["before-0"]?.revision
                    && sample.layout == acknowledged["before-0"]?.layout)

            try FileManager.default.removeItem(atPath: filler)
            acknowledged[refused] = try client.createScene(refused, device: IPadPro129.device, config: config)
            #expect(try client.intent("before-0", .push(column: .primary, vc: "after")).revision == sample.revision + 1)
            client.close()

            try daemon.stopAndRestart()
            let restarted = try daemon.client()
            #expect(Set(try restarted.listScenes().map(\.scene)) == Set(acknowledged.keys))
            #expect(try restarted.getScene("before-0").revision == sample.revision + 1)
        }

        /// Corruptions a database may suffer; each must be refused at start, untouched.
        enum Damage: String, CaseIterable {
            /// Every b-tree page's type byte zeroed (a torn or scribbled write).
            case pageHeaders
            /// Not a SQLite file at all.
            case garbage
            /// The second half of the file lost.
            case truncated
        }

        @Test(arguments: Damage.allCases)
        func aCorruptDatabaseIsRefusedAtStartAndLeftAlone(damage: Damage) throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                for index in 0..<40 {
                    try client.createScene("scene-\(index)", device: IPadPro129.device, config: mailConfig)
                }
                client.close()
                #expect(daemon.terminate() == .exited(0))

                try corrupt(daemon.databasePath, damage)
                let bytes = fileBytes(daemon.databasePath)
                var before = stat()
                stat(daemon.databasePath, &before)

                let refused = try runSplitd(daemon.arguments)
                #expect(refused.exitCode == 1, "\(refused)")
                #expect(
                    refused.stderr.contains("refusing to start") && refused.stderr.contains(daemon.databasePath),
                    "\(refused.stderr)")
                var after = stat()
                stat(daemon.databasePath, &after)
                #expect(after.st_ino == before.st_ino, "the database file was replaced")
                #expect(fileBytes(daemon.databasePath) == bytes, "the database file was modified")
            }
        }

        // MARK: steps

        /// While the fault lasts: changes get `storage` and are not applied, reads are served.
        private func expectRefusedWrites(_ client: SplitConnection, scene: String, acknowledged: ChangeReply) throws {
            #expect(serverErrorCode { _ = try client.intent(scene, .push(column: .primary, vc: "lost")) } == "storage")
            #expect(serverErrorCode { _ = try client.resize(scene, to: IPadPro129.oneThird) } == "storage")
            #expect(serverErrorCode { _ = try client.createScene("new", device: IPadPro129.device) } == "storage")
            let during = try client.getScene(scene)
            #expect(during.revision == acknowledged.revision)
            #expect(during.layout == acknowledged.layout)
            #expect(try client.listScenes().map(\.scene) == [scene])
            #expect(serverErrorCode { _ = try client.getScene("new") } == "unknown_scene")
        }

        /// After the fault: the refused change succeeds at the next revision and survives a restart.
        private func expectRecovery(
            _ client: SplitConnection, daemon: DaemonProcess, scene: String,
            acknowledged: ChangeReply
        ) throws {
            let retried = try client.intent(scene, .push(column: .primary, vc: "lost"))
            #expect(retried.revision == acknowledged.revision + 1)
            #expect(retried.layout.column(.primary)?.stack == ["inbox", "thread", "lost"])
            try client.createScene("new", device: IPadPro129.device)
            client.close()
            try daemon.crashAndRestart()
            let restarted = try daemon.client()
            let restored = try restarted.getScene(scene)
            #expect(restored.revision == retried.revision && restored.layout == retried.layout)
            #expect(Set(try restarted.listScenes().map(\.scene)) == [scene, "new"])
        }
    }
}

private func setImmutable(_ files: [String], _ immutable: Bool) throws {
    for file in files where FileManager.default.fileExists(atPath: file) {
        try shell("chattr \(immutable ? "+i" : "-i") '\(file)'")
    }
}

/// Writes zeros into `path` until the file system refuses more (ENOSPC).
func fillFileSystem(with path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    for chunk in [65536, 4096, 512, 1] {
        let zeros = [UInt8](repeating: 0, count: chunk)
        while zeros.withUnsafeBytes({ write(fd, $0.baseAddress, chunk) }) == chunk {}
    }
}

private func corrupt(_ path: String, _ damage: EndToEnd.Fault.Damage) throws {
    guard var bytes = fileBytes(path), bytes.count >= 8192 else {
        throw HarnessError("database \(path) is too small to corrupt meaningfully")
    }
    switch damage {
    case .pageHeaders:
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        // B-tree page types: 2, 5, 10, 13. Page 1 keeps its file header so SQLite opens it.
        for page in stride(from: pageSize, to: bytes.count, by: pageSize) where [2, 5, 10, 13].contains(bytes[page]) {
            bytes[page] = 0
        }
    case .garbage:
        bytes = Array("this is not a database, but it is somebody's file\n".utf8)
    case .truncated:
        bytes = Array(bytes.prefix(bytes.count / 2))
    }
    // Rewrite in place (same inode) so the test can tell whether splitd replaces the file.
    let fd = open(path, O_WRONLY | O_TRUNC)
    guard fd >= 0 else { throw HarnessError("cannot open \(path)") }
    defer { close(fd) }
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
        throw HarnessError("cannot rewrite \(path)")
    }
}
