import SplitCore

/// Why a request line was refused, with the `id` to echo when it could be read.
public struct RequestFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// nil: answer with `"id": null`.
    public var id: RequestID?
    public var error: WireError

    public init(id: RequestID?, error: WireError) {
        self.id = id
        self.error = error
    }

    public var description: String { "id \(id?.description ?? "null"): \(error)" }
}

/// Decodes request lines of protocol 1 (WIRE.md).
///
/// Outcome, in this order of checks: not JSON or not an object: `bad_json` (with the id of
/// an object cut short or malformed after it when it could be read, `RequestIDSalvage`,
/// else id null); no string `op`:
/// `bad_request`; an `id` that is absent or neither an integer nor a string: `bad_request`
/// (with id null); an unknown op: `unknown_op`; a missing or invalid parameter:
/// `bad_request` naming it (see `IntentDecoding.swift` for `invalid_intent`). A parameter
/// the op does not take is refused with `bad_request` naming it (WIRE.md revision 2), so a
/// client that sends a newer field to this daemon learns it instead of getting a silently
/// different result.
public struct RequestDecoder: Sendable {
    public var parser: JSONParser
    /// The ops it decodes: protocol 1's, or those of a daemon's op table.
    private let ops: OpDecoders

    public init(parser: JSONParser = JSONParser()) {
        self.parser = parser
        ops = .protocol1
    }

    /// Decodes the ops `ops` names, with their decoders; an op not among them is `unknown_op`,
    /// listing them in this order. The plain `resize` is read by `ResizeFastPath` whatever
    /// `ops` holds, so `ops` must have `resize` with `OpDecoder.resize`.
    public init(parser: JSONParser = JSONParser(), ops: [(name: String, decoder: OpDecoder)]) {
        self.parser = parser
        self.ops = OpDecoders(ops)
    }

    /// Decodes one line (without or with its trailing newline), reading it in place.
    public func decode(_ line: UnsafeRawBufferPointer) throws(RequestFailure) -> Request {
        if parser.maxDepth >= 1, let resize = ResizeFastPath.decode(line) { return resize }
        let value: JSONValue
        do {
            value = try parser.parse(line)
        } catch {
            throw RequestFailure(
                id: RequestIDSalvage.id(in: line, maxDepth: parser.maxDepth),
                error: WireError(.badJSON, "invalid JSON: \(error)"))
        }
        return try decode(value)
    }

    public func decode(_ line: [UInt8]) throws(RequestFailure) -> Request {
        try line.withUnsafeBytes { raw in Result { () throws(RequestFailure) in try decode(raw) } }.get()
    }

    public func decode(_ line: ArraySlice<UInt8>) throws(RequestFailure) -> Request {
        try line.withUnsafeBytes { raw in Result { () throws(RequestFailure) in try decode(raw) } }.get()
    }

    public func decode(_ line: String) throws(RequestFailure) -> Request {
        try decode(Array(line.utf8))
    }

    /// Decodes an already parsed request value.
    public func decode(_ value: JSONValue) throws(RequestFailure) -> Request {
        guard case .object(let object) = value else {
            throw RequestFailure(
                id: nil,
                error: WireError(.badJSON, "a request must be a JSON object, got \(value.typeName)"))
        }
        let id = object["id"].flatMap(RequestID.init(json:))
        func fail(_ error: WireError) -> RequestFailure { RequestFailure(id: id, error: error) }

        guard let opValue = object["op"], !opValue.isNull else { throw fail(.badRequest("missing field 'op'")) }
        guard let opName = opValue.string else {
            throw fail(.badRequest("field 'op' must be a string, got \(describe(opValue))"))
        }
        guard let id else {
            let message = object["id"].map { "field 'id' must be an integer or a string, got \(describeID($0))" }
            throw fail(.badRequest(message ?? "missing field 'id'"))
        }
        do {
            return Request(id: id, op: try ops.operation(named: opName, from: FieldReader(object)))
        } catch {
            throw fail(error)
        }
    }

    /// Decodes with the default parser.
    public static func decode(_ line: UnsafeRawBufferPointer) throws(RequestFailure) -> Request {
        try RequestDecoder().decode(line)
    }

    public static func decode(_ line: [UInt8]) throws(RequestFailure) -> Request {
        try RequestDecoder().decode(line)
    }

    public static func decode(_ line: String) throws(RequestFailure) -> Request {
        try RequestDecoder().decode(line)
    }
}

/// How one op's parameters are read from its request object (the parameter half of a
/// daemon's op table entry, tmux's `cmd_entry.args`): a missing or invalid parameter is
/// `bad_request` naming it. One decoder per op of protocol 1, in `Request.Operation.allNames`
/// order in `protocol1`.
public struct OpDecoder: Sendable {
    fileprivate let read: @Sendable (FieldReader) throws(WireError) -> Request.Operation
    /// The parameters the op takes besides `id` and `op`; nil: not checked.
    fileprivate let fields: Set<String>?

