import ArgumentParser
import SplitClient
import SplitWire

struct Hello: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Handshake: print splitd's protocol version and name.")
    @OptionGroup var global: GlobalOptions

    // .unconditional: `--protocol-version -1` is a value to refuse, not a missing value.
    @Option(parsing: .unconditional, help: "Protocol version to announce.")
    var protocolVersion = SplitConnection.protocolVersion

    func validate() throws {
        if protocolVersion < 1 { throw ValidationError("--protocol-version must be 1 or more, not \(protocolVersion)") }
    }

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
        emit(result, json: global.json) {
            "pong from \((try? global.socketPath()) ?? "splitd") in \(milliseconds(elapsed)) ms"
        }
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

/// One line per device: id, kind, default size, then its presets. Each column is as wide as
/// its longest entry plus two spaces, so ids of any length stay apart from the next column.
func describeDevices(_ devices: [JSONValue]) -> String {
    let rows: [[String]] = devices.map { device in
        let presets = (device["presets"]?.array ?? []).compactMap { preset -> String? in
            guard let presetName = preset["name"]?.string, let orientation = preset["orientation"]?.string else {
                return nil
            }
            return "\(orientation)/\(presetName)=\(preset["size"].flatMap(sizeText) ?? "?")"
        }
        return [
            device["device"]?.string ?? "?", device["kind"]?.string ?? "?",
            device["defaultSize"].flatMap(sizeText) ?? "-", presets.joined(separator: " "),
        ]
    }
    return alignedColumns(rows)
}

/// Rows of cells as text: every column but the last padded to its widest cell plus two
/// spaces; trailing spaces dropped.
func alignedColumns(_ rows: [[String]]) -> String {
    let columnCount = rows.map(\.count).max() ?? 0
    let widths = (0..<columnCount).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    return rows.map { row in
        var line = ""
        for (column, cell) in row.enumerated() {
            line +=
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
        }
        while line.last == " " { line.removeLast() }
        return line
    }.joined(separator: "\n")
}
