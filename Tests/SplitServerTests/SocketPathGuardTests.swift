import Foundation
import Glibc
import Testing
@testable import SplitServer

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
        close(fd) // now nobody listens: the file is stale
        try SocketPathGuard.prepare(path: path, group: nil)
        #expect(access(path, F_OK) != 0)
    }
}
