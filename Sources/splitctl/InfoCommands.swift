import ArgumentParser
import SplitClient

struct Hello: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Handshake: print splitd's protocol version and name.")
    @OptionGroup var global: GlobalOptions

    @Option(help: "Protocol version to announce.")
    var protocolVersion = SplitConnection.protocolVersion

    func run() throws {
        let result = try withConnection(global) { connection throws(ClientError) in
            try connection.hello(client: "splitctl", protocolVersion: protocolVersion)
        }
        emit(result, json: global.json) { describeFields(result) }
    }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that splitd answers.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let started = ContinuousClock.now
        let result = try withConnection(global) { connection throws(ClientError) in try connection.ping() }
        let elapsed = started.duration(to: .now)
        emit(result, json: global.json) { "pong from \(global.socketPath) in \(milliseconds(elapsed)) ms" }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print splitd's counters.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let result = try withConnection(global) { connection throws(ClientError) in try connection.stats() }
        emit(result, json: global.json) { describeFields(result) }
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List device profiles and rule sets.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let result = try withConnection(global) { connection throws(ClientError) in try connection.devices() }
        emit(result, json: global.json) { describeFields(result["devices"] ?? result) }
    }
}
