import ArgumentParser
import SplitClient
import SplitCore
import SplitWire

struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resize a scene to WIDTHxHEIGHT points or to one of its device's presets.",
        discussion: """
            SIZE is WIDTHxHEIGHT in points, e.g. 1366x1024 or 678.5x1024. Presets are \
            ORIENTATION/NAME of the scene's device profile as splitd lists them, e.g. \
            landscape/1/2, portrait/2/3, landscape/slideOver, portrait/full; a bare NAME is taken \
            in the orientation the device is held in: landscape when the window is as high as the \
            device's landscape screen, portrait when as high as its portrait screen, else the \
            orientation of the preset the window's size equals, else the window's own (wider \
            than high: landscape). `splitctl devices` lists profiles and \
            presets; a name the scene's device does not have exits 65, like splitd's own refusals.
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    @Argument(help: ArgumentHelp("New window size in points, WIDTHxHEIGHT (e.g. 375x1024).", valueName: "WIDTHxHEIGHT"))
    var size: WindowSize?

    @Option(
        help: ArgumentHelp("A preset of the scene's device instead of a size (e.g. landscape/1/3).", valueName: "name"))
    var preset: String?

    @Option(
        name: .customLong("interface-orientation"),
        help: ArgumentHelp(
            "State how the device is held (portrait or landscape) instead of the rule for the size.",
            valueName: "orientation"))
    var interfaceOrientation: Orientation?

    func validate() throws {
        // ArgumentParser takes `-5x10` for options, so the size is missing rather than refused.
        if size == nil,
            let negative = CommandLine.arguments.dropFirst().first(where: {
                $0.hasPrefix("-") && WindowSize(argument: $0) != nil
            })
        {
            throw WindowSize.invalidSize(negative)
        }
        // `5x-10`, `0x0`, `-- -5x10`: refused here, as splitd would (but with 65).
        if let size { try WindowSize.requirePositive([size]) }
        guard (size == nil) != (preset == nil) else {
            throw ValidationError("give either WIDTHxHEIGHT or --preset NAME")
        }
        if let preset { try Self.checkPresetName(preset) }
    }

    /// A preset name no device can have is a usage error, found before splitd is asked: an
    /// empty one (`--preset "$P"` with P unset) or an orientation with no name after it.
    static func checkPresetName(_ name: String) throws {
        guard !name.isEmpty else { throw ValidationError("--preset needs a preset name, not an empty string") }
        if let slash = name.firstIndex(of: "/"), Orientation(rawValue: String(name[..<slash])) != nil,
            name.index(after: slash) == name.endIndex
        {
            throw ValidationError("--preset '\(name)' has no preset name after the orientation (e.g. \(name)1/3)")
        }
    }

    func run() throws {
        if let size {
            try runChange(global, change) { connection throws(ClientError) in
                try connection.resize(
                    change.scene, to: size.size, interfaceOrientation: interfaceOrientation,
                    baseRevision: change.baseRevision)
            }
            return
        }
        let name = preset ?? ""
        // The preset is looked up in splitd's catalog for the scene's device; one connection.
        let outcome = try withConnection(global) { connection throws(ClientError) -> PresetOutcome in
            let scene = try connection.getScene(change.scene)
            let device = scene.raw["state"]?["device"]?.string ?? ""
            let catalog = PresetCatalog(devicesResult: try connection.devices())
            guard let target = catalog.resolve(name, device: device, current: scene.layout.size) else {
                return .unknown(device: device, known: catalog.presets(of: device).map(\.qualifiedName))
            }
            let reply = try connection.resize(
                change.scene, to: target.size, interfaceOrientation: interfaceOrientation,
                baseRevision: change.baseRevision)
            return .resized(reply, revisionBefore: change.baseRevision ?? scene.revision)
        }
        switch outcome {
        case let .unknown(device, known):
            let listing = known.isEmpty ? "\(device) has no presets" : "known: " + known.joined(separator: ", ")
            let message = "unknown preset '\(name)' for \(device) (\(listing))"
            // As `snapshot --preset` reports it, where splitd answers bad_request.
            if global.json { emitJSONError(code: "bad_request", message: message) }
            printError(message)
            throw ExitStatus.serverError
        case let .resized(reply, before):
            emit(reply.raw, json: global.json) { describe(reply, revisionBefore: before) }
        }
    }

    private enum PresetOutcome {
        case resized(ChangeReply, revisionBefore: Int)
        case unknown(device: String, known: [String])
    }
}
