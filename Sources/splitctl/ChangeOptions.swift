import ArgumentParser
import SplitClient
import SplitWire

/// What every change subcommand takes: the scene and an optional optimistic-concurrency revision.
struct ChangeOptions: ParsableArguments {
    @Argument(help: "Scene id.")
    var scene: String

    // .unconditional: `--base-revision -1` is a value to refuse, not a missing value.
    @Option(parsing: .unconditional, help: "Refuse the change (conflict) unless the scene is at this revision.")
    var baseRevision: Int?

    func validate() throws {
        if let baseRevision, baseRevision < 0 {
            throw ValidationError("--base-revision must be a revision (0 or more), not \(baseRevision)")
        }
    }
}

/// Sends one intent object and prints the reply.
func runIntent(_ global: GlobalOptions, _ change: ChangeOptions, _ intent: JSONValue) throws {
    try runChange(global, change) { connection throws(ClientError) in
        try connection.intent(change.scene, intent, baseRevision: change.baseRevision)
    }
}

/// Runs one change (`send`) and prints its reply. For human output splitctl needs the
/// revision before the change to say `no change` truthfully (an empty `events` list does not
/// mean nothing changed: a column width can change without events): `--base-revision` when
/// given (the change is refused otherwise), else one `scene.get` first. `--json` prints
/// splitd's result as is and asks nothing more.
func runChange(
    _ global: GlobalOptions, _ change: ChangeOptions,
    _ send: (SplitConnection) throws(ClientError) -> ChangeReply
) throws {
    let (before, reply) = try withConnection(global) { connection throws(ClientError) -> (Int?, ChangeReply) in
        var before = change.baseRevision
        if before == nil, !global.json { before = try connection.getScene(change.scene).revision }
        return (before, try send(connection))
    }
    emit(reply.raw, json: global.json) { describe(reply, revisionBefore: before) }
}
