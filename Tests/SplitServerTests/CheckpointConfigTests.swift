import Foundation
import Glibc
import Testing
@testable import SplitServer

@Suite("database.checkpointEvery")
struct CheckpointConfigTests {
    private let baseEnvironment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    @Test func defaultsTo64AndIsReadFromTheEnvironment() async throws {
        #expect(try await ConfigLoader.load(ConfigSources(environment: baseEnvironment)).checkpointEvery == 16)
        var environment = baseEnvironment
        environment["SPLITD_DATABASE_CHECKPOINT_EVERY"] = "8"
        #expect(try await ConfigLoader.load(ConfigSources(environment: environment)).checkpointEvery == 8)
    }

    @Test(arguments: ["0", "-1", "1000001", "often"])
    func outOfRangeIsRefused(value: String) async throws {
        var environment = baseEnvironment
        environment["SPLITD_DATABASE_CHECKPOINT_EVERY"] = value
        do {
            _ = try await ConfigLoader.load(ConfigSources(environment: environment))
            Issue.record("checkpointEvery \(value) was accepted")
        } catch let error as ConfigError {
            #expect(error.problems.joined(separator: "\n").contains("database.checkpointEvery"))
        }
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

    @Test(arguments: [("SPLITD_DATABASE_FLUSH_DELAY_MICROSECONDS", "100001"), ("SPLITD_DATABASE_FLUSH_DELAY_MICROSECONDS", "-1"),
                      ("SPLITD_DATABASE_FLUSH_DELAY_COUNT", "0"), ("SPLITD_DATABASE_FLUSH_DELAY_COUNT", "soon")])
    func outOfRangeIsRefused(variable: String, value: String) async throws {
        var environment = baseEnvironment
        environment[variable] = value
        do {
            _ = try await ConfigLoader.load(ConfigSources(environment: environment))
            Issue.record("\(variable)=\(value) was accepted")
        } catch let error as ConfigError {
            #expect(error.problems.joined(separator: "\n").contains("database.flushDelay"))
        }
    }
}

@Suite("database.walCheckpointPages")
struct WALCheckpointPagesConfigTests {
    private let baseEnvironment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    @Test func defaultsTo16000AndIsReadFromTheEnvironment() async throws {
        #expect(try await ConfigLoader.load(ConfigSources(environment: baseEnvironment)).walCheckpointPages == 16_000)
        var environment = baseEnvironment
        environment["SPLITD_DATABASE_WAL_CHECKPOINT_PAGES"] = "4000"
        #expect(try await ConfigLoader.load(ConfigSources(environment: environment)).walCheckpointPages == 4000)
    }

    @Test(arguments: ["99", "0", "1000001", "big"])
    func outOfRangeIsRefused(value: String) async throws {
        var environment = baseEnvironment
        environment["SPLITD_DATABASE_WAL_CHECKPOINT_PAGES"] = value
        do {
            _ = try await ConfigLoader.load(ConfigSources(environment: environment))
            Issue.record("walCheckpointPages \(value) was accepted")
        } catch let error as ConfigError {
            #expect(error.problems.joined(separator: "\n").contains("database.walCheckpointPages"))
        }
    }
}
