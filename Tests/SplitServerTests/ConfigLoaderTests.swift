import Foundation
import Glibc
@testable import SplitServer
@testable import SplitSettings
import Testing

@Suite("Configuration layering")
struct ConfigLoaderTests {
    private func writeFile(_ text: String) -> String {
        let path = "/tmp/splitd-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    private let baseEnvironment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    @Test func zeroConfigurationUsesTheDocumentedPathsAndDefaults() async throws {
        let settings = try await ConfigLoader.load(ConfigSources(environment: baseEnvironment))
        #expect(settings.socketPath == "/run/user/7/splitd/splitd.sock")
        #expect(settings.databasePath == "/home/u/.local/state/splitd/splitd.db")
        #expect(settings.durability == .full)
        #expect(settings.maxLineLength == 65536)
        #expect(settings.allowList == .ownerAndRoot())
    }

    @Test func flagsBeatEnvironmentBeatFileBeatDefaults() async throws {
        let file = writeFile(
            #"{"database": {"durability": "normal", "path": "/f/d.db"}, "limits": {"maxClients": 7, "maxScenes": 9}, "log": {"level": "debug"}}"#
        )
        var environment = baseEnvironment
        environment["SPLITD_LIMITS_MAX_CLIENTS"] = "8"
        environment["SPLITD_DATABASE"] = "/e/d.db"
        let settings = try await ConfigLoader.load(
            ConfigSources(
                flags: ["database.path": "/flag/d.db"], configFile: file,
                environment: environment))
        #expect(settings.databasePath == "/flag/d.db")  // flag over env alias over file
        #expect(settings.maxClients == 8)  // env over file
        #expect(settings.maxScenes == 9)  // file over default
        #expect(settings.durability == .normal)  // file
        #expect(settings.logLevel == .debug)
        #expect(settings.maxLineLength == 65536)  // default
    }

