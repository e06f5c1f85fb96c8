import SplitCore

/// One journal entry as splitd stores it: what the engine applied to reach the entry's
/// revision. Replaying `.change` entries in order through `SplitEngine.apply` from a
/// checkpointed state gives back every later acknowledged state.
public enum JournalRecord: Hashable, Sendable {
    /// The scene was created at this revision (its state is in the checkpoint stored with it).
    case created
    /// The change as applied: a resize after window aggregation (or made by the daemon
    /// itself), or an intent.
    case change(SceneChange)
    /// A change of revision 2's forms (never `.change`: those are recorded as `.change`,
    /// byte for byte as before).
    case command(SceneCommand)

    /// The record of an applied command: `.change` for protocol 1's, else `.command`.
    public init(_ command: SceneCommand) {
        if case .change(let change) = command {
            self = .change(change)
        } else {
            self = .command(command)
        }
    }

    /// The command a replay applies; nil for `.created`.
    public var command: SceneCommand? {
        switch self {
        case .created: nil
        case .change(let change): .change(change)
        case .command(let command): command
        }
    }
}

/// The versioned encoding of a `JournalRecord`: a JSON object whose `v` is the format
/// version, then exactly one of `created`, `resize` (`{width, height}`), `intent` (the
/// WIRE.md intent object) or `reconfigure` (`{intent: setConfig, size}`), or one of revision
/// 2's: `orientedResize` (`{width, height, interfaceOrientation}`), `command` (a WIRE.md
/// intent object of revision 2's forms, an `activation`'s with its `session`). Each has its
/// own key, so a daemon that predates them refuses the entry instead of replaying half of
/// it; the records protocol 1's changes wrote are unchanged, and read as before. Request
/// lines journaled by older daemons have no `v`, so they are never mistaken for a record.
public enum JournalRecordCoding {
    /// The format version written (and the only one read).
    public static let version = 1

    public static func encode(_ record: JournalRecord) -> [UInt8] {
        // Most records are under 64 bytes; a config patch grows the writer.
        var writer = JSONWriter(capacity: 128)
        write(record, into: &writer)
        return writer.bytes
    }

    /// `encode` left in `writer` (emptied first), whose storage the caller reuses from one
    /// record to the next and copies the record where it is kept (the daemon: its batch).
    public static func write(_ record: JournalRecord, into writer: inout JSONWriter) {
        writer.removeAll()
        writer.beginObject()
        writer.rawKey("v")
        writer.write(version)
        switch record {
        case .created:
            writer.rawKey("created")
            writer.write(true)
        case .change(.resize(let size)):
            writer.rawKey("resize")
            write(size, to: &writer)
        case .change(.intent(let intent)):
            writer.rawKey("intent")
            writer.write(intent)
        case .change(.reconfigure(let patch, let size)):
            // Its own key: a daemon that does not know it refuses the entry instead of
            // replaying half of it.
            writer.rawKey("reconfigure")
            writer.beginObject()
            writer.rawKey("intent")
            writer.write(Intent.setConfig(patch))
            writer.rawKey("size")
            write(size, to: &writer)
            writer.endObject()
        case .command(.change(let change)):
            // `init(_:)` never makes it; written as the `.change` it is.
            write(.change(change), into: &writer)
            return
        case .command(.resize(let size, let held)):
            writer.rawKey("orientedResize")
            writer.beginObject()
            writer.rawKey("width")
            writer.write(size.width)
            writer.rawKey("height")
            writer.write(size.height)
            if let held {
                writer.rawKey("interfaceOrientation")
                writer.write(held.rawValue)
            }
            writer.endObject()
        case .command(let command):
            writer.rawKey("command")
            writer.write(command)
            if case .activation(_, let session) = command, !session.isEmpty {
                writer.rawKey("session")
                writer.write(session)
            }
        }
        writer.endObject()
    }

    /// `{"width":W,"height":H}`.
    private static func write(_ size: Size, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.rawKey("width")
        writer.write(size.width)
        writer.rawKey("height")
        writer.write(size.height)
        writer.endObject()
    }

    private static func size(_ fields: FieldReader) throws(WireError) -> Size {
        Size(width: try fields.double("width"), height: try fields.double("height"))
    }

    /// Decodes an entry written by `encode`; anything else (another version, a request line
    /// of an older daemon, damaged bytes) throws, so a replay never guesses.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> JournalRecord {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw WireError.badRequest("journal entry is not JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw WireError.badRequest("journal entry must be a JSON object, got \(value.typeName)")
        }
        let fields = FieldReader(object)
        guard fields.optional("v") != nil else {
            throw WireError.badRequest("journal entry has no format version 'v' (a request line of an older splitd?)")
        }
        let found = try fields.int("v")
        guard found == version else {
            throw WireError.badRequest("journal entry format \(found) is not \(version)")
        }
        if fields.optional("created") != nil {
            guard try fields.bool("created") else { throw WireError.badRequest("journal entry 'created' must be true") }
            return .created
        }
        if fields.optional("resize") != nil {
            return .change(.resize(try size(fields.nested("resize"))))
        }
        if fields.optional("intent") != nil {
            return .change(.intent(try fields.nested("intent").intent()))
        }
        if fields.optional("reconfigure") != nil {
            let reconfigure = try fields.nested("reconfigure")
            guard case .setConfig(let patch) = try reconfigure.nested("intent").intent() else {
                throw WireError.badRequest("journal entry 'reconfigure' must hold a setConfig intent")
            }
            return .change(.reconfigure(patch, size: try size(reconfigure.nested("size"))))
        }
        if fields.optional("orientedResize") != nil {
            let resize = try fields.nested("orientedResize")
            return .command(
                .resize(
                    try size(resize),
                    interfaceOrientation: try resize.optionalCase("interfaceOrientation", Orientation.self)))
        }
        if fields.optional("command") != nil {
            var command = try fields.nested("command").command()
            if case .activation(let state, _) = command {
                command = .activation(state, backgroundSession: try fields.optionalString("session") ?? "")
            }
            guard case .change = command else { return .command(command) }
            throw WireError.badRequest("journal entry 'command' holds a protocol-1 intent")
        }
        throw WireError.badRequest(
            "journal entry has none of 'created', 'resize', 'intent', 'reconfigure', 'orientedResize', 'command'")
    }
}
