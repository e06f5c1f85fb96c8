import Foundation
import Testing
@testable import SplitStore

/// One writer per database file, whatever name reaches it: the path given, a symbolic link to
/// the file or to a directory above it, or a hard link (two daemons on one file through a
/// hard link would each write into its own WAL, and one side's acknowledged changes would
/// be lost at the next start).
@Suite("Writer lock by file")
struct WriterLockTests {
    @Test("a store opened through a symbolic link to the database is refused while the first is open")
    func symbolicLinkToTheFile() throws {
        let directory = TemporaryDirectory()
        let first = try openStore(directory.database)
        let link = directory.file("link.db")
        #expect(symlink(directory.database, link) == 0)
        let error = storeError { try openStore(link) }
        #expect(error?.kind == .busy)
        #expect(error?.message.contains("another splitd") == true, "\(String(describing: error))")
        // Both names: the one given and the file it reaches.
        #expect(
            error?.message.contains(link) == true && error?.message.contains(directory.database) == true,
            "\(String(describing: error))")
        // The lock is the file's: nothing was created next to the link.
        #expect(access(link + ".lock", F_OK) != 0)
        #expect(access(link + "-wal", F_OK) != 0)
        try first.close()
        let second = try openStore(link)
        try second.close()
    }

    @Test("a store opened through a symbolic link to the database's directory is refused")
    func symbolicLinkToTheDirectory() throws {
        let directory = TemporaryDirectory()
        let first = try openStore(directory.database)
        let linkedDirectory = directory.file("elsewhere")
        #expect(symlink(directory.path, linkedDirectory) == 0)
        let error = storeError { try openStore(linkedDirectory + "/splitd.db") }
        #expect(error?.kind == .busy, "\(String(describing: error))")
        try first.close()
    }

    @Test("a store opened through a hard link to the database is refused while the first is open")
    func hardLink() throws {
        let directory = TemporaryDirectory()
        let first = try openStore(directory.database)
        var batch = StoreBatch()
        batch.upsertScene(id: "one", device: "ipad", revision: 1, state: [1])
        try first.commit(batch)
        let hard = directory.file("hard.db")
        #expect(link(directory.database, hard) == 0)
        let error = storeError { try openStore(hard) }
        #expect(error?.kind == .busy)
        #expect(error?.message.contains("another splitd") == true, "\(String(describing: error))")
        #expect(error?.message.contains("hard link") == true, "\(String(describing: error))")
        #expect(error?.message.contains(hard) == true, "\(String(describing: error))")
        // The refused store wrote nothing: no WAL of its own next to the hard link.
        #expect(access(hard + "-wal", F_OK) != 0)
        try first.close()
        let second = try openStore(hard)
        #expect(try second.loadScenes().map(\.id) == ["one"])
        try second.close()
    }

    @Test("a database not created yet, reached through a dangling link, is locked under the file it becomes")
    func danglingLink() throws {
        let directory = TemporaryDirectory()
        let link = directory.file("link.db")
        #expect(symlink(directory.database, link) == 0)
        let first = try openStore(link)
        #expect(access(directory.database, F_OK) == 0)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .busy, "\(String(describing: error))")
        try first.close()
    }

    @Test("the lock follows the file, not the name: a second store on the same path is still refused, readers are not")
    func samePath() throws {
        let directory = TemporaryDirectory()
        let first = try openStore(directory.database)
        let error = storeError { try openStore(directory.database) }
        #expect(error?.kind == .busy)
        #expect(error?.message.contains(directory.database) == true)
        let reader = try openStore(directory.database) { $0.access = .readOnly }
        #expect(try reader.loadScenes().isEmpty)
        try reader.close()
        // The first store still writes: taking and refusing the locks did not drop SQLite's.
        var batch = StoreBatch()
        batch.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        try first.commit(batch)
        try first.close()
    }

    @Test("a symbolic link or a FIFO at <database>.lock is refused, not followed, and nothing is created")
    func aLockFileThatIsNotARegularFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let lockPath = directory.database + ".lock"
        #expect(symlink(directory.file("elsewhere"), lockPath) == 0)
        var error = storeError { try openStore(directory.database) }
        #expect(
            error?.kind == .cantOpen && error?.message.contains("symbolic link") == true, "\(String(describing: error))"
        )
        #expect(access(directory.file("elsewhere"), F_OK) != 0, "the lock followed the symlink")
        #expect(access(directory.database, F_OK) != 0)
        #expect(unlink(lockPath) == 0 && mkfifo(lockPath, 0o600) == 0)
        error = storeError { try openStore(directory.database) }
        #expect(
            error?.kind == .cantOpen && error?.message.contains("not a regular file") == true,
            "\(String(describing: error))")
        #expect(access(directory.database, F_OK) != 0)
    }

    @Test("resolvedPath resolves links in the directory and the file, and names a missing file in its real directory")
    func resolvedPath() throws {
        let directory = TemporaryDirectory()
        let real = DatabaseDirectory.resolvedPath(directory.path)
        #expect(DatabaseDirectory.resolvedPath(directory.database) == real + "/splitd.db")
        #expect(symlink(directory.path, directory.file("up")) == 0)
        #expect(DatabaseDirectory.resolvedPath(directory.file("up/missing.db")) == real + "/missing.db")
        #expect(symlink("splitd.db", directory.file("relative.db")) == 0)
        #expect(DatabaseDirectory.resolvedPath(directory.file("up/relative.db")) == real + "/splitd.db")
        FileManager.default.createFile(atPath: directory.database, contents: nil)
        #expect(DatabaseDirectory.resolvedPath(directory.file("up/relative.db")) == real + "/splitd.db")
    }
}
