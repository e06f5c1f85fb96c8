import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SplitClient
import Testing

extension EndToEnd {
    /// Peers are checked with SO_PEERCRED against an allow-list (default:
    /// the daemon's own uid and root); anyone else gets `unauthorized` and is closed.
    @Suite struct Authorization {
        /// Running a client as another user needs root (setpriv) and a socket that user can reach.
        static var canSwitchUser: Bool {
            getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        }

        @Test(.enabled(if: canSwitchUser, "needs root and setpriv to run a client as nobody"))
        func aPeerOfAnotherUidIsUnauthorized() throws {
            try withDaemon { daemon in
                // Let `nobody` reach the socket, so the refusal comes from the credential check,
                // not from file permissions.
                #expect(chmod(daemon.directory, 0o755) == 0)
                #expect(chmod(daemon.socketPath, 0o666) == 0)
                let output = try runCommand(
                    "/usr/bin/setpriv",
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups",
                        Binaries.splitctl, "--socket", daemon.socketPath, "ping",
                    ])
                // 69, as for a socket it may not open (CLI.md's exit codes): it cannot use splitd.
                #expect(output.exitCode == 69, "\(output)")
                #expect(output.stderr.hasPrefix("splitctl: unauthorized"), "\(output.stderr)")
                // The allowed user (root, the daemon's own) is still served.
                try daemon.client().ping()
            }
        }

        @Test(.enabled(if: canSwitchUser, "needs root and setpriv to run a client as nobody"))
        func aPeerOnTheAllowListIsServed() throws {
            // The same set-up as above with nobody allowed: the refusal above is the credential check.
            try withDaemon(environment: ["SPLITD_ACCESS_ALLOW_UIDS": "0,65534"]) { daemon in
                #expect(chmod(daemon.directory, 0o755) == 0)
                #expect(chmod(daemon.socketPath, 0o666) == 0)
                let output = try runCommand(
                    "/usr/bin/setpriv",
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups",
                        Binaries.splitctl, "--socket", daemon.socketPath, "ping",
                    ])
                #expect(output.exitCode == 0, "\(output)")
            }
        }
    }
}
