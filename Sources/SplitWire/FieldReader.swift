import SplitCore

/// Reads typed fields of a request object; every failure is a `bad_request` naming the
/// field by its path (`intent.column`, `config.tabs[1].root`). Absent and `null` are the
/// same for optional fields.
struct FieldReader {
    let object: JSONObject
    /// Dotted path of `object` inside the request; empty at the top level.
    let path: String

    init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    func fieldName(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    func missing(_ name: String) -> WireError { .badRequest("missing field '\(fieldName(name))'") }

    func invalid(_ name: String, _ expectation: String, got value: JSONValue) -> WireError {
        .badRequest("field '\(fieldName(name))' must be \(expectation), got \(describe(value))")
    }

    /// The value if present and not null.
    func optional(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    func required(_ name: String) throws(WireError) -> JSONValue {
        guard let value = optional(name) else { throw missing(name) }
        return value
    }

    func string(_ name: String) throws(WireError) -> String {
        let value = try required(name)
        guard let text = value.string else { throw invalid(name, "a string", got: value) }
        return text
    }

    func optionalString(_ name: String) throws(WireError) -> String? {
        guard optional(name) != nil else { return nil }
        return try string(name)
    }

    /// A non-empty string (ids of scenes, view controllers, sessions).
    func identifier(_ name: String) throws(WireError) -> String {
        let text = try string(name)
        guard !text.isEmpty else { throw WireError.badRequest("field '\(fieldName(name))' must not be empty") }
        return text
    }

    func int(_ name: String) throws(WireError) -> Int {
        let value = try required(name)
        guard let number = value.int else { throw invalid(name, "an integer", got: value) }
        return number
    }

    func optionalInt(_ name: String) throws(WireError) -> Int? {
        guard optional(name) != nil else { return nil }
        return try int(name)
    }

    func double(_ name: String) throws(WireError) -> Double {
        let value = try required(name)
        guard let number = value.double else { throw invalid(name, "a number", got: value) }
        return number
    }

    func bool(_ name: String) throws(WireError) -> Bool {
        let value = try required(name)
        guard let flag = value.bool else { throw invalid(name, "a boolean", got: value) }
        return flag
    }

    func optionalBool(_ name: String) throws(WireError) -> Bool? {
        guard optional(name) != nil else { return nil }
        return try bool(name)
    }

    func array(_ name: String) throws(WireError) -> [JSONValue] {
        let value = try required(name)
        guard let elements = value.array else { throw invalid(name, "an array", got: value) }
        return elements
    }

    func nested(_ name: String) throws(WireError) -> FieldReader {
        let value = try required(name)
        guard let inner = value.object else { throw invalid(name, "an object", got: value) }
        return FieldReader(inner, path: fieldName(name))
    }

    /// A string naming a case of `E` (`rawValue`).
    func enumeration<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type) throws(WireError) -> E
    where E.RawValue == String {
        let text = try string(name)
        guard let value = E(rawValue: text) else {
            throw WireError.badRequest(
                "field '\(fieldName(name))' must be one of "
                    + E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ", got '\(text)'")
        }
        return value
    }

    /// A revision number: an integer >= 0.
    func optionalRevision(_ name: String) throws(WireError) -> Int? {
        guard let revision = try optionalInt(name) else { return nil }
        guard revision >= 0 else {
            throw WireError.badRequest("field '\(fieldName(name))' must be >= 0, got \(revision)")
        }
        return revision
    }

    /// A window size from `widthName`/`heightName` of this object: both > 0 and <= 100000.
    func windowSize(width widthName: String = "width", height heightName: String = "height") throws(WireError) -> Size {
        let size = Size(width: try double(widthName), height: try double(heightName))
        try checkSide(size.width, widthName)
        try checkSide(size.height, heightName)
        return size
    }

    /// A `{width, height}` object member.
    func optionalWindowSize(_ name: String) throws(WireError) -> Size? {
        guard optional(name) != nil else { return nil }
        return try nested(name).windowSize()
    }

    private func checkSide(_ side: Double, _ name: String) throws(WireError) {
        guard side.isFinite, side > 0, side <= Size.maximumSide else {
            throw WireError.badRequest(
                "field '\(fieldName(name))' must be > 0 and <= 100000, got \(JSONValue.double(side))")
        }
    }
}

/// A short rendering of a value for error messages.
func describe(_ value: JSONValue) -> String {
    switch value {
    case .array: return "an array"
    case .object: return "an object"
    default:
        let text = JSONWriter.string(value)
        return text.count <= 40 ? text : String(text.prefix(40)) + "..."
    }
}
