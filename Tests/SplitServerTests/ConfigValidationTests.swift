import Foundation
import Glibc
import SplitLoop
@testable import SplitServer
@testable import SplitSettings
import Testing

/// Values that used to be dropped or bent silently are refused, naming the key.
@Suite("Configuration values refused")
struct ConfigValidationTests {
    private let environment = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/7"]

    private func problems(
        flags: [String: String] = [:], file: String? = nil,
        environment extra: [String: String] = [:]
    ) async -> [String] {
        var path: String?
        if let file {
            path = "/tmp/splitd-validation-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
            _ = FileManager.default.createFile(atPath: path!, contents: Data(file.utf8))
        }
        defer { if let path { unlink(path) } }
        do {
            _ = try await ConfigLoader.load(
                ConfigSources(
                    flags: flags, configFile: path,
                    environment: environment.merging(extra) { $1 }))
            return []
        } catch let error as ConfigError {
            return error.problems
        } catch {
            return ["\(error)"]
        }
    }

    @Test(arguments: [
        ["access.allowUids": "-3"], ["access.allowUids": "99999999999"], ["access.allowUids": "0,abc"],
        ["access.allowGids": "-1"],
    ])
    func idsThatAreNoIdsAreRefused(_ flags: [String: String]) async {
        let found = await problems(flags: flags)
        #expect(found.contains { $0.contains(flags.keys.first!) }, "\(found)")
    }

    @Test func idsFromTheFileAndTheEnvironmentAreCheckedToo() async {
        #expect(
            await problems(file: #"{"access":{"allowUids":[-5]}}"#).contains { $0.contains("'access.allowUids': -5") })
        #expect(
            await problems(environment: ["SPLITD_ACCESS_ALLOW_UIDS": "-1"]).contains {
                $0.contains("(access.allowUids): -1")
            })
        #expect(await problems(flags: ["access.allowUids": "0,1000"]).isEmpty)
    }

    @Test func anAllowListThatAdmitsNobodyIsRefused() async {
        let found = await problems(file: #"{"access":{"allowUids":[],"allowGids":[]}}"#)
        #expect(found.contains { $0.contains("no client could connect") }, "\(found)")
        #expect(await problems(file: #"{"access":{"allowUids":[],"allowGids":[100]}}"#).isEmpty)
    }

    @Test(arguments: [
        (#"{"limits":{"maxClients":true}}"#, "'limits.maxClients' must be an integer"),
        (#"{"limits":{"maxClients":"5"}}"#, "'limits.maxClients' must be an integer"),
        (#"{"limits":{"maxClients":2.5}}"#, "'limits.maxClients' must be an integer"),
        (#"{"socket":{"path":5}}"#, "'socket.path' must be a string"),
        (#"{"log":{"level":null}}"#, "'log.level' must be a string"),
        (#"{"access":{"allowGids":["x"]}}"#, "'access.allowGids' must be an array of integers"),
    ])
    func valuesOfTheWrongTypeAreRefused(_ file: String, _ message: String) async {
        let found = await problems(file: file)
        #expect(found.contains { $0.contains(message) }, "\(found)")
    }

    @Test func aWholeNumberWrittenAsADecimalIsAnInteger() async {
        #expect(await problems(file: #"{"limits":{"maxClients":8.0}}"#).isEmpty)
    }

    @Test func aSocketPathTooLongForSockaddrUnIsRefused() async {
        let long = "/tmp/" + String(repeating: "x", count: 103) + ".sock"  // 113 bytes
        let found = await problems(flags: ["socket.path": long])
        #expect(found.contains { $0.contains("at most 107") }, "\(found)")
        let fits = "/tmp/" + String(repeating: "x", count: 97) + ".sock"  // 107 bytes
        #expect(await problems(flags: ["socket.path": fits]).isEmpty)
    }

    @Test func aMissingConfigFileSaysWhy() async {
        do {
            _ = try await ConfigLoader.load(
                ConfigSources(configFile: "/nonexistent/splitd.json", environment: environment))
            Issue.record("a missing file was accepted")
        } catch let error as ConfigError {
            #expect(error.description.contains("no such file"))
        } catch {
            Issue.record("\(error)")
        }
    }

    /// Sharing the socket with a group admits the group (by the peers' primary gid).
    @Test func theSocketGroupIsAdmitted() async throws {
        let settings = try await ConfigLoader.load(
            ConfigSources(flags: ["socket.group": "4321"], environment: environment))
        #expect(settings.socketGroup == 4321)
        #expect(settings.admits(PeerCredentials(pid: 1, uid: 99_999, gid: 4321)))
        #expect(!settings.admits(PeerCredentials(pid: 1, uid: 99_999, gid: 4322)))
        // Then an allow-list of nobody else is not "nobody".
        let groupOnly = try await ConfigLoader.load(
            ConfigSources(
                flags: ["socket.group": "4321", "access.allowUids": ""],
                environment: environment))
        #expect(groupOnly.admits(PeerCredentials(pid: 1, uid: 99_999, gid: 4321)))
    }

    /// The XDG base directory spec: a relative path in an XDG variable is invalid and ignored.
    @Test func relativeXDGDirectoriesAreIgnored() {
        #expect(DefaultPaths.socket(environment: ["XDG_RUNTIME_DIR": "run/user"]) == "/run/splitd/splitd.sock")
        #expect(
            DefaultPaths.database(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/u"])
                == "/home/u/.local/state/splitd/splitd.db")
        #expect(
            DefaultPaths.socket(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == "/run/user/7/splitd/splitd.sock")
    }

    /// `--check-config` prints every key.
    @Test func theSettingsReportNamesEveryKey() async throws {
        let settings = try await ConfigLoader.load(ConfigSources(environment: environment))
        let report = SettingsReport.describe(settings, configFile: nil)
        for spec in ConfigKeys.all {
            #expect(report.contains("\n" + spec.key + " "), "--check-config leaves out \(spec.key)")
        }
    }
}
