import Foundation
import SplitWire
#if canImport(Glibc)
import Glibc
#endif

/// Finds and parses scenario files: each argument is a file or a directory whose `*.json`,
/// `*.yaml` and `*.yml` files (not recursive, sorted by name) are taken. A file is read as
/// YAML when its name ends in `.yaml` or `.yml`, else as JSON; both give the same document.
enum ScenarioLoading {
    /// File name endings that are scenario files in a directory, with the format they are read in.
    static let extensions: [(suffix: String, yaml: Bool)] = [(".json", false), (".yaml", true), (".yml", true)]

    /// The scenario files of `arguments`, each once: a file named twice, or named and also
    /// found in a directory argument, is taken where it first appears (it would run and be
    /// recorded twice otherwise).
    static func load(_ arguments: [String]) throws(ScenarioError) -> [ScenarioFile] {
        var files: [ScenarioFile] = []
        var seen: Set<String> = []
        for argument in arguments {
            for path in try expand(argument) where seen.insert(identity(of: path)).inserted {
                let file = try parse(path)
                try MatrixExpansion.checkVariables(of: file)
                files.append(file)
            }
        }
        return files
    }

    /// What makes two paths the same file: the absolute path with symbolic links resolved
    /// (`x.json`, `./x.json`, `dir/../x.json`, a link to it).
    static func identity(of path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private static func expand(_ argument: String) throws(ScenarioError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            throw ScenarioError(file: argument, path: "", message: "no such file or directory")
        }
        guard isDirectory.boolValue else { return [argument] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        let found = names.filter { name in extensions.contains { name.hasSuffix($0.suffix) } }.sorted()
            .map { (argument.hasSuffix("/") ? argument : argument + "/") + $0 }
        if found.isEmpty {
            throw ScenarioError(
                file: argument, path: "", message: "no *.json, *.yaml or *.yml scenario files in this directory")
        }
        return found
    }

    private static func parse(_ path: String) throws(ScenarioError) -> ScenarioFile {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ScenarioError(file: path, path: "", message: "cannot read: \(error.localizedDescription)")
        }
        // Foundation's "the file isn't in the correct format" does not say where or why.
        if let offset = firstInvalidUTF8Byte(bytes) {
            throw ScenarioError(file: path, path: "", message: "not valid UTF-8 (byte \(offset))")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let format = extensions.first { name.hasSuffix($0.suffix) }
        let value: JSONValue
        if format?.yaml == true {
            do throws(YAMLDocument.Failure) {
                value = try YAMLDocument.parse(text)
            } catch {
                switch error {
                case .syntax(let message):
                    throw ScenarioError(file: path, path: "", message: "not valid YAML (\(message))")
                case .value(let at, let message): throw ScenarioError(file: path, path: at, message: message)
                }
            }
        } else {
            do {
                value = try JSONParser.parse(text)
            } catch {
                // Where a person editing the file looks: its line and column.
                let place = error.description(in: bytes)
                throw ScenarioError(file: path, path: "", message: "not valid JSON (\(place))")
            }
        }
        guard let document = value.object else {
            throw ScenarioError(
                file: path, path: "",
                message: "a scenario must be " + (format?.yaml == true ? "a mapping" : "a JSON object"))
        }
        let stem = format.map { String(name.dropLast($0.suffix.count)) } ?? name
        return ScenarioFile(path: path, document: document, stem: stem)
    }
}

/// The offset of the first byte that does not belong to valid UTF-8; nil when it all does.
func firstInvalidUTF8Byte(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): offset += UTF8.width(scalar)
        case .emptyInput: return nil
        case .error: return offset
        }
    }
}
