import Foundation
import SplitWire

/// `matrix` (docs/SIMULATE.md): `{"device": "profiles" | [ids], "style": [...], ...}` runs the
/// scenario once per combination of the variables, first variable outermost, with every
/// `${variable}` in its strings replaced, except in the free text (`description`, a step's
/// `note`), which is neither substituted nor checked. `"profiles"` stands for every device
/// profile the daemon knows.
enum MatrixExpansion {
    /// The runs of `file`: one scenario per combination (a single one without a matrix).
    static func scenarios(of file: ScenarioFile, profiles: [String]) throws(ScenarioError) -> [Scenario] {
        let decoder = ScenarioDecoder(file: file.path)
        let baseName = file.document["name"]?.string ?? file.stem
        guard let matrix = file.document["matrix"] else {
            return [try decoder.decode(file.document, defaultName: baseName)]
        }
        let variables = try readVariables(matrix, decoder: decoder).map { variable in
            (name: variable.name, values: variable.values ?? profiles)
        }
        var document = file.document
        document["matrix"] = nil
        var scenarios: [Scenario] = []
        for binding in combinations(variables) {
            let substituted = substitute(document, binding)
            var scenario = try decoder.decode(substituted, defaultName: baseName)
            // A name without variables gets the binding appended so every run is named apart.
            if !baseName.contains("${") {
                scenario.name = "\(baseName) [" + binding.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + "]"
            }
            scenarios.append(scenario)
        }
        return scenarios
    }

    /// Refuses a malformed `matrix` (its own error: its variables are not known without it),
    /// then a `${name}` that no matrix variable defines (in a file without a matrix: any), with
    /// the JSON path of the string holding it. It would reach splitd as written and fail there
    /// in a way that hides the typo (`unknown_device: unknown device '${y}'`). Only the strings
    /// that `substitute` replaces in are looked at: free text is text.
    ///
    /// A walk apart from `substitute`'s on purpose: this one runs when the file is read (66
    /// before any daemon is asked), `substitute` once per run after splitd said its profiles,
    /// the values of a `"profiles"` variable. `Place` keeps both on the same strings.
    static func checkVariables(of file: ScenarioFile) throws(ScenarioError) {
        var defined: [String] = []
        if let matrix = file.document["matrix"] {
            defined = try readVariables(matrix, decoder: ScenarioDecoder(file: file.path)).map(\.name)
        }
        var firstUndefined: (path: String, name: String)?
        visitSubstitutedStrings(of: file.document) { path, text in
            guard firstUndefined == nil, let name = variableNames(in: text).first(where: { !defined.contains($0) })
            else { return }
            firstUndefined = (path, name)
        }
        guard let (path, name) = firstUndefined else { return }
        let known =
            defined.isEmpty
            ? "no matrix defines any" : "the matrix defines " + defined.map { "${\($0)}" }.joined(separator: ", ")
        throw ScenarioError(file: file.path, path: path, message: "unknown variable ${\(name)} (\(known))")
    }

    /// Where a member of a scenario document sits, for telling free text from the rest.
    private enum Place {
        case document, steps, step, elsewhere

        /// The place of member `key` of an object here; nil for the members that are not
        /// substituted: the matrix itself and the free text (`description`, a step's `note`).
        func member(_ key: String) -> Place? {
            switch (self, key) {
            case (.document, "matrix"), (.document, "description"), (.step, "note"): return nil
            case (.document, "steps"): return .steps
            default: return .elsewhere
            }
        }

        /// The place of an element of an array here.
        var element: Place { self == .steps ? .step : .elsewhere }
    }

    /// Calls `body` with the JSON path and text of every string of `document` that
    /// `substitute` replaces variables in, in document order.
    private static func visitSubstitutedStrings(of document: JSONObject, _ body: (String, String) -> Void) {
        func visit(_ value: JSONValue, _ place: Place, _ path: String) {
            switch value {
            case .string(let text):
                body(path, text)
            case .array(let elements):
                for (index, element) in elements.enumerated() { visit(element, place.element, "\(path)[\(index)]") }
            case .object(let object):
                for member in object.members {
                    guard let childPlace = place.member(member.key) else { continue }
                    visit(member.value, childPlace, path.isEmpty ? member.key : "\(path).\(member.key)")
                }
            default:
                break
            }
        }
        visit(.object(document), .document, "")
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

    /// The matrix's variables in order, each with its values, nil for `"profiles"` (the
    /// daemon's profiles, not known when the file is read); refuses a malformed matrix.
    private static func readVariables(
        _ matrix: JSONValue,
        decoder: ScenarioDecoder
    ) throws(ScenarioError) -> [(name: String, values: [String]?)] {
        guard let object = matrix.object, !object.isEmpty else {
            throw decoder.fail("matrix", "expected an object of variable: [values]")
        }
        var variables: [(name: String, values: [String]?)] = []
        for member in object {
            let values: [String]?
            if member.value.string == "profiles" {
                values = nil
            } else if let elements = member.value.array, !elements.isEmpty,
                case let strings = elements.compactMap(\.string), strings.count == elements.count
            {
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

    /// `document` without its matrix, with `${name}` replaced by the bound value in every
    /// string but the free text (the strings `checkVariables` looks at).
    static func substitute(_ document: JSONObject, _ binding: [(name: String, value: String)]) -> JSONObject {
        func replace(_ value: JSONValue, _ place: Place) -> JSONValue {
            switch value {
            case .string(let text):
                guard text.contains("${") else { return value }
                var replaced = text
                for variable in binding {
                    replaced = replaced.replacingOccurrences(of: "${\(variable.name)}", with: variable.value)
                }
                return .string(replaced)
            case .array(let elements):
                return .array(elements.map { replace($0, place.element) })
            case .object(let object):
                return .object(
                    JSONObject(
                        object.members.map { member in
                            // Free text (and the matrix, dropped by the caller) is kept as written.
                            guard let childPlace = place.member(member.key) else { return member }
                            return JSONMember(key: member.key, value: replace(member.value, childPlace))
                        }))
            default:
                return value
            }
        }
        guard case .object(let replaced) = replace(.object(document), .document) else { return document }
        return replaced
    }
}
