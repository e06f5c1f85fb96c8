import ArgumentParser
import Foundation
import SplitClient
import SplitCore
import SplitRender
import SplitWire

/// `splitctl render SCENE`: the scene's current layout, or the one of a past revision, as an
/// SVG picture.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a scene's layout, current or at a past --revision, as SVG (stdout, or --out FILE).",
        discussion: """
            The picture is SplitRender's: the window, each visible column at its frame with its \
            stack (top highlighted), overlays, dimmed and displaced columns, presentations, the \
            display-mode button, and a caption with the traits and display mode. --revision N \
            draws the scene as it was at revision N (splitd's scene.at rebuilds it from the \
            stored history: the last database.historyRevisions revisions, 1000 by default); a \
            revision not reached yet or no longer kept is refused (exit 65) with the oldest one \
            still kept.
            """)
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Scene id.")
    var scene: String

    @Option(help: ArgumentHelp("Draw the scene as it was at this revision (default: the current one).", valueName: "N"))
    var revision: Int?

    @Option(help: ArgumentHelp("Write the SVG to this file instead of stdout.", valueName: "FILE.svg"))
    var out: String?

    @Option(help: ArgumentHelp("The picture's width in pixels.", valueName: "PX"))
    var pixelWidth: Double = 960

    func run() throws {
        let reply = try withConnection(global) { connection throws(ClientError) in
            if let revision {
                try connection.sceneAt(scene, revision: revision)
            } else {
                try connection.getScene(scene)
            }
        }
        var options = sceneRenderOptions(reply.raw["state"])
        options.title = "scene \(scene) · revision \(reply.revision)"
        options.pixelWidth = pixelWidth
        try writeText(LayoutRenderer.svg(reply.layout, options: options), to: out)
    }
}

/// `splitctl sweep`: the breakpoints of a device and config, drawn or listed.
struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Walk widths in 1-pt steps and list the intervals where the layout's kind stays the same.",
        discussion: """
            For a SCENE, splitd's sweep op resizes the scene's own state (its device, config, \
            size classes and user choices) to each point; with --device, a new scene of that \
            device and --config is swept locally with SplitCore's built-in catalog (no daemon). Each interval keeps size classes, collapsed, display mode, \
            split behavior and visible columns; adjacent ones differ. --svg draws them as bands \
            on a width axis with the device's presets (of the sweep's orientation) marked.
            """)
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Scene id (its device, config and height); omit with --device.")
    var scene: String?

    @Option(help: "Device profile id or rule-set name, instead of a scene.")
    var device: String?

    @Option(
        help: ArgumentHelp("Split configuration with --device: a JSON object or @file.", valueName: "json"),
        transform: JSONArgument.init(parsing:))
    var config: JSONArgument?

    @Option(help: "First width in points (default 1).")
    var from: Double = 1

    @Option(help: "Last width in points (default: the device's landscape screen width, or 2000 for rule sets).")
    var to: Double?

    @Option(help: "The window height (default: the scene's, else the device's landscape screen height, else 1000).")
    var height: Double?

    @Option(help: ArgumentHelp("Also draw the chart into this SVG file.", valueName: "FILE.svg"))
    var svg: String?

    func validate() throws {
        guard (scene == nil) != (device == nil) else { throw ValidationError("give a SCENE or --device D (not both)") }
        guard scene == nil || config == nil else {
            throw ValidationError("--config goes with --device (a scene has its own)")
        }
    }

    func run() throws {
        let engine = SplitEngine()
        var deviceName = device ?? ""
        var patch: SplitConfigPatch?
        var fixed = height
        if let scene {
            let reply = try withConnection(global) { connection throws(ClientError) in try connection.getScene(scene) }
            deviceName = reply.raw["state"]?["device"]?.string ?? ""
            patch = try reply.raw["state"]?["config"].map(decodePatch)
            fixed = fixed ?? reply.layout.size.height
        } else if let config {
            patch = try decodePatch(config.value)
        }
        let screen = engine.catalog.defaultSize(device: deviceName)
        let last = to ?? screen?.width ?? 2000
        let intervals: [SweepInterval]
        if let scene {
            // The scene's own state, resized point by point by splitd (the `sweep` op).
            intervals = try withConnection(global) { connection throws(ClientError) in
                try connection.sweep(scene: scene, from: from, to: last, fixed: fixed)
            }
        } else {
            do {
                intervals = try engine.sweep(
                    device: deviceName, config: patch, from: from, to: last,
                    fixed: fixed ?? screen?.height ?? 1000)
            } catch {
                printError(error.message)
                throw ExitStatus.serverError
            }
        }
        if let svg {
            let orientation = (fixed ?? screen?.height ?? 1000) >= last ? Orientation.portrait : .landscape
            let marks = engine.catalog.presets(device: deviceName).filter { $0.orientation == orientation }
                .map { SweepRenderer.Mark(name: $0.name, at: $0.size.width) }
            let title =
                "\(scene.map { "scene \($0) · " } ?? "")\(deviceName) · height \(svgNumber(fixed ?? screen?.height ?? 1000))"
            try writeText(SweepRenderer.svg(intervals, title: title, marks: marks), to: svg)
        }
        let encoded = try JSONEncoder().encode(["intervals": intervals])
        let result = try JSONParser.parse(String(decoding: encoded, as: UTF8.self))
        emit(result, json: global.json) {
            intervals.map { interval in
                let s = interval.summary
                let kind =
                    s.collapsed ? "collapsed" : "\(s.displayMode?.rawValue ?? "-") \(s.splitBehavior?.rawValue ?? "-")"
                return
                    "\(points(interval.from))-\(points(interval.to))\t\(s.horizontalSizeClass.rawValue)/\(s.verticalSizeClass.rawValue)\t\(kind)\t\(s.visibleColumns.map(\.rawValue).joined(separator: ","))"
            }.joined(separator: "\n")
        }
    }
}

