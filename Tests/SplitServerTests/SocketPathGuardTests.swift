import Foundation
import Glibc
import SplitLoop
@testable import SplitServer
import Testing

@Suite("SocketPathGuard (socket path security rules)")
struct SocketPathGuardTests {
    private func temporaryDirectory() -> String {
        let path = "/tmp/spg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(path, 0o700)
        return path
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func createsAMissingDirectoryPrivately() throws {
        let root = temporaryDirectory()
        try SocketPathGuard.prepare(path: root + "/a/b/s.sock", group: nil)
        #expect(mode(root + "/a/b") == 0o700)
    }

    @Test func refusesASymlinkAndLeavesIt() throws {
        let root = temporaryDirectory()
        symlink(root + "/target", root + "/s.sock")
        #expect(throws: SystemError.self) { try SocketPathGuard.prepare(path: root + "/s.sock", group: nil) }
        var info = stat()
        #expect(lstat(root + "/s.sock", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }

    @Test func refusesARegularFileAndNeverUnlinksIt() throws {
        let root = temporaryDirectory()
        _ = FileManager.default.createFile(atPath: root + "/s.sock", contents: Data("keep".utf8))
        #expect(throws: SystemError.self) { try SocketPathGuard.prepare(path: root + "/s.sock", group: nil) }
        #expect(FileManager.default.contents(atPath: root + "/s.sock") == Data("keep".utf8))
    }

    @Test func removesAStaleSocketButNotALiveOne() throws {
        let root = temporaryDirectory()
        let path = root + "/s.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try #require(UnixSocketAddress(path: path))
        #expect(address.withSockaddr { bind(fd, $0, $1) } == 0)
        #expect(listen(fd, 1) == 0)
        #expect(throws: SystemError.self) { try SocketPathGuard.prepare(path: path, group: nil) }
        close(fd)  // now nobody listens: the file is stale
        try SocketPathGuard.prepare(path: path, group: nil)
        #expect(access(path, F_OK) != 0)
    }

    /// A Unix stream socket bound to `path` that does not listen (a daemon between bind and
    /// listen looks like this).
    private func bindWithoutListening(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = try #require(UnixSocketAddress(path: path))
        try #require(address.withSockaddr { bind(fd, $0, $1) } == 0)
        return fd
    }

    /// The daemon that holds `PATH.lock` may be between bind and listen, its socket
    /// looking stale: a second daemon is refused ("in use") and leaves that socket alone;
    /// once the lock is free, a socket nobody listens on is stale again.
    @Test func aHeldLockRefusesAndLeavesASocketThatDoesNotListenYet() throws {
        let root = temporaryDirectory()
        let path = root + "/s.sock"
        let bound = try bindWithoutListening(path)
        defer { close(bound) }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        do {
            _ = try SocketPathGuard.prepare(path: path, group: nil)
            Issue.record("prepare succeeded while another process held the lock")
        } catch {
            #expect(error.message.contains("is in use: another daemon is listening on it"), "\(error)")
        }
        #expect(access(path, F_OK) == 0, "the socket of the daemon holding the lock was removed")
        close(lock)
        _ = try SocketPathGuard.prepare(path: path, group: nil)
        #expect(access(path, F_OK) != 0)
    }

    /// The lock `prepare` answers is held until released: meanwhile a second `prepare` is
    /// refused. The lock file is private and stays after the release.
    @Test func theLockIsHeldUntilReleasedAndItsFileStays() throws {
        let root = temporaryDirectory()
        let path = root + "/s.sock"
        let held = try SocketPathGuard.prepare(path: path, group: nil)
        #expect(throws: SystemError.self) { _ = try SocketPathGuard.prepare(path: path, group: nil) }
        #expect(mode(path + ".lock") == 0o600)
        held.release()
        let again = try SocketPathGuard.prepare(path: path, group: nil)
        again.release()
        #expect(access(path + ".lock", F_OK) == 0)
    }

    /// A symlink (or anything but a regular file) at `PATH.lock` is refused, not followed.
    @Test func aSymlinkedLockFileIsRefused() throws {
        let root = temporaryDirectory()
        let path = root + "/s.sock"
        symlink(root + "/elsewhere", path + ".lock")
        #expect(throws: SystemError.self) { _ = try SocketPathGuard.prepare(path: path, group: nil) }
        #expect(access(root + "/elsewhere", F_OK) != 0, "the lock followed the symlink")
        unlink(path + ".lock")
        mkdir(path + ".lock", 0o700)
        #expect(throws: SystemError.self) { _ = try SocketPathGuard.prepare(path: path, group: nil) }
    }
}
