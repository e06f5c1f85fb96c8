import Foundation
import Glibc
import SplitLoop
@testable import SplitServer
@testable import SplitSettings
import Testing

@Suite("systemd glue, session hash, default paths")
struct SystemGlueTests {
    @Test func fnv1aMatchesThePublishedTestVectors() {
        // Vectors from the FNV reference (isthe.com/chongo/tech/comp/fnv).
        #expect(SessionHash.hex([UInt8]()) == "cbf29ce484222325")
        #expect(SessionHash.hex(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(SessionHash.hex(Array("foobar".utf8)) == "85944171f73967e8")
    }

    @Test func socketActivationIgnoresSocketsMeantForAnotherProcess() {
        let env = ["LISTEN_PID": "999999", "LISTEN_FDS": "2"]
        #expect(SocketActivation.passedSockets(environment: env, pid: 42).isEmpty)
    }

    @Test func socketActivationNamesDescriptorsFromThree() {
        let env = ["LISTEN_PID": "42", "LISTEN_FDS": "3", "LISTEN_FDNAMES": "other:splitd:splitd"]
        let passed = SocketActivation.passedSockets(environment: env, pid: 42)
        #expect(passed.map(\.fd) == [3, 4, 5])
        #expect(SocketActivation.select(passed, named: "splitd").map(\.fd) == [4, 5])
        // No socket of that name: all of them (a unit without FileDescriptorName=).
        #expect(SocketActivation.select(passed, named: "absent").count == 3)
    }

    @Test func watchdogIntervalHonorsWatchdogPid() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "3000000"], pid: 7) == 3_000_000)
        #expect(
            SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "8"], pid: 7)
                == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], pid: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:], pid: 7) == nil)
    }

    @Test func notifierDeliversToAnAbstractSocket() throws {
        let name = "splitd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(receiver) }
        var address = try #require(UnixSocketAddress(path: "@" + name))
        #expect(address.withSockaddr { bind(receiver, $0, $1) } == 0)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name])
        #expect(notifier.notify("READY=1\nSTATUS=testing"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(receiver, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "READY=1\nSTATUS=testing")
    }

    @Test func notifierIsSilentWithoutNotifySocket() {
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"))
    }

    @Test func defaultPathsFollowTheDocumentedOrder() {
        #expect(
            DefaultPaths.socket(environment: ["XDG_RUNTIME_DIR": "/run/user/5"]) == "/run/user/5/splitd/splitd.sock")
        #expect(DefaultPaths.socket(environment: [:]) == "/run/splitd/splitd.sock")
        #expect(
            DefaultPaths.database(environment: ["STATE_DIRECTORY": "/var/lib/splitd:/x", "XDG_STATE_HOME": "/s"])
                == "/var/lib/splitd/splitd.db")
        #expect(DefaultPaths.database(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/splitd/splitd.db")
        #expect(DefaultPaths.database(environment: ["HOME": "/h"]) == "/h/.local/state/splitd/splitd.db")
    }

    @Test func allowListAdmitsListedUidsOrGids() {
        let list = PeerAllowList(uids: [1000], gids: [50])
        #expect(list.admits(PeerCredentials(pid: 1, uid: 1000, gid: 1)))
        #expect(list.admits(PeerCredentials(pid: 1, uid: 7, gid: 50)))
        #expect(!list.admits(PeerCredentials(pid: 1, uid: 7, gid: 7)))
        #expect(PeerAllowList.ownerAndRoot().admits(PeerCredentials(pid: 1, uid: 0, gid: 0)))
        #expect(PeerAllowList.ownerAndRoot().admits(PeerCredentials(pid: 1, uid: getuid(), gid: 12345)))
    }
}
