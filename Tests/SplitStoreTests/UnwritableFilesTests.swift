import Foundation
import Testing
@testable import SplitStore

/// Makes files unwritable for this process: `chattr +i` as root (root writes through the
/// permission bits), mode 0400 otherwise.
enum Unwritable {
    /// False as root on a file system without `chattr +i` (tmpfs, overlayfs).
    static let isSupported: Bool = {
        guard getuid() == 0 else { return true }
        let directory = TemporaryDirectory()
        let file = directory.file("probe")
        guard FileManager.default.createFile(atPath: file, contents: nil),
            (try? chattr("+i", file)) == true
        else { return false }
        defer { _ = try? chattr("-i", file) }
        return access(file, W_OK) != 0
    }()

    static func set(_ files: [String], _ unwritable: Bool) throws {
        for file in files where access(file, F_OK) == 0 {
            if getuid() == 0 {
                guard try chattr(unwritable ? "+i" : "-i", file) else { throw Failure("chattr failed on \(file)") }
            } else {
                guard chmod(file, unwritable ? 0o400 : 0o600) == 0 else { throw Failure("chmod failed on \(file)") }
            }
        }
    }

    private static func chattr(_ flag: String, _ file: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, file]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// The names in a directory.
func listing(_ directory: String) -> Set<String> {
    Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
}

/// A read-only verification connection would create `-wal` and `-shm` next to a database
/// the start then refuses as not writable, with the database file's mode (0400); once the
/// operator fixed the database file, the next start would say ready and refuse every
/// write. A refused start creates nothing, and a `-wal` or `-shm` the process cannot
/// write is refused at start, named.
@Suite("Unwritable files at open")
struct UnwritableFilesTests {
    /// A closed database with one scene (SQLite removed its -wal and -shm at the close).
    private func populated(_ path: String) throws {
        let store = try openStore(path)
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        try store.commit(batch)
        try store.close()
    }

    private func commitWorks(_ path: String) throws {
        let store = try openStore(path)
        var batch = StoreBatch()
        batch.upsertScene(id: "b", device: "ipad", revision: 1, state: [2])
        try store.commit(batch)
        #expect(Set(try store.loadScenes().map(\.id)) == ["a", "b"])
        try store.close()
    }

    @Test(
        "a start refused because the database file is not writable creates nothing next to it; fixed, it writes",
        .enabled(if: Unwritable.isSupported, "needs chattr +i as root"))
    func refusedStartCreatesNothing() throws {
        let directory = TemporaryDirectory()
        try populated(directory.database)
        let before = listing(directory.path)
        try Unwritable.set([directory.database], true)
        defer { try? Unwritable.set([directory.database], false) }
        let bytes = contents(of: directory.database)

        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .readOnly, "\(String(describing: error))")
        #expect(error?.message.contains("not writable") == true, "\(String(describing: error))")
        #expect(listing(directory.path) == before)
        #expect(contents(of: directory.database) == bytes)

        try Unwritable.set([directory.database], false)
        try commitWorks(directory.database)
    }

    @Test(
        "a -wal or -shm the process cannot write is refused at open, named; fixed, the store writes",
        .enabled(if: Unwritable.isSupported, "needs chattr +i as root"),
        arguments: ["-wal", "-shm"])
    func unwritableCompanionRefused(suffix: String) throws {
        let directory = TemporaryDirectory()
        try populated(directory.database)
        let companion = directory.database + suffix
        #expect(FileManager.default.createFile(atPath: companion, contents: nil))
        try Unwritable.set([companion], true)
        defer { try? Unwritable.set([companion], false) }

        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .readOnly, "\(String(describing: error))")
        #expect(error?.message.contains(companion) == true, "\(String(describing: error))")
        #expect(error?.message.contains("not writable") == true, "\(String(describing: error))")

        try Unwritable.set([companion], false)
        try commitWorks(directory.database)
    }

    @Test("a database refused by the verification (a newer schema), with no WAL, gets no -wal or -shm")
    func refusedCorruptCreatesNothing() throws {
        let directory = TemporaryDirectory()
        try populated(directory.database)
        // A newer schema: refused by the verification, after SQLite read the file.
        let raw = try Database(path: directory.database, mode: .readWrite)
        try raw.execute("PRAGMA user_version = 99")
        try raw.close()
        for suffix in ["-wal", "-shm"] { unlink(directory.database + suffix) }
        let before = listing(directory.path)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .incompatibleSchema, "\(String(describing: error))")
        #expect(listing(directory.path) == before)
    }
}