    /// `fields`: the parameters the op takes (besides `id` and `op`); a request carrying
    /// another is refused before `read` runs. nil leaves the check to `read`.
    init(
        fields: Set<String>?, _ read: @escaping @Sendable (FieldReader) throws(WireError) -> Request.Operation
    ) {
        self.read = read
        self.fields = fields
    }

    /// An op that checks its own parameters (no `fields` list).
    init(_ read: @escaping @Sendable (FieldReader) throws(WireError) -> Request.Operation) {
        self.init(fields: nil, read)
    }

    public static let hello = OpDecoder(fields: ["protocol", "client"]) { fields throws(WireError) in
        .hello(protocol: try fields.int("protocol"), client: try fields.optionalString("client"))
    }
    /// `traitOverrides` beside `device` (revision 2) is the config key of that name; both at
    /// once is refused. A scene starts `foregroundActive`: `activation` is refused by name.
    public static let sceneCreate = OpDecoder(fields: ["scene", "device", "size", "config", "traitOverrides"]) {
        fields throws(WireError) in
        let scene = try fields.sceneIdentifier("scene")
        let device = try fields.identifier("device")
        let size = try fields.optionalWindowSize("size")
        var config = fields.optional("config") == nil ? nil : try fields.nested("config").configPatch()
        if let overrides = try fields.optionalString("traitOverrides") {
            guard config?.traitOverrides == nil else {
                throw WireError.badRequest("fields 'traitOverrides' and 'config.traitOverrides' are exclusive")
            }
            var patch = config ?? SplitConfigPatch()
            patch.traitOverrides = .some(overrides)
            config = patch
        }
        return .sceneCreate(scene: scene, device: device, size: size, config: config)
    }
    public static let sceneGet = OpDecoder(fields: ["scene"]) { fields throws(WireError) in
        .sceneGet(scene: try fields.identifier("scene"))
    }
    public static let sceneList = OpDecoder(fields: []) { _ throws(WireError) in .sceneList }
    public static let sceneDelete = OpDecoder(fields: ["scene"]) { fields throws(WireError) in
        .sceneDelete(scene: try fields.identifier("scene"))
    }
    public static let sceneAttach = OpDecoder(fields: ["scene", "role", "size", "notices"]) {
        fields throws(WireError) in
        .sceneAttach(
            scene: try fields.identifier("scene"), role: try fields.enumeration("role", ClientRole.self),
            size: try fields.optionalWindowSize("size"), notices: try fields.attachNotices())
    }
    public static let sceneDetach = OpDecoder(fields: ["scene"]) { fields throws(WireError) in
        .sceneDetach(scene: try fields.identifier("scene"))
    }
    /// The general path of `resize`: the plain form never gets here (`ResizeFastPath`). A
    /// stated `interfaceOrientation` (revision 2) makes it a `.command`.
    public static let resize = OpDecoder(
        fields: ["scene", "width", "height", "baseRevision", "interfaceOrientation"]
    ) { fields throws(WireError) in
        let scene = try fields.identifier("scene")
        let size = try fields.windowSize()
        let baseRevision = try fields.optionalRevision("baseRevision")
        if let held = try fields.optionalCase("interfaceOrientation", Orientation.self) {
            return .command(
                scene: scene, command: .resize(size, interfaceOrientation: held), baseRevision: baseRevision)
        }
        return .resize(scene: scene, size: size, baseRevision: baseRevision)
    }
    /// A protocol-1 intent is `.intent`; revision 2's forms (`FieldReader.command`) are
    /// `.command`.
    public static let intent = OpDecoder(fields: ["scene", "intent", "baseRevision"]) { fields throws(WireError) in
        let scene = try fields.identifier("scene")
        let command = try fields.nested("intent").command()
        let baseRevision = try fields.optionalRevision("baseRevision")
        if case .change(.intent(let intent)) = command {
            return .intent(scene: scene, intent: intent, baseRevision: baseRevision)
        }
        return .command(scene: scene, command: command, baseRevision: baseRevision)
    }
    public static let snapshot = OpDecoder(fields: ["scene", "sizes", "preset"]) { fields throws(WireError) in
        .snapshot(scene: try fields.identifier("scene"), target: try fields.snapshotTarget())
    }
    public static let snapshotList = OpDecoder(fields: ["scene"]) { fields throws(WireError) in
        .snapshotList(scene: try fields.identifier("scene"))
    }
    public static let snapshotGet = OpDecoder(fields: ["session"]) { fields throws(WireError) in
        .snapshotGet(session: try fields.session("session"))
    }
    public static let stats = OpDecoder(fields: []) { _ throws(WireError) in .stats }
    public static let ping = OpDecoder(fields: []) { _ throws(WireError) in .ping }
    public static let devices = OpDecoder(fields: []) { _ throws(WireError) in .devices }

