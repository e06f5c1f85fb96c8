import ArgumentParser
import SplitClient
import SplitCore
import SplitWire

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Attach to a scene and print its layout, then every pushed revision.",
        discussion: """
            The first line (or block) is the current state as scene.attach answers it; each \
            later one is a push. With --json every line is one JSON object: the attach result, \
            then the pushes verbatim ({"event":"layout",...}).
            Ends with 0 after --count pushes or when the scene is deleted; 69 when splitd closes \
            the connection before that (stopped, restarted, or dropped this client).
            """
    )
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Scene id.")
    var scene: String

    @Option(help: "window (its size counts for the scene's size policy) or viewer.")
    var role: AttachRoleArgument = .init(role: .viewer)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Window size in points announced when attaching as a window (--role window only).",
            valueName: "WIDTHxHEIGHT"))
    var size: WindowSize?

    // .unconditional: `--count -1` is a value to refuse, not a missing value.
    @Option(
        parsing: .unconditional,
        help:
            "Exit after this many pushes (default: until the scene is deleted; splitd closing the connection first exits 69)."
    )
    var count: Int?

    func validate() throws {
        if let count, count < 0 {
            throw ValidationError("--count must be a number of pushes (0 or more), not \(count)")
        }
        // A viewer has no size: splitd would ignore it, and so silently did splitctl.
        if size != nil, role.role != .window { throw ValidationError("--size only applies with --role window") }
        if let size { try WindowSize.requirePositive([size]) }
    }

    func run() throws {
        let closedEarly = try withConnection(global) { connection throws(ClientError) -> Bool in
            let attached = try connection.attach(scene, role: role.role, size: size?.size, notices: .deleted)
            emit(attached.raw, json: global.json) { describe(attached) }
            var received = 0
            while count.map({ received < $0 }) ?? true {
                let push: JSONValue
                do throws(ClientError) {
                    push = try connection.nextPush(timeout: .seconds(365 * 24 * 3600))
                } catch .closed {
                    // splitd stopped (or dropped us) before --count pushes or a deletion.
                    printError("splitd closed the connection")
                    return true
                }
                received += 1
                if global.json {
                    emit(JSONWriter.string(push))
                } else if push["event"]?.string == "layout" {
                    emit(describe(try LayoutPush(decoding: push)))
                } else if push["event"]?.string == "deleted" {
                    emit(
                        "scene \(scene) was deleted"
                            + (push["revision"].map { " at revision \(JSONWriter.string($0))" } ?? ""))
                } else {
                    emit(visible("event \(push["event"]?.string ?? "?"): \(JSONWriter.string(push))"))
                }
                // A deleted scene sends nothing more: the watch is over, as asked.
                if push["event"]?.string == "deleted" { return false }
            }
            return false
        }
        if closedEarly { throw ExitStatus.unavailable }
    }
}

struct AttachRoleArgument: ExpressibleByArgument {
    var role: AttachRole

    init(role: AttachRole) { self.role = role }

    init?(argument: String) {
        guard let role = AttachRole(rawValue: argument) else { return nil }
        self.role = role
    }

    var defaultValueDescription: String { role.rawValue }
    static var allValueStrings: [String] { AttachRole.allCases.map(\.rawValue) }
}
