import Foundation
import SplitClient
// Every test file starts, waits for and stops child processes through SplitLaunch, the one
// daemon-process helper of splitctl, splitbench and the tests.
@_exported import SplitLaunch

/// The real `splitd` binary on a temporary socket (`s.sock`) and database (`d.db`), for
/// end-to-end tests; the directory is removed with it.
extension DaemonProcess {
    /// Starts `splitd --socket DIR/s.sock --database DIR/d.db --durability D` and waits until
    /// the socket accepts connections.
    convenience init(
        durability: String = "full", extraArguments: [String] = [], environment: [String: String] = [:],
        directory: String? = nil
    ) throws {
        let directory = try directory ?? EndToEndTests.makeTemporaryDirectory(prefix: "splitd-e2e")
        var launch = Launch(binary: Binaries.splitd, directory: directory)
        launch.removesDirectory = true
        launch.durability = durability
        launch.extraArguments = extraArguments
        launch.environment = environment
        try self.init(launch)
    }

    /// A new connection (not yet greeted).
    func connect(timeout: Duration = .seconds(10)) throws -> SplitConnection {
        try SplitConnection.connect(to: socketPath, timeout: timeout)
    }

    /// A new connection that has completed `hello`.
    func client(_ name: String = "e2e", timeout: Duration = .seconds(10)) throws -> SplitConnection {
        let connection = try connect(timeout: timeout)
        try connection.hello(client: name)
        return connection
    }
}
