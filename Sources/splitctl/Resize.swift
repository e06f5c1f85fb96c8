import ArgumentParser
import SplitClient
import SplitCore
import SplitWire

struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resize a scene to WIDTHxHEIGHT or to one of its device's presets.",
        discussion: """
            Presets are ORIENTATION/NAME of the scene's device profile, e.g. landscape/1/2, \
            portrait/2/3, landscape/slideOver, portrait/full; a bare NAME keeps the current \
            orientation. `splitctl devices` lists profiles.
            """
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    @Argument(help: "New window size.")
    var size: WindowSize?

    @Option(help: "A preset of the scene's device instead of a size.")
    var preset: String?

    func validate() throws {
        guard (size == nil) != (preset == nil) else { throw ValidationError("give either WIDTHxHEIGHT or --preset NAME") }
    }

    func run() throws {
        let target = try size?.size ?? resolvePreset(preset ?? "")
        let reply = try withConnection(global) { connection throws(ClientError) in
            try connection.resize(change.scene, to: target, baseRevision: change.baseRevision)
        }
        emit(reply.raw, json: global.json) { describe(reply) }
    }

    /// Looks the preset up in the built-in catalog for the scene's device and current size.
    private func resolvePreset(_ name: String) throws -> Size {
        let (device, current) = try withConnection(global) { connection throws(ClientError) in
            let current = try connection.getScene(change.scene).layout.size
            let device = try connection.listScenes().first { $0.scene == change.scene }?.device
            return (device ?? "", current)
        }
        // A bare name is taken in the orientation the device is held in (the catalog decides).
        guard let sizes = DeviceCatalog.builtIn.presetSizes(name, device: device, current: current),
              sizes.count == 1 else {
            let known = DeviceCatalog.builtIn.presets(device: device).map { "\($0.orientation.rawValue)/\($0.name)" }
            let listing = known.isEmpty ? "\(device) has no presets" : "known: " + known.joined(separator: ", ")
            printError("unknown preset '\(name)' for \(device) (\(listing))")
            throw ExitCode.validationFailure
        }
        return sizes[0]
    }
}