    /// Every op of protocol 1 by wire name, in `Request.Operation.allNames` order.
    public static let protocol1: [(name: String, decoder: OpDecoder)] = [
        ("hello", hello), ("scene.create", sceneCreate), ("scene.get", sceneGet), ("scene.list", sceneList),
        ("scene.delete", sceneDelete), ("scene.attach", sceneAttach), ("scene.detach", sceneDetach),
        ("resize", resize), ("intent", intent), ("snapshot", snapshot), ("snapshot.list", snapshotList),
        ("snapshot.get", snapshotGet), ("stats", stats), ("ping", ping), ("devices", devices),
        ("explain", explain), ("sweep", sweep), ("scene.at", sceneAt),
    ]
}

/// The ops a `RequestDecoder` knows, by wire name, and the unknown-op error that lists them.
struct OpDecoders: Sendable {
    private let byName: [String: OpDecoder]
    /// In the order the unknown-op error lists them.
    private let names: [String]

    init(_ ops: [(name: String, decoder: OpDecoder)]) {
        byName = Dictionary(ops.map { ($0.name, $0.decoder) }, uniquingKeysWith: { first, _ in first })
        names = ops.map { $0.name }
    }

    static let protocol1 = OpDecoders(OpDecoder.protocol1)

    /// The parameters of op `name`, read from the request object.
    func operation(named name: String, from fields: FieldReader) throws(WireError) -> Request.Operation {
        guard let decoder = byName[name] else {
            throw WireError(.unknownOp, "unknown op '\(name)' (ops: " + names.joined(separator: ", ") + ")")
        }
        if let known = decoder.fields {
            for key in fields.object.keys where key != "id" && key != "op" && !known.contains(key) {
                throw WireError.badRequest(
                    "unknown field '\(key)' for op '\(name)' (fields: "
                        + (["id", "op"] + known.sorted()).joined(separator: ", ") + ")")
            }
        }
        return try decoder.read(fields)
    }
}

extension FieldReader {
    /// A new scene's id: 1-128 characters of `[A-Za-z0-9._:-]` (WIRE.md).
    func sceneIdentifier(_ name: String) throws(WireError) -> String {
        let text = try string(name)
        let allowed = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: ":"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
        guard allowed, (1...128).contains(text.utf8.count) else {
            throw WireError.badRequest(
                "field '\(fieldName(name))' must be 1-128 characters of [A-Za-z0-9._:-], "
                    + "got \(describe(.string(text)))")
        }
        return text
    }

    /// `sizes` (non-empty array of `{width, height}`) or `preset`, exactly one of them.
    func snapshotTarget() throws(WireError) -> SnapshotTarget {
        switch (optional("sizes"), optional("preset")) {
        case (nil, nil): throw WireError.badRequest("missing field 'sizes' or 'preset'")
        case (_?, _?): throw WireError.badRequest("fields 'sizes' and 'preset' are exclusive")
        case (nil, _?): return .preset(try identifier("preset"))
        case (_?, nil):
            let elements = try array("sizes")
            guard !elements.isEmpty else { throw WireError.badRequest("field 'sizes' must not be empty") }
            var sizes: [Size] = []
            sizes.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let elementName = "sizes[\(index)]"
                guard let size = element.object else {
                    throw invalid(elementName, "an object {width, height}", got: element)
                }
                sizes.append(try FieldReader(size, path: fieldName(elementName)).windowSize())
            }
            return .sizes(sizes)
        }
    }

    /// `notices` of `scene.attach` (ours): an array of notice names, none when absent. A name
    /// this daemon does not know is ignored (a newer client asking an older daemon, as for
    /// unknown params): it is simply not sent.
    func attachNotices() throws(WireError) -> AttachNotices {
        guard optional("notices") != nil else { return [] }
        var notices: AttachNotices = []
        for (index, element) in try array("notices").enumerated() {
            guard let name = element.string else { throw invalid("notices[\(index)]", "a string", got: element) }
            if let known = AttachNotices.names.first(where: { $0.name == name }) { notices.insert(known.notice) }
        }
        return notices
    }

    /// A session id: a non-empty string, or an integer kept as its decimal text.
    func session(_ name: String) throws(WireError) -> String {
        let value = try required(name)
        if let number = value.int64 { return String(number) }
        return try identifier(name)
    }
}

/// `describe` for a rejected `id`: a number that prints as a whole one says why it was not taken.
func describeID(_ value: JSONValue) -> String {
    if case .double(let number) = value, number.rounded(.towardZero) == number {
        return "\(describe(value)) (a whole number of at most 64 bits, below 2^53 if written with a fraction "
            + "or an exponent)"
    }
    return describe(value)
}
