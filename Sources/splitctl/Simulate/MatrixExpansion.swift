import Foundation
import SplitWire

/// `matrix` (docs/SIMULATE.md): `{"device": "profiles" | [ids], "style": [...], ...}` runs the
/// scenario once per combination of the variables, first variable outermost, with every
/// `${variable}` in its strings replaced. `"profiles"` stands for every device profile the
/// daemon knows.
enum MatrixExpansion {
    /// The runs of `file`: one scenario per combination (a single one without a matrix).
    static func scenarios(of file: ScenarioFile, profiles: [String]) throws(ScenarioError) -> [Scenario] {
        let decoder = ScenarioDecoder(file: file.path)
        let baseName = file.document["name"]?.string ?? file.stem
        guard let matrix = file.document["matrix"] else {
            return [try decoder.decode(file.document, defaultName: baseName)]
        }
        let variables = try readVariables(matrix, profiles: profiles, decoder: decoder)
        var document = file.document
        document["matrix"] = nil
        var scenarios: [Scenario] = []
        for binding in combinations(variables) {
            guard case .object(let substituted) = substitute(.object(document), binding) else { continue }
            var scenario = try decoder.decode(substituted, defaultName: baseName)
            // A name without variables gets the binding appended so every run is named apart.
            if !baseName.contains("${") {
                scenario.name = "\(baseName) [" + binding.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + "]"
            }
            scenarios.append(scenario)
        }
        return scenarios
    }

    /// Refuses a `${name}` that no matrix variable defines (in a file without a matrix: any),
    /// with the JSON path of the string holding it. It would reach splitd as written and fail
    /// there in a way that hides the typo (`unknown_device: unknown device '${y}'`).
    static func checkVariables(of file: ScenarioFile) throws(ScenarioError) {
        let defined = file.document["matrix"]?.object?.keys.map { $0 } ?? []
        var document = file.document
        document["matrix"] = nil
        guard let (path, name) = firstUndefinedVariable(in: .object(document), defined: Set(defined), at: "") else { return }
        let known = defined.isEmpty ? "no matrix defines any" : "the matrix defines " + defined.map { "${\($0)}" }.joined(separator: ", ")
        throw ScenarioError(file: file.path, path: path, message: "unknown variable ${\(name)} (\(known))")
    }

    /// The path and name of the first `${name}` in a string of `value` whose name is not in `defined`.
    private static func firstUndefinedVariable(in value: JSONValue, defined: Set<String>, at path: String) -> (String, String)? {
        switch value {
        case .string(let text):
            return variableNames(in: text).first { !defined.contains($0) }.map { (path, $0) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstUndefinedVariable(in: element, defined: defined, at: "\(path)[\(index)]") { return found }
            }
            return nil
        case .object(let object):
            for member in object.members {
                let childPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                if let found = firstUndefinedVariable(in: member.value, defined: defined, at: childPath) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// The names of the `${name}` references in `text`, in order (a `${` never closed is text).
    static func variableNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            names.append(String(rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    private static func readVariables(_ matrix: JSONValue, profiles: [String],
                                      decoder: ScenarioDecoder) throws(ScenarioError) -> [(name: String, values: [String])] {
        guard let object = matrix.object, !object.isEmpty else {
            throw decoder.fail("matrix", "expected an object of variable: [values]")
        }
        var variables: [(name: String, values: [String])] = []
        for member in object {
            let values: [String]
            if member.value.string == "profiles" {
                values = profiles
            } else if let elements = member.value.array, !elements.isEmpty,
                      case let strings = elements.compactMap(\.string), strings.count == elements.count {
                values = strings
            } else {
                throw decoder.fail("matrix.\(member.key)", "expected a non-empty array of strings or \"profiles\"")
            }
            variables.append((member.key, values))
        }
        return variables
    }

    /// The cartesian product, first variable outermost.
    static func combinations(_ variables: [(name: String, values: [String])]) -> [[(name: String, value: String)]] {
        var result: [[(name: String, value: String)]] = [[]]
        for variable in variables {
            result = result.flatMap { prefix in variable.values.map { prefix + [(variable.name, $0)] } }
        }
        return result
    }

    /// Every string of `value` with `${name}` replaced by the bound value.
    static func substitute(_ value: JSONValue, _ binding: [(name: String, value: String)]) -> JSONValue {
        switch value {
        case .string(let text):
            guard text.contains("${") else { return value }
            var replaced = text
            for variable in binding { replaced = replaced.replacingOccurrences(of: "${\(variable.name)}", with: variable.value) }
            return .string(replaced)
        case .array(let elements):
            return .array(elements.map { substitute($0, binding) })
        case .object(let object):
            return .object(JSONObject(object.members.map { JSONMember(key: $0.key, value: substitute($0.value, binding)) }))
        default:
            return value
        }
    }
}
