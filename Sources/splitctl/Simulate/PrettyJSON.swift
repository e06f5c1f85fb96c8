import SplitWire

/// Golden-file JSON: two-space indentation, object keys sorted (a stable order whatever
/// produced the value), and a final newline. A value made only of scalars (and arrays of
/// scalars) that fits in `lineLimit` characters stays on one line, so a column reads as
/// `{"column": "primary", ..., "stack": ["a", "b"], "width": 320, "x": 0}` and a diff of the
/// file points at the changed column. Scalars are written exactly as the wire writes them.
enum PrettyJSON {
    static let lineLimit = 160

    static func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: "", to: &output)
        return output + "\n"
    }

    private static func write(_ value: JSONValue, indent: String, to output: inout String) {
        if isFlat(value), case let line = inline(value), indent.count + line.count <= lineLimit {
            output += line
            return
        }
        switch value {
        case .object(let object):
            guard !object.isEmpty else { output += "{}"; return }
            let inner = indent + "  "
            output += "{\n"
            let members = object.members.sorted { $0.key < $1.key }
            for (position, member) in members.enumerated() {
                output += inner + JSONWriter.string(.string(member.key)) + ": "
                write(member.value, indent: inner, to: &output)
                output += position == members.count - 1 ? "\n" : ",\n"
            }
            output += indent + "}"
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            if elements.allSatisfy(isScalar) {
                output += "[" + elements.map { JSONWriter.string($0) }.joined(separator: ", ") + "]"
                return
            }
            let inner = indent + "  "
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += inner
                write(element, indent: inner, to: &output)
                output += position == elements.count - 1 ? "\n" : ",\n"
            }
            output += indent + "]"
        default:
            output += JSONWriter.string(value)
        }
    }

    /// Scalars, or containers holding only scalars and arrays of scalars.
    private static func isFlat(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): object.allSatisfy { isScalar($0.value) || isScalarArray($0.value) }
        case .array(let elements): elements.allSatisfy { isScalar($0) || isScalarArray($0) }
        default: true
        }
    }

    private static func isScalarArray(_ value: JSONValue) -> Bool {
        value.array?.allSatisfy(isScalar) ?? false
    }

    /// One-line form with sorted keys and a space after each separator.
    private static func inline(_ value: JSONValue) -> String {
        switch value {
        case .object(let object):
            let members = object.members.sorted { $0.key < $1.key }
            return "{"
                + members.map { JSONWriter.string(.string($0.key)) + ": " + inline($0.value) }.joined(separator: ", ")
                + "}"
        case .array(let elements):
            return "[" + elements.map(inline).joined(separator: ", ") + "]"
        default:
            return JSONWriter.string(value)
        }
    }

    static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: false
        default: true
        }
    }
}
