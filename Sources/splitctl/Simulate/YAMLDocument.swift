import SplitWire
import Yams

/// YAML scenario files (docs/SIMULATE.md): one YAML document, converted to the `JSONValue` the
/// same file written as JSON would parse to, so decoding, error messages and golden files do
/// not depend on the format.
///
/// Scalars follow YAML 1.2's core schema: `true`/`false`, `null`/`~`/empty, integers and
/// floats are typed; everything else, quoted scalars included, is a string (YAML 1.1's
/// `yes`/`no`/`on`/`off` and dates stay strings). Mapping keys are taken as written. Anchors and
/// aliases are expanded; duplicate keys, several documents, merge keys (`<<`) and values
/// JSON cannot hold (`.inf`, `.nan`, binary) are refused.
enum YAMLDocument {
    /// Why a YAML text is not a scenario value, on one line.
    enum Failure: Error, Equatable {
        /// Not YAML (or not one document): `line 3, column 7: ...`.
        case syntax(String)
        /// YAML that JSON cannot hold, at a JSON-style path (`steps[2].resize`).
        case value(path: String, message: String)
    }

    /// The core schema's implicit types (Yams' default resolver is YAML 1.1's).
    static let resolver: Resolver = {
        // The patterns are constants: they compile.
        // swiftlint:disable:next force_try
        try! Resolver.basic
            .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
            .appending(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
            .appending(
                .float,
                "^(?:[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
            )
            .appending(.null, "^(?:~|null|Null|NULL|)$")
    }()

    static func parse(_ text: String) throws(Failure) -> JSONValue {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text, resolver)
        } catch YamlError.duplicatedKeysInMapping(let keys, let context) where keys.count >= 1 {
            // Yams names the key's first occurrence; the one to remove is the next.
            let mark = duplicateMark(of: keys[0], after: context.mark, in: text) ?? context.mark
            throw .syntax("line \(mark.line), column \(mark.column): duplicate key \"\(keys[0])\"")
        } catch {
            throw .syntax(describe(error))
        }
        guard let root else { throw .syntax("empty document") }
        return try convert(root, at: "")
    }

    private static func convert(_ node: Node, at path: String) throws(Failure) -> JSONValue {
        switch node {
        case .mapping(let mapping):
            var object = JSONObject()
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let keyScalar) = keyNode else {
                    throw failure(at: path, keyNode, "a key must be a plain string, not a \(kind(keyNode))")
                }
                let key = keyScalar.string
                if tagName(keyNode) == .merge || (key == "<<" && keyScalar.style == .plain) {
                    throw failure(at: path, keyNode, "merge keys (<<) are not supported")
                }
                // Yams refuses `a:` twice; `1:` and `"1":` are one key in JSON.
                guard object[key] == nil else { throw failure(at: path, keyNode, "duplicate key \"\(key)\"") }
                object[key] = try convert(valueNode, at: join(path, key))
            }
            return .object(object)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, at: "\(path)[\(index)]"))
            }
            return .array(elements)
        case .scalar(let scalar):
            return try convert(scalar, node: node, at: path)
        case .alias:
            throw failure(at: path, node, "unresolved alias")
        }
    }

    private static func convert(_ scalar: Node.Scalar, node: Node, at path: String) throws(Failure) -> JSONValue {
        switch tagName(node) {
        case .null:
            return .null
        case .bool:
            guard let value = node.bool else { throw failure(at: path, node, "'\(scalar.string)' is not a boolean") }
            return .bool(value)
        case .int:
            if let value = integer(scalar.string) { return .int(value) }
            // Beyond Int64: a double, as the JSON parser reads such a number.
            if let value = Double(scalar.string), value.isFinite { return .double(value) }
            throw failure(at: path, node, "'\(scalar.string)' is not an integer")
        case .float:
            guard let value = node.float, value.isFinite else {
                throw failure(at: path, node, "'\(scalar.string)' is not a finite number: JSON has no infinity or NaN")
            }
            return .double(value)
        case .str, .nonSpecific:
            return .string(scalar.string)
        default:
            throw failure(
                at: path, node,
                "tag \(tagName(node).rawValue) is not supported (only strings, numbers, booleans, null, sequences and mappings)"
            )
        }
    }

    /// Where `key` occurs again in the mapping whose first `key` is at `first`: the text is
    /// composed again with that first occurrence renamed (same length, so every mark stays),
    /// and the mapping holding the new name is searched for `key`. A third occurrence makes
    /// Yams report the second. Nil when it cannot be told (a quoted key with escapes...).
    ///
    /// A second compose, not one pass, because Yams (6.2.2) refuses a repeated key in its own
    /// composer, always, naming the first occurrence only, and offers no event-level parsing;
    /// its libyaml target (CYaml) is not a product this package can use. It runs only for a
    /// file already refused: a valid one is composed once.
    private static func duplicateMark(of key: String, after first: Mark, in text: String) -> Mark? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Array(String($0).unicodeScalars)
        }
        guard first.line >= 1, first.line <= lines.count, first.column >= 1 else { return nil }
        let keyScalars = Array(key.unicodeScalars)
        var start = first.column - 1
        let line = lines[first.line - 1]
        if start < line.count, line[start] == "\"" || line[start] == "'" { start += 1 }
        guard !keyScalars.isEmpty, start + keyScalars.count <= line.count,
            Array(line[start..<(start + keyScalars.count)]) == keyScalars
        else { return nil }
        // U+E000 (private use) cannot clash with a real key.
        let renamed = String(repeating: "\u{E000}", count: keyScalars.count)
        lines[first.line - 1].replaceSubrange(start..<(start + keyScalars.count), with: renamed.unicodeScalars)
        let edited = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        do {
            guard let root = try Yams.compose(yaml: edited, resolver) else { return nil }
            return keyMark(of: key, inMappingWith: renamed, under: root)
        } catch YamlError.duplicatedKeysInMapping(let keys, let context) where keys.first == key {
            return context.mark
        } catch {
            return nil
        }
    }

    /// The mark of `key` in the mapping under `node` that also has the key `sibling`.
    private static func keyMark(of key: String, inMappingWith sibling: String, under node: Node) -> Mark? {
        switch node {
        case .mapping(let mapping):
            if mapping.keys.contains(where: { $0.string == sibling }) {
                return mapping.keys.first { $0.string == key }?.mark
            }
            for value in mapping.values {
                if let found = keyMark(of: key, inMappingWith: sibling, under: value) { return found }
            }
            return nil
        case .sequence(let sequence):
            for element in sequence {
                if let found = keyMark(of: key, inMappingWith: sibling, under: element) { return found }
            }
            return nil
        case .scalar, .alias:
            return nil
        }
    }

    /// The resolved tag (the resolver's for untagged plain scalars).
    private static func tagName(_ node: Node) -> Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

    /// Decimal (`010` is ten, not YAML 1.1's octal eight), `0o17` or `0x1F`.
    private static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0o") { return Int64(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
        return Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text)
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private static func kind(_ node: Node) -> String {
        switch node {
        case .mapping: "mapping"
        case .sequence: "sequence"
        case .scalar: "scalar"
        case .alias: "alias"
        }
    }

    private static func failure(at path: String, _ node: Node, _ message: String) -> Failure {
        .value(path: path, message: node.mark.map { "\(message) (line \($0.line), column \($0.column))" } ?? message)
    }

    /// Yams' errors as one line: where, what, and the context libyaml gives.
    static func describe(_ error: any Error) -> String {
        guard let yaml = error as? YamlError else { return "\(error)" }
        func located(_ mark: Mark, _ problem: String, _ context: YamlError.Context?) -> String {
            var text = "line \(mark.line), column \(mark.column): \(problem)"
            if let context { text += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return text
        }
        switch yaml {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            return located(mark, problem, context)
        case let .reader(problem, offset, _, _):
            return offset.map { "character \($0): \(problem)" } ?? problem
        case let .duplicatedKeysInMapping(duplicates, context):
            return "line \(context.mark.line), column \(context.mark.column): duplicate key "
                + duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
        case .dataCouldNotBeDecoded:
            return "not UTF-8 text"
        default:
            return String(describing: yaml).split(separator: "\n").first.map(String.init) ?? "unreadable"
        }
    }
}
