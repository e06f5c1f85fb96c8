import ArgumentParser
import SplitClient
import SplitWire

/// What every change subcommand takes: the scene and an optional optimistic-concurrency revision.
struct ChangeOptions: ParsableArguments {
    @Argument(help: "Scene id.")
    var scene: String

    @Option(help: "Refuse the change (conflict) unless the scene is at this revision.")
    var baseRevision: Int?
}

/// Sends one intent object and prints the reply.
func runIntent(_ global: GlobalOptions, _ change: ChangeOptions, _ intent: JSONValue) throws {
    let reply = try withConnection(global) { connection throws(ClientError) in
        try connection.intent(change.scene, intent, baseRevision: change.baseRevision)
    }
    emit(reply.raw, json: global.json) { describe(reply) }
}
