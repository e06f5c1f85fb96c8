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
/// `bad_request` naming it (see `IntentDecoding.swift` for `invalid_intent`). Unknown
/// extra parameters are ignored, so newer clients can talk to this server.
public struct RequestDecoder: Sendable {
    public var parser: JSONParser

    public init(parser: JSONParser = JSONParser()) {
        self.parser = parser
    }

    /// Decodes one line (without or with its trailing newline), reading it in place.
    public func decode(_ line: UnsafeRawBufferPointer) throws(RequestFailure) -> Request {
        if parser.maxDepth >= 1, let resize = ResizeFastPath.decode(line) { return resize }
        let value: JSONValue
        do {
            value = try parser.parse(line)
        } catch {
            throw RequestFailure(id: RequestIDSalvage.id(in: line, maxDepth: parser.maxDepth),
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
            throw RequestFailure(id: nil,
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
            return Request(id: id, op: try FieldReader(object).operation(named: opName))
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

extension FieldReader {
    /// The parameters of op `name`, read from the request object.
    func operation(named name: String) throws(WireError) -> Request.Operation {
        switch name {
        case "resize":
            return .resize(scene: try identifier("scene"), size: try windowSize(),
                           baseRevision: try optionalRevision("baseRevision"))
        case "intent":
            return .intent(scene: try identifier("scene"), intent: try nested("intent").intent(),
                           baseRevision: try optionalRevision("baseRevision"))
        case "hello":
            return .hello(protocol: try int("protocol"), client: try optionalString("client"))
        case "scene.create":
            let scene = try sceneIdentifier("scene")
            let device = try identifier("device")
            let size = try optionalWindowSize("size")
            let config = optional("config") == nil ? nil : try nested("config").configPatch()
            return .sceneCreate(scene: scene, device: device, size: size, config: config)
        case "scene.get": return .sceneGet(scene: try identifier("scene"))
        case "scene.list": return .sceneList
        case "scene.delete": return .sceneDelete(scene: try identifier("scene"))
        case "scene.attach":
            return .sceneAttach(scene: try identifier("scene"), role: try enumeration("role", ClientRole.self),
                                size: try optionalWindowSize("size"), notices: try attachNotices())
        case "scene.detach": return .sceneDetach(scene: try identifier("scene"))
        case "snapshot": return .snapshot(scene: try identifier("scene"), target: try snapshotTarget())
        case "snapshot.list": return .snapshotList(scene: try identifier("scene"))
        case "snapshot.get": return .snapshotGet(session: try session("session"))
        case "stats": return .stats
        case "ping": return .ping
        case "devices": return .devices
        default:
            throw WireError(.unknownOp,
                            "unknown op '\(name)' (ops: " + Request.Operation.allNames.joined(separator: ", ") + ")")
        }
    }

    /// A new scene's id: 1-128 characters of `[A-Za-z0-9._:-]` (WIRE.md).
    func sceneIdentifier(_ name: String) throws(WireError) -> String {
        let text = try string(name)
        let allowed = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: ":"), UInt8(ascii: "-"): true
            default: false
            }
        }
        guard allowed, (1...128).contains(text.utf8.count) else {
            throw WireError.badRequest("field '\(fieldName(name))' must be 1-128 characters of [A-Za-z0-9._:-], "
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

