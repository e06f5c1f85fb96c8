import ArgumentParser
import SplitClient
import SplitWire

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
        emit(result, json: global.json) { describeDevices(result["devices"]?.array ?? []) }
    }
}

/// One line per device: id, kind, default size, then its presets.
func describeDevices(_ devices: [JSONValue]) -> String {
    devices.map { device in
        let name = (device["device"]?.string ?? "?").padding(toLength: 20, withPad: " ", startingAt: 0)
        let kind = (device["kind"]?.string ?? "?").padding(toLength: 9, withPad: " ", startingAt: 0)
        let size = device["defaultSize"].flatMap(sizeText) ?? "-"
        let presets = (device["presets"]?.array ?? []).compactMap { preset -> String? in
            guard let presetName = preset["name"]?.string, let orientation = preset["orientation"]?.string else { return nil }
            return "\(orientation)/\(presetName)=\(preset["size"].flatMap(sizeText) ?? "?")"
        }
        let presetText = presets.isEmpty ? "" : "  " + presets.joined(separator: " ")
        return "\(name)\(kind)\(size.padding(toLength: 11, withPad: " ", startingAt: 0))\(presetText)"
    }.joined(separator: "\n")
}
