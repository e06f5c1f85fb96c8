import ArgumentParser
import SplitClient
import SplitCore
import SplitWire

struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Run, list and fetch snapshot sessions (app-switcher renderings).",
        subcommands: [Take.self, List.self, Get.self],
        defaultSubcommand: Take.self
    )

    struct Take: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compute the layouts a scene would show at several sizes; the live scene is untouched.")
        @OptionGroup var global: GlobalOptions

        @Argument(help: "Scene id.")
        var scene: String

        @Option(
            name: .customLong("size"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A size to render in points (repeatable).", valueName: "WIDTHxHEIGHT"))
        var sizes: [WindowSize] = []

        @Option(help: "A preset instead of sizes, e.g. appSwitcher.")
        var preset: String?

        @Option(
            help: ArgumentHelp(
                "Also write one SVG picture per size, and the session as a strip, into DIR.", valueName: "DIR"))
        var svg: String?

        func validate() throws {
            guard sizes.isEmpty != (preset == nil) else {
                throw ValidationError("give --size WxH (one or more) or --preset NAME")
            }
            try WindowSize.requirePositive(sizes)
        }

        func run() throws {
            let result = try withConnection(global) { connection throws(ClientError) in
                if let preset { return try connection.snapshot(scene, preset: preset) }
                return try connection.snapshot(scene, sizes: sizes.map(\.size))
            }
            if let svg { try writeSessionPictures(result, to: svg) }
            emit(result, json: global.json) { describeSession(result) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a scene's recorded sessions.")
        @OptionGroup var global: GlobalOptions

        @Argument(help: "Scene id.")
        var scene: String

        func run() throws {
            let result = try withConnection(global) { connection throws(ClientError) in
                try connection.call("snapshot.list", ["scene": .string(scene)])
            }
            emit(result, json: global.json) {
                let sessions = result["sessions"]?.array ?? []
                if sessions.isEmpty { return "no sessions" }
                return sessions.map { session in
                    let sizes = (session["sizes"]?.array ?? []).map { sizeText($0) ?? "?" }.joined(separator: " ")
                    return
                        "\(scalar(session["session"]))\tbase \(scalar(session["baseRevision"]))\t\(scalar(session["hash"]))\t\(sizes)"
                }.joined(separator: "\n")
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a recorded session.")
        @OptionGroup var global: GlobalOptions

        @Argument(help: "Session id (as snapshot and snapshot list print it).")
        var session: String

        func run() throws {
            let id = JSONValue.string(session)
            let result = try withConnection(global) { connection throws(ClientError) in
                try connection.snapshotSession(id)
            }
            emit(result, json: global.json) { describeSession(result) }
        }
    }
}

/// A session as text: base revision, round-trip verdict, then each size and its layout.
func describeSession(_ result: JSONValue) -> String {
    var lines: [String] = []
    if let session = result["session"] { lines.append("session \(scalar(session))") }
    lines.append("base revision \(scalar(result["baseRevision"]))")
    if let lossless = result["roundTrip"]?["lossless"]?.bool {
        lines.append("round trip: " + (lossless ? "lossless" : "LOSSY"))
        for difference in result["roundTrip"]?["differences"]?.array ?? [] {
            lines.append("  difference: \(scalar(difference))")
        }
    }
    // Each layout's header line starts with its size.
    for snapshot in result["snapshots"]?.array ?? [] {
        let layout = snapshot["layout"].flatMap { try? decodeLayout($0) }
        lines.append(layout.map { describe($0) } ?? "\(snapshot["size"].flatMap(sizeText) ?? "?") (unreadable layout)")
    }
    return lines.joined(separator: "\n")
}

/// `{"width":1366,"height":1024}` as `1366x1024`; nil for anything else.
func sizeText(_ size: JSONValue) -> String? {
    guard let width = size["width"]?.double, let height = size["height"]?.double else { return nil }
    return "\(points(width))x\(points(height))"
}

private func scalar(_ value: JSONValue?) -> String {
    guard let value else { return "-" }
    return value.string.map(visible) ?? JSONWriter.string(value)
}
