import SplitWire

/// Golden-file JSON: two-space indentation, object keys sorted (a stable order whatever
/// produced the value), arrays of scalars on one line so stacks read as `["a", "b"]`, and a
/// final newline. Scalars are written exactly as the wire writes them.
enum PrettyJSON {
    static func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, indent: "", to: &output)
        return output + "\n"
    }

    private static func write(_ value: JSONValue, indent: String, to output: inout String) {
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

    static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: false
        default: true
        }
    }
}
