import Foundation
import SplitWire
#if canImport(Glibc)
import Glibc
#endif

/// Golden files: one per scenario file, `<golden dir>/<stem>.json`, holding every run's
/// records (`{"format": 1, "scenario": stem, "runs": [...]}`) as `PrettyJSON` writes them.
/// The default directory is `golden/` beside the scenario file (`Config/scenarios/golden/`
/// for the shipped scenarios).
struct GoldenStore {
    /// The directory `path` is in ("." for a bare name, "/" at the root), as `dirname` has
    /// it for a path without a trailing slash.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static let format: Int64 = 1
    /// `--golden-dir`; nil: beside each scenario file.
    var directory: String?

    func path(for file: ScenarioFile) -> String {
        let base = directory ?? (Self.directory(of: file.path) + "/golden")
        return base + "/" + file.stem + ".json"
    }

    func document(for file: ScenarioFile, runs: [JSONValue]) -> JSONValue {
        ["format": .int(Self.format), "scenario": .string(file.stem), "runs": .array(runs)]
    }

    /// Creates the directory of `file`'s golden file (and its parents) if needed; `--record`
    /// does it for every file before anything runs, so a golden directory that cannot be
    /// made is reported at once (exit 73) rather than after the runs.
    func prepareDirectory(for file: ScenarioFile) throws(GoldenWriteError) {
        let target = path(for: file)
        try makeDirectories(Self.directory(of: target), for: target)
    }

    /// Writes the golden file: a temporary file beside it, then renamed over it, so a failed
    /// write never leaves half a golden file. Errors say what failed with the system's reason.
    /// Its directory was made by `prepareDirectory` before the runs (not walked again per file;
    /// one removed since makes the create fail with the system's reason).
    func write(runs: [JSONValue], for file: ScenarioFile) throws(GoldenWriteError) {
        let target = path(for: file)
        let temporary = target + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GoldenWriteError(target, "cannot create \(temporary): \(systemReason())") }
        let writeFailure = writeAll(fd, PrettyJSON.string(document(for: file, runs: runs)))
        // The write's reason first; else close's (a delayed write error).
        let closeFailure = close(fd) == 0 ? nil : errno
        if let failure = writeFailure ?? closeFailure {
            unlink(temporary)
            throw GoldenWriteError(target, "cannot write \(temporary): \(systemReason(failure))")
        }
        guard rename(temporary, target) == 0 else {
            let reason = systemReason()
            unlink(temporary)
            throw GoldenWriteError(target, "cannot replace \(target): \(reason)")
        }
    }

    /// `mkdir -p` that says which component failed and why: a file where a directory should
    /// be, or the system's reason for refusing to create one (`strerror`).
    private func makeDirectories(_ directory: String, for target: String) throws(GoldenWriteError) {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") where component != "." {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            var status = stat()
            if stat(prefix, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw GoldenWriteError(target, "\(prefix) is not a directory")
                }
                continue
            }
            guard errno == ENOENT else {
                throw GoldenWriteError(target, "cannot use directory \(prefix): \(systemReason())")
            }
            // EEXIST: made meanwhile by someone else, which is as good.
            guard mkdir(prefix, 0o777) == 0 || errno == EEXIST else {
                throw GoldenWriteError(target, "cannot create directory \(prefix): \(systemReason())")
            }
        }
    }

    /// The recorded runs, or nil when there is no golden file yet.
    func read(for file: ScenarioFile) throws(ScenarioError) -> [JSONValue]? {
        let source = path(for: file)
        guard FileManager.default.fileExists(atPath: source) else { return nil }
        let document: JSONValue
        do {
            document = try JSONParser.parse(try String(contentsOfFile: source, encoding: .utf8))
        } catch {
            throw ScenarioError(file: source, path: "", message: "unreadable golden file: \(error)")
        }
        guard document["format"]?.int64 == Self.format, let runs = document["runs"]?.array else {
            throw ScenarioError(
                file: source, path: "", message: "not a format-\(Self.format) golden file (re-record it with --record)")
        }
        return runs
    }
}

/// A golden file that cannot be written (`--record`): simulate exits 73 (EX_CANTCREAT).
struct GoldenWriteError: Error, CustomStringConvertible {
    /// The golden file's path.
    var file: String
    var message: String

    init(_ file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    var description: String { "\(file): \(message)" }
}

/// `strerror(code)`, by default of `errno`: "No such file or directory".
func systemReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

/// Compares recorded runs with fresh ones and says, in lines people can act on, which run,
/// which step and which field changed, with the expected (golden) and actual values.
enum GoldenComparison {
    /// At most this many differing fields are listed per run.
    static let maximumListed = 12

    static func differences(golden: [JSONValue], actual: [JSONValue]) -> [String] {
        var lines: [String] = []
        let goldenByName = Dictionary(golden.map { (runName($0), $0) }, uniquingKeysWith: { first, _ in first })
        let actualNames = Set(actual.map(runName))
        for run in actual {
            let name = runName(run)
            guard let recorded = goldenByName[name] else {
                lines.append("run \(quoted(name)): not in the golden file (re-record with --record)")
                continue
            }
            lines += compare(run: name, golden: recorded, actual: run)
        }
        for run in golden where !actualNames.contains(runName(run)) {
            lines.append("run \(quoted(runName(run))): in the golden file but no longer run")
        }
        return lines
    }

    private static func compare(run name: String, golden: JSONValue, actual: JSONValue) -> [String] {
        var found: [String] = []
        var counted = 0
        let goldenSteps = golden["steps"]?.array ?? []
        let actualSteps = actual["steps"]?.array ?? []
        if let device = actual["device"], golden["device"] != device {
            found.append(
                "run \(quoted(name)): device: expected \(JSONDiff.text(golden["device"])), actual \(JSONDiff.text(device))"
            )
        }
        for index in 0..<max(goldenSteps.count, actualSteps.count) {
            let expected: JSONValue? = goldenSteps.indices.contains(index) ? goldenSteps[index] : nil
            let got: JSONValue? = actualSteps.indices.contains(index) ? actualSteps[index] : nil
            let label = stepLabel(got ?? expected)
            guard let expected, let got else {
                counted += 1
                found.append(
                    "run \(quoted(name)) \(label): "
                        + (got == nil ? "recorded but not produced" : "produced but not recorded"))
                continue
            }
            for difference in JSONDiff.differences(expected: expected, actual: got) {
                counted += 1
                guard counted <= maximumListed else { continue }
                found.append(
                    "run \(quoted(name)) \(label): \(difference.path.isEmpty ? "(whole step)" : difference.path)\n"
                        + "    expected: \(JSONDiff.text(difference.expected))\n"
                        + "    actual:   \(JSONDiff.text(difference.actual))")
            }
        }
        if counted > maximumListed {
            found.append("run \(quoted(name)): ... and \(counted - maximumListed) more differences")
        }
        return found
    }

    private static func runName(_ run: JSONValue) -> String { run["name"]?.string ?? "?" }

    private static func stepLabel(_ step: JSONValue?) -> String {
        let number = step?["step"].map { JSONDiff.text($0) } ?? "?"
        let action = step?["do"]?.string ?? "?"
        return "step \(number) (\(action))"
    }

    private static func quoted(_ name: String) -> String { "\"\(name)\"" }
}
