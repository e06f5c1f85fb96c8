import Foundation
import SplitWire

/// Finds and parses scenario files: each argument is a `.json` file or a directory whose
/// `*.json` files (not recursive, sorted by name) are taken.
enum ScenarioLoading {
    static func load(_ arguments: [String]) throws(ScenarioError) -> [ScenarioFile] {
        var files: [ScenarioFile] = []
        for argument in arguments {
            for path in try expand(argument) { files.append(try parse(path)) }
        }
        return files
    }

    private static func expand(_ argument: String) throws(ScenarioError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            throw ScenarioError(file: argument, path: "", message: "no such file or directory")
        }
        guard isDirectory.boolValue else { return [argument] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        let found = names.filter { $0.hasSuffix(".json") }.sorted().map { (argument.hasSuffix("/") ? argument : argument + "/") + $0 }
        if found.isEmpty { throw ScenarioError(file: argument, path: "", message: "no *.json scenario files in this directory") }
        return found
    }

    private static func parse(_ path: String) throws(ScenarioError) -> ScenarioFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError(file: path, path: "", message: "cannot read: \(error.localizedDescription)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw ScenarioError(file: path, path: "", message: "not valid JSON (\(error))")
        }
        guard let document = value.object else { throw ScenarioError(file: path, path: "", message: "a scenario must be a JSON object") }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return ScenarioFile(path: path, document: document, stem: stem)
    }
}
