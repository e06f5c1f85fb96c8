import ArgumentParser
import SplitClient
import SplitCore
import SplitWire

struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Create, inspect, list and delete scenes.",
        subcommands: [Create.self, Get.self, List.self, Delete.self]
    )

    /// `splitctl scene` alone: the help, as a usage error (exit 64).
    func run() throws { try refuseMissingSubcommand(Self.self) }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a scene at revision 1.")
        @OptionGroup var global: GlobalOptions

        @Argument(help: "Scene id: 1-128 chars of [A-Za-z0-9._:-].")
        var scene: String

        @Option(help: "Device profile id (e.g. ipad-pro-12.9) or rule-set name (e.g. material).")
        var device: String

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Window size in points; default: the device's full screen in landscape (required for rule sets).",
                valueName: "WIDTHxHEIGHT"))
        var size: WindowSize?

        @Option(
            help: ArgumentHelp("Split configuration: a JSON object or @file.", valueName: "json"),
            transform: JSONArgument.init(parsing:))
        var config: JSONArgument?

        @Option(
            name: .customLong("trait-overrides"),
            help: ArgumentHelp(
                "A rule set layered on the device: overrides only the size classes its rules set (revision 2).",
                valueName: "rule-set"))
        var traitOverrides: String?

        func validate() throws {
            if let size { try WindowSize.requirePositive([size]) }
        }

        func run() throws {
            let reply = try withConnection(global) { connection throws(ClientError) in
                guard let traitOverrides else {
                    return try connection.createScene(scene, device: device, size: size?.size, config: config?.value)
                }
                // scene.create's `traitOverrides` (WIRE revision 2), beside `device`.
                var params: JSONObject = [
                    "scene": .string(scene), "device": .string(device), "traitOverrides": .string(traitOverrides),
                ]
                if let size { params["size"] = size.size.wireObject }
                if let config { params["config"] = config.value }
                return try SceneReply(decoding: try connection.call("scene.create", params))
            }
            emit(reply.raw, json: global.json) { describe(reply) }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a scene's revision, layout and state.")
        @OptionGroup var global: GlobalOptions

        @Argument(help: "Scene id.")
        var scene: String

        func run() throws {
            let reply = try withConnection(global) { connection throws(ClientError) in try connection.getScene(scene) }
            emit(reply.raw, json: global.json) { describe(reply) + "\n" + describeStateSummary(reply.raw["state"]) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every scene with its revision and device.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let (raw, scenes) = try withConnection(global) { connection throws(ClientError) in
                let raw = try connection.call("scene.list")
                var scenes: [SceneSummary] = []
                for entry in raw["scenes"]?.array ?? [] { scenes.append(try SceneSummary(decoding: entry)) }
                return (raw, scenes)
            }
            emit(raw, json: global.json) {
                if scenes.isEmpty { return "no scenes" }
                return scenes.map { "\($0.scene)\trevision \($0.revision)\t\($0.device)" }.joined(separator: "\n")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a scene.")
        @OptionGroup var global: GlobalOptions

        @Argument(help: "Scene id.")
        var scene: String

        func run() throws {
            let raw = try withConnection(global) { connection throws(ClientError) in
                try connection.call("scene.delete", ["scene": .string(scene)])
            }
            emit(raw, json: global.json) { "deleted \(scene)" }
        }
    }
}

/// The few state fields a person asks for first; `--json` has the whole state.
func describeStateSummary(_ state: JSONValue?) -> String {
    let config = state?["config"]
    let fields: [(String, JSONValue?)] = [
        ("device", state?["device"]), ("style", config?["style"]), ("sizePolicy", config?["sizePolicy"]),
        ("preferredDisplayMode", config?["preferredDisplayMode"]), ("collapsePolicy", config?["collapsePolicy"]),
        ("detailRouting", config?["detailRouting"]),
    ]
    let known = fields.compactMap { name, value in value.map { "\(name)=\($0.string ?? JSONWriter.string($0))" } }
    return known.isEmpty ? "(state: see --json)" : known.joined(separator: " ") + " (full state: --json)"
}
