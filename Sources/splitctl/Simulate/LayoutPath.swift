import SplitWire

/// The path syntax of `expect` steps (docs/SIMULATE.md): dot-separated segments over a JSON
/// value. A segment is an object key; on an array, an index (`0`, `-1` = last), the name of
/// an element (the element whose `column`, `type` or `vc` equals it: `columns.secondary`),
/// or `count` (the number of elements).
///
/// Examples: `collapsed`, `displayMode`, `columns.0.stack`, `columns.secondary.width`,
/// `columns.compact.stack.-1`, `events.count`, `snapshot.roundTrip.lossless`.
enum LayoutPath {
    /// Fields that name an array element, in the order they are tried.
    static let namingFields = ["column", "type", "vc"]

    static func segments(_ path: String) -> [String] {
        path.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }

    /// The value at `path` in `root`, nil if some segment does not resolve.
    static func lookup(_ path: String, in root: JSONValue) -> JSONValue? {
        var current = root
        for segment in segments(path) {
            guard let next = step(segment, from: current) else { return nil }
            current = next
        }
        return current
    }

    private static func step(_ segment: String, from value: JSONValue) -> JSONValue? {
        switch value {
        case .object(let object):
            return object[segment]
        case .array(let elements):
            if let index = Int(segment) {
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return nil }
                return elements[position]
            }
            if let named = elements.first(where: { element in
                namingFields.contains { element[$0]?.string == segment }
            }) {
                return named
            }
            guard segment == "count" else { return nil }
            return .int(Int64(elements.count))
        default:
            return nil
        }
    }

    /// Whether an expectation holds: JSON equality, except that numbers match within a
    /// relative 1e-9 (0.4 x 736 is 294.40000000000003 in binary floating point).
    static func matches(_ expected: JSONValue, _ actual: JSONValue?) -> Bool {
        guard let actual else { return false }
        switch (expected, actual) {
        case (.int, _), (.double, _):
            guard let want = expected.double, let got = actual.double else { return false }
            return abs(want - got) <= 1e-9 * max(1, abs(want))
        case let (.array(wanted), .array(got)):
            return wanted.count == got.count && zip(wanted, got).allSatisfy { matches($0, $1) }
        case let (.object(wanted), .object(got)):
            return Set(wanted.keys) == Set(got.keys) && wanted.allSatisfy { matches($0.value, got[$0.key]) }
        default:
            return expected == actual
        }
    }
}
