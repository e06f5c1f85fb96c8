import Foundation

/// Where the built `splitd` and `splitctl` live: `$SPLITD_BIN_DIR` (the test script sets it),
/// else what `swift build --show-bin-path` answers for this package, else `.build/debug`.
enum Binaries {
    static let directory: String = locateDirectory()

    static var splitd: String { directory + "/splitd" }
    static var splitctl: String { directory + "/splitctl" }

    /// The package root, from this file's path (Tests/EndToEndTests/Binaries.swift).
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private static func locateDirectory() -> String {
        if let fromEnvironment = ProcessInfo.processInfo.environment["SPLITD_BIN_DIR"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        if let swift = findSwift(),
            let output = try? runCommand(
                swift, ["build", "--package-path", packageRoot, "--show-bin-path"],
                timeout: .seconds(120)),
            output.exitCode == 0, let path = output.lines.last, !path.isEmpty
        {
            return path
        }
        return packageRoot + "/.build/debug"
    }

    private static func findSwift() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