    /// An empty variable is an unset one (as `XDG_RUNTIME_DIR` and splitctl treat theirs):
    /// `SPLITD_SOCKET= splitd` had asked for a socket at "" and `SPLITD_LOG_LEVEL=` refused
    /// to start. A value in the file or a flag underneath still applies.
    @Test func anEmptyVariableIsUnset() async throws {
        let defaults = try await ConfigLoader.load(ConfigSources(environment: baseEnvironment))
        var environment = baseEnvironment
        for spec in ConfigKeys.all { environment[spec.environmentName] = "" }
        for alias in ConfigKeys.environmentAliases.keys { environment[alias] = "" }
        #expect(try await ConfigLoader.load(ConfigSources(environment: environment)) == defaults)
        let file = writeFile(#"{"socket": {"path": "/f/s.sock"}, "limits": {"maxClients": 7}}"#)
        let layered = try await ConfigLoader.load(ConfigSources(configFile: file, environment: environment))
        #expect(layered.socketPath == "/f/s.sock")
        #expect(layered.maxClients == 7)
    }

    @Test func longEnvironmentNamesWinOverAliases() async throws {
        var environment = baseEnvironment
        environment["SPLITD_SOCKET"] = "/alias.sock"
        environment["SPLITD_SOCKET_PATH"] = "/long.sock"
        #expect(try await ConfigLoader.load(ConfigSources(environment: environment)).socketPath == "/long.sock")
    }

    @Test func arraysComeFromCommaSeparatedEnvironment() async throws {
        var environment = baseEnvironment
        environment["SPLITD_ACCESS_ALLOW_UIDS"] = "1000,1001"
        let settings = try await ConfigLoader.load(ConfigSources(environment: environment))
        #expect(settings.allowList.uids == [1000, 1001])
    }

    @Test func typosWrongTypesAndBadChoicesAreAllReported() async throws {
        let file = writeFile(#"{"limits": {"maxClient": 3, "maxScenes": "many"}, "database": {"durability": "fast"}}"#)
        do {
            _ = try await ConfigLoader.load(ConfigSources(configFile: file, environment: baseEnvironment))
            Issue.record("an invalid file was accepted")
        } catch let error as ConfigError {
            let text = error.problems.joined(separator: "\n")
            #expect(text.contains("limits.maxClient"))
            #expect(text.contains("limits.maxScenes"))
            #expect(text.contains("database.durability"))
        }
    }

    /// The problems in the user's terms: the variable and value set, the file's line and
    /// column, each problem once, no library internals.
    @Test(
        arguments: [
            (
                ["SPLITD_LIMITS_MAX_CLIENTS": "abc"], nil,
                ["SPLITD_LIMITS_MAX_CLIENTS='abc' (limits.maxClients) must be an integer"]
            ),
            (
                ["SPLITD_ACCESS_ALLOW_UIDS": "1000,x"], nil,
                ["SPLITD_ACCESS_ALLOW_UIDS='1000,x' (access.allowUids) must be a comma-separated list of integers"]
            ),
            (
                ["SPLITD_ACCESS_ALLOW_UIDS": "-1"], nil,
                ["SPLITD_ACCESS_ALLOW_UIDS='-1' (access.allowUids): -1 is not a valid id (0...4294967295)"]
            ),
            ([:], #"{"limits": {"maxClients": "5"}}"#, ["'limits.maxClients' must be an integer"]),
            (
                [:], "{\n  \"limits\": {\n    \"maxClients\": 5\n    \"maxScenes\": 3\n  }\n}\n",
                ["is not valid JSON: line 4, column 5 (byte 40): unexpected '\"', expected ',' or '}'"]
            ),
            // A section splitd does not have is named as one, empty or not.
            (
                [:], #"{"bogus": 1}"#,
                [
                    "unknown section 'bogus' (sections: access, cluster, database, devices, limits, log, loop, output, shutdown, socket)"
                ]
            ),
            ([:], #"{"bogus": {}}"#, ["unknown section 'bogus'"]),
            (
                [:], #"{"devices": {"ruleSetsFile": "/nonexistent/rules.json"}}"#,
                ["devices.ruleSetsFile: cannot read /nonexistent/rules.json"]
            ),
        ] as [([String: String], String?, [String])])
    func problemsNameWhatTheUserWrote(
        environment extra: [String: String], file: String?, expected: [String]
    ) async throws {
        let environment = baseEnvironment.merging(extra) { $1 }
        do {
            _ = try await ConfigLoader.load(ConfigSources(configFile: file.map(writeFile), environment: environment))
            Issue.record("an invalid configuration was accepted")
        } catch let error as ConfigError {
            #expect(error.problems.count == expected.count, "\(error.problems)")
            for (problem, fragment) in zip(error.problems, expected) {
                #expect(problem.contains(fragment), "\(problem)")
            }
            #expect(!error.description.contains("Provider"), "\(error.description)")
        }
    }

    /// A value out of range (or not one of the choices, or not an id) names the layer it
    /// came from, as a type error does: the file, the variable (as set), the flag. It said
    /// `limits.maxClients must be in 1..., got -1`, whichever layer had set it.
    @Test(
        arguments: [
            // The file: its path and the key, as for a wrong type.
            ([:], [:], #"{"limits": {"maxClients": -1}}"#, ["FILE: 'limits.maxClients' must be in 1..., got -1"]),
            (
                [:], [:], #"{"loop": {"busyPollMicroseconds": 100001}}"#,
                ["FILE: 'loop.busyPollMicroseconds' must be in 0...100000, got 100001"]
            ),
            (
                [:], [:], #"{"database": {"durability": "fast"}}"#,
                ["FILE: 'database.durability' must be one of full, normal, got 'fast'"]
            ),
            (
                [:], [:], #"{"access": {"allowGids": [5, -5]}}"#,
                ["FILE: 'access.allowGids': -5 is not a valid id (0...4294967295)"]
            ),
            // The environment: the variable and its value, over a valid file.
            (
                [:], ["SPLITD_LIMITS_MAX_CLIENTS": "-1"], #"{"limits": {"maxClients": 5}}"#,
                ["SPLITD_LIMITS_MAX_CLIENTS='-1' (limits.maxClients) must be in 1..."]
            ),
            (
                [:], ["SPLITD_DURABILITY": "fast"], nil,
                ["SPLITD_DURABILITY='fast' (database.durability) must be one of full, normal"]
            ),
            (
                [:], ["SPLITD_DATABASE_DURABILITY": "fast", "SPLITD_DURABILITY": "full"], nil,
                ["SPLITD_DATABASE_DURABILITY='fast' (database.durability) must be one of full, normal"]
            ),
            (
                [:], ["SPLITD_ACCESS_ALLOW_UIDS": "1000,-1"], nil,
                ["SPLITD_ACCESS_ALLOW_UIDS='1000,-1' (access.allowUids): -1 is not a valid id (0...4294967295)"]
            ),
            // A flag: its name; a key without one of its own is said to come from the command line.
            (
                ["database.durability": "fast"], ["SPLITD_DURABILITY": "normal"], nil,
                ["--durability (database.durability) must be one of full, normal, got 'fast'"]
            ),
            (
                ["access.allowUids": "-3"], [:], nil,
                ["--allow-uid (access.allowUids): -3 is not a valid id (0...4294967295)"]
            ),
            (
                ["limits.maxClients": "0"], ["SPLITD_LIMITS_MAX_CLIENTS": "9"], nil,
                ["limits.maxClients (command line) must be in 1..., got 0"]
            ),
            // Two keys out of step: each value with where it came from.
            (
                [:], ["SPLITD_OUTPUT_TOTAL_LIMIT_BYTES": "8388608"], #"{"output": {"hardLimitBytes": 16777216}}"#,
                [
                    "output.totalLimitBytes (8388608, from SPLITD_OUTPUT_TOTAL_LIMIT_BYTES) must be at least output.hardLimitBytes (16777216, from FILE)"
                ]
            ),
            (
                [:], [:], #"{"output": {"softLimitBytes": 20000000}}"#,
                [
                    "output.hardLimitBytes (16777216, the default) must be larger than output.softLimitBytes (20000000, from FILE)"
                ]
            ),
        ] as [([String: String], [String: String], String?, [String])])
    func rangeErrorsNameTheirLayer(
        flags: [String: String], environment extra: [String: String], file: String?,
        expected: [String]
    ) async throws {
        let path = file.map(writeFile)
        defer { if let path { unlink(path) } }
        do {
            _ = try await ConfigLoader.load(
                ConfigSources(
                    flags: flags, configFile: path,
                    environment: baseEnvironment.merging(extra) { $1 }))
            Issue.record("an invalid configuration was accepted")
        } catch let error as ConfigError {
            #expect(error.problems == expected.map { $0.replacingOccurrences(of: "FILE", with: path ?? "") })
        }
    }

    /// A value out of range in a lower layer is no problem when a higher one sets the key.
    @Test func aBadValueUnderneathIsNoProblem() async throws {
        let file = writeFile(#"{"limits": {"maxClients": -1}}"#)
        defer { unlink(file) }
        let environment = baseEnvironment.merging(["SPLITD_LIMITS_MAX_CLIENTS": "5"]) { $1 }
        #expect(try await ConfigLoader.load(ConfigSources(configFile: file, environment: environment)).maxClients == 5)
    }

    /// One "invalid configuration: " in front, however deep the problem was found.
    @Test func aRuleSetsProblemIsNotPrefixedTwice() async throws {
        let file = writeFile(#"{"devices": {"ruleSetsFile": "/nonexistent/rules.json"}}"#)
        do {
            _ = try await ConfigLoader.load(ConfigSources(configFile: file, environment: baseEnvironment))
            Issue.record("a missing rule-sets file was accepted")
        } catch let error as ConfigError {
            #expect(error.description.hasPrefix("invalid configuration: devices.ruleSetsFile"), "\(error.description)")
            #expect(!error.description.dropFirst().contains("invalid configuration: "), "\(error.description)")
        }
    }

    /// A config path that is a folder is called one, not a permission problem.
    @Test func aFolderGivenAsTheConfigFileIsCalledOne() async throws {
        do {
            _ = try await ConfigLoader.load(ConfigSources(configFile: "/tmp", environment: baseEnvironment))
            Issue.record("a folder was accepted as the config file")
        } catch let error as ConfigError {
            #expect(error.problems == ["cannot read config file /tmp: it is a directory"])
        }
        do {
            _ = try await ConfigLoader.load(
                ConfigSources(configFile: "/nonexistent/splitd.json", environment: baseEnvironment))
            Issue.record("a missing config file was accepted")
        } catch let error as ConfigError {
            #expect(error.problems == ["cannot read config file /nonexistent/splitd.json: no such file"])
        }
    }

    @Test func busyPollingDefaultsTo200AndRefusesOutOfRangeWindows() async throws {
        #expect(try await ConfigLoader.load(ConfigSources(environment: baseEnvironment)).busyPollMicroseconds == 200)
        var environment = baseEnvironment
        environment["SPLITD_LOOP_BUSY_POLL_MICROSECONDS"] = "0"
        #expect(try await ConfigLoader.load(ConfigSources(environment: environment)).busyPollMicroseconds == 0)
        environment["SPLITD_LOOP_BUSY_POLL_MICROSECONDS"] = "100001"
        do {
            _ = try await ConfigLoader.load(ConfigSources(environment: environment))
            Issue.record("a window over 100000 µs was accepted")
        } catch let error as ConfigError {
            #expect(
                error.problems.contains {
                    $0
                        == "SPLITD_LOOP_BUSY_POLL_MICROSECONDS='100001' (loop.busyPollMicroseconds) must be in 0...100000"
                })
        }
    }

    @Test func theTotalOutputLimitMayNotBeBelowTheHardLimit() async throws {
        await #expect(throws: ConfigError.self) {
            _ = try await ConfigLoader.load(
                ConfigSources(
                    flags: [:],
                    configFile: writeFile(#"{"output": {"hardLimitBytes": 16777216, "totalLimitBytes": 8388608}}"#),
                    environment: baseEnvironment))
        }
        let settings = try await ConfigLoader.load(
            ConfigSources(
                flags: [:],
                configFile: writeFile(#"{"output": {"hardLimitBytes": 16777216, "totalLimitBytes": 16777216}}"#),
                environment: baseEnvironment))
        #expect(settings.outputTotalLimit == 16_777_216)
    }

    @Test func hardLimitMustExceedSoftLimit() async throws {
        await #expect(throws: ConfigError.self) {
            _ = try await ConfigLoader.load(
                ConfigSources(
                    flags: [:], configFile: writeFile(#"{"output": {"softLimitBytes": 9000, "hardLimitBytes": 8000}}"#),
                    environment: baseEnvironment))
        }
    }

    @Test func memoryDatabaseIsSpelledColonMemory() async throws {
        let settings = try await ConfigLoader.load(
            ConfigSources(flags: ["database.path": ":memory:"], environment: baseEnvironment))
        #expect(settings.databasePath == nil)
    }

    @Test func theExampleFileIsTheDocumentedDefaultAndLoads() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Config/splitd.example.json").standardized.path
        let text = try String(contentsOfFile: example, encoding: .utf8)
        #expect(text == ConfigKeys.documentedDefaultJSON())
        let fromFile = try await ConfigLoader.load(ConfigSources(configFile: example, environment: baseEnvironment))
        let builtIn = try await ConfigLoader.load(ConfigSources(environment: baseEnvironment))
        #expect(fromFile == builtIn)
    }

    @Test func everyKeyHasAnEnvironmentNameInUpperSnakeCase() {
        #expect(ConfigKeys.spec("limits.maxClients")?.environmentName == "SPLITD_LIMITS_MAX_CLIENTS")
        #expect(ConfigKeys.spec("socket.path")?.environmentName == "SPLITD_SOCKET_PATH")
        #expect(Set(ConfigKeys.all.map(\.environmentName)).count == ConfigKeys.all.count)
    }
}
