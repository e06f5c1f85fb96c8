import Foundation
import Testing
import CSQLite
@testable import SplitStore

/// An immutable file or a file system remounted read-only must not show as "disk I/O
/// error (ioError)" with the system's reason nowhere. The store classifies EROFS/EPERM/EACCES
/// as `.readOnly` and says what the system said.
@Suite("System errors")
struct SystemErrorTests {
    @Test(
        "a WAL made immutable under an open store fails the commit as .readOnly with the system's reason; undone, commits work",
        .enabled(if: getuid() == 0 && Unwritable.isSupported, "needs root and chattr +i"))
    func immutableWAL() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.database)
        var first = StoreBatch()
        first.upsertScene(id: "a", device: "ipad", revision: 1, state: [1])
        try store.commit(first)

        let wal = directory.database + "-wal"
        try Unwritable.set([wal], true)
        defer { try? Unwritable.set([wal], false) }
        var second = StoreBatch()
        second.upsertScene(id: "b", device: "ipad", revision: 1, state: [2])
        let error = storeError { try store.commit(second) }
        #expect(error?.kind == .readOnly, "\(String(describing: error))")
        #expect(error?.code == SQLITE_IOERR, "\(String(describing: error))")
        #expect(error?.rolledBack == true)
        #expect(error?.message.contains(String(cString: strerror(EPERM))) == true, "\(String(describing: error))")
        #expect(error?.message.contains("errno \(EPERM)") == true, "\(String(describing: error))")

        try Unwritable.set([wal], false)
        try store.commit(second)
        #expect(Set(try store.loadScenes().map(\.id)) == ["a", "b"])
        try store.close()
    }

    @Test("a file SQLite cannot open says why (the system's reason)")
    func cantOpenSaysWhy() throws {
        let directory = TemporaryDirectory()
        // A path under a regular file: open fails with ENOTDIR, whoever runs the test.
        let file = directory.file("plain")
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let error = storeError { try Database(path: file + "/x.db", mode: .readWrite).execute("SELECT 1") }
        #expect(error?.kind == .cantOpen, "\(String(describing: error))")
        #expect(error?.message.contains(String(cString: strerror(ENOTDIR))) == true, "\(String(describing: error))")
    }
}
