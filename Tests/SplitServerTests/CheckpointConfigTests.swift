import Foundation
import Glibc
@testable import SplitServer
@testable import SplitSettings
import Testing

/// The settings loaded with `variable` set to `value` (nil: the built-in default).
private func loadedSettings(_ variable: String, _ value: String?) async throws -> ServerSettings {
    var environment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]
    environment[variable] = value
    return try await ConfigLoader.load(ConfigSources(environment: environment))
}

/// Expects `variable=value` to be refused with a problem naming `key`.
private func expectRefused(_ variable: String, _ value: String, naming key: String) async throws {
    do {
        _ = try await loadedSettings(variable, value)
        Issue.record("\(variable)=\(value) was accepted")
    } catch let error as ConfigError {
        #expect(error.problems.joined(separator: "\n").contains(key))
    }
}

/// One integer key: its default, a value from the environment, and values refused.
struct IntegerKeyCase: Sendable, CustomTestStringConvertible {
    var key: String
    var variable: String
    var defaultValue: Int
    var sample: String
    var refused: [String]
    var read: @Sendable (ServerSettings) -> Int
    var testDescription: String { key }
}

@Suite(
    "database.checkpointEvery, database.replayBudget, database.walCheckpointPages and devices.windowedRegularMinWidth")
struct IntegerDatabaseKeyTests {
    static let cases = [
        IntegerKeyCase(
            key: "database.checkpointEvery", variable: "SPLITD_DATABASE_CHECKPOINT_EVERY", defaultValue: 64,
            sample: "8", refused: ["0", "-1", "1000001", "often"]
        ) { $0.checkpointEvery },
        IntegerKeyCase(
            key: "database.replayBudget", variable: "SPLITD_DATABASE_REPLAY_BUDGET", defaultValue: 32_000,
            sample: "0", refused: ["-1", "1000000001", "lots"]
        ) { $0.replayBudget },
        IntegerKeyCase(
            key: "devices.windowedRegularMinWidth", variable: "SPLITD_DEVICES_WINDOWED_REGULAR_MIN_WIDTH",
            defaultValue: 640,
            sample: "700", refused: ["-1", "100001", "wide"]
        ) { $0.windowedRegularMinWidth },
        IntegerKeyCase(
            key: "database.walCheckpointPages", variable: "SPLITD_DATABASE_WAL_CHECKPOINT_PAGES", defaultValue: 16_000,
            sample: "4000", refused: ["99", "0", "1000001", "big"]
        ) { Int($0.walCheckpointPages) },
    ]

    @Test(arguments: cases)
    func defaultAndEnvironment(_ key: IntegerKeyCase) async throws {
        #expect(key.read(try await loadedSettings(key.variable, nil)) == key.defaultValue)
        #expect(key.read(try await loadedSettings(key.variable, key.sample)) == Int(key.sample))
    }

    @Test(arguments: cases)
    func outOfRangeIsRefused(_ key: IntegerKeyCase) async throws {
        for value in key.refused { try await expectRefused(key.variable, value, naming: key.key) }
    }
}

@Suite("database.flushDelay*")
struct FlushDelayConfigTests {
    private let baseEnvironment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    @Test func defaultsAndTheEnvironment() async throws {
        let defaults = try await ConfigLoader.load(ConfigSources(environment: baseEnvironment))
        #expect(defaults.flushDelayMicroseconds == 600 && defaults.flushDelayCount == 16)
        var environment = baseEnvironment
        environment["SPLITD_DATABASE_FLUSH_DELAY_MICROSECONDS"] = "0"
        environment["SPLITD_DATABASE_FLUSH_DELAY_COUNT"] = "64"
        let set = try await ConfigLoader.load(ConfigSources(environment: environment))
        #expect(set.flushDelayMicroseconds == 0 && set.flushDelayCount == 64)
    }

    @Test(arguments: [
        ("SPLITD_DATABASE_FLUSH_DELAY_MICROSECONDS", "100001"), ("SPLITD_DATABASE_FLUSH_DELAY_MICROSECONDS", "-1"),
        ("SPLITD_DATABASE_FLUSH_DELAY_COUNT", "0"), ("SPLITD_DATABASE_FLUSH_DELAY_COUNT", "soon"),
    ])
    func outOfRangeIsRefused(variable: String, value: String) async throws {
        try await expectRefused(variable, value, naming: "database.flushDelay")
    }
}