/// A config object (a scene's full config, or --config) as the patch a new scene takes.
func decodePatch(_ value: JSONValue) throws -> SplitConfigPatch {
    do {
        return try JSONDecoder().decode(SplitConfigPatch.self, from: Data(JSONWriter.string(value).utf8))
    } catch {
        printError("invalid config: \(error)")
        throw ExitCode.validationFailure
    }
}

/// What a picture takes from a scene's `state` besides its layout: the text direction and
/// the tab titles.
func sceneRenderOptions(_ state: JSONValue?) -> RenderOptions {
    var options = RenderOptions()
    if state?["config"]?["layoutDirection"]?.string == "rtl" { options.layoutDirection = .rtl }
    options.tabTitles = (state?["config"]?["tabs"]?.array ?? []).map { tab in
        tab["title"]?.string ?? tab["root"]?.string ?? "?"
    }
    return options
}

/// `text` to `path`, or to stdout when nil; a file that cannot be written is exit 73.
func writeText(_ text: String, to path: String?) throws {
    guard let path else {
        emit(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        return
    }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        printError("cannot write \(path): \(error.localizedDescription)")
        throw ExitCode(73)
    }
}

/// `snapshot --svg DIR`: one picture per size (`01-1024x1366.svg`, ...) in the session's
/// order, as the app switcher shows them, and the whole session as one strip (`session.svg`).
func writeSessionPictures(_ result: JSONValue, to directory: String) throws {
    do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
        printError("cannot create \(directory): \(error.localizedDescription)")
        throw ExitCode(73)
    }
    let session = try decodeSnapshotResult(result)
    for (index, snapshot) in session.snapshots.enumerated() {
        let number = index + 1 < 10 ? "0\(index + 1)" : "\(index + 1)"
        let name = "\(number)-\(sizeLabel(snapshot.size)).svg"
        let options = RenderOptions(
            title: "snapshot \(index + 1) of \(session.snapshots.count) · base revision \(session.baseRevision)")
        try writeText(LayoutRenderer.svg(snapshot.layout, options: options), to: directory + "/" + name)
    }
    try writeText(SessionRenderer.svg(session), to: directory + "/session.svg")
}

/// A `snapshot` / `snapshot.get` result as SplitCore's `SnapshotResult`.
func decodeSnapshotResult(_ result: JSONValue) throws(ClientError) -> SnapshotResult {
    var snapshots: [SizedLayout] = []
    for entry in result["snapshots"]?.array ?? [] {
        guard let layoutValue = entry["layout"] else { throw .protocolViolation("snapshot without a layout") }
        let layout = try decodeLayout(layoutValue)
        snapshots.append(SizedLayout(size: layout.size, layout: layout))
    }
    let differences = (result["roundTrip"]?["differences"]?.array ?? []).map { $0.string ?? JSONWriter.string($0) }
    return SnapshotResult(
        baseRevision: Int(result["baseRevision"]?.int64 ?? 0), snapshots: snapshots,
        roundTrip: RoundTripReport(lossless: result["roundTrip"]?["lossless"]?.bool ?? false, differences: differences))
}
