import SplitWire

/// One field that differs between an expected (golden) and an actual value.
struct JSONDifference: Equatable {
    /// Where, e.g. `layout.columns[secondary].stack`; empty for the root.
    var path: String
    /// nil: the field is missing on that side.
    var expected: JSONValue?
    var actual: JSONValue?
}

/// A structural diff that names fields the way people read layouts: object keys joined by
/// dots, array elements by index, or by name when they carry a `column`/`type`/`vc`
/// (`columns[secondary]`). Arrays of scalars (stacks) and elements whose names differ are
/// reported whole, which reads better than element-by-element noise.
enum JSONDiff {
    static func differences(expected: JSONValue, actual: JSONValue, at path: String = "") -> [JSONDifference] {
        if expected == actual { return [] }
        switch (expected, actual) {
        case let (.object(left), .object(right)):
            var found: [JSONDifference] = []
            let keys = Set(left.keys).union(right.keys).sorted()
            for key in keys {
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                switch (left[key], right[key]) {
                case let (l?, r?): found += differences(expected: l, actual: r, at: childPath)
                case let (l, r): found.append(JSONDifference(path: childPath, expected: l, actual: r))
                }
            }
            return found
        case let (.array(left), .array(right))
        where !left.allSatisfy(PrettyJSON.isScalar) || !right.allSatisfy(PrettyJSON.isScalar):
            var found: [JSONDifference] = []
            for index in 0..<max(left.count, right.count) {
                let l: JSONValue? = left.indices.contains(index) ? left[index] : nil
                let r: JSONValue? = right.indices.contains(index) ? right[index] : nil
                let name = (l ?? r).flatMap(elementName)
                let childPath = "\(path)[\(name ?? String(index))]"
                if let l, let r, elementName(l) == elementName(r) {
                    found += differences(expected: l, actual: r, at: childPath)
                } else if l != r {
                    found.append(JSONDifference(path: childPath, expected: l, actual: r))
                }
            }
            return found
        default:
            return [JSONDifference(path: path, expected: expected, actual: actual)]
        }
    }

    /// The value of the first naming field of an array element (`column`, `type`, `vc`).
    static func elementName(_ element: JSONValue) -> String? {
        for field in LayoutPath.namingFields {
            if let name = element[field]?.string { return name }
        }
        return nil
    }

    /// A value on one line for reports; `(missing)` for nil.
    static func text(_ value: JSONValue?) -> String {
        value.map { JSONWriter.string($0) } ?? "(missing)"
    }
}
