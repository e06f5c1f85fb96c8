import SplitWire

/// What happened to one scenario file.
struct FileResult {
    enum Status: String {
        /// Ran; every expectation held (and, with --check, the golden file matched).
        case ok
        /// With --record: ran cleanly and its golden file was written.
        case recorded
        case failed
    }

    var path: String
    var golden: String?
    var status: Status = .ok
    var runs = 0
    var steps = 0
    var snapshots = 0
    var expectations = 0
    /// Readable lines: failed expectations, unexpected errors, golden differences.
    var failures: [String] = []
    /// Every run's golden record, kept only for `--report`.
    var records: [JSONValue] = []
}

/// Counts and timing of a whole `simulate` invocation, as text or one JSON line.
struct SimulationReport {
    var files: [FileResult] = []
    var seconds = 0.0

    var failedFiles: Int { files.filter { $0.status == .failed }.count }

    func text() -> String {
        var lines: [String] = []
        for file in files {
            let counts =
                "\(plural(file.runs, "run")), \(plural(file.steps, "step")), \(plural(file.snapshots, "snapshot")), "
                + plural(file.expectations, "expectation")
            switch file.status {
            case .ok: lines.append("ok        \(file.path) (\(counts))")
            case .recorded: lines.append("recorded  \(file.golden ?? file.path) (\(counts))")
            case .failed:
                lines.append("FAILED    \(file.path) (\(counts))")
                lines += file.failures.map { "  " + $0 }
            }
        }
        let total = files.reduce(into: FileResult(path: "")) { sum, file in
            sum.runs += file.runs
            sum.steps += file.steps
            sum.snapshots += file.snapshots
            sum.expectations += file.expectations
        }
        lines.append(
            "\(plural(files.count, "scenario file")), \(plural(total.runs, "run")), \(plural(total.steps, "step")), "
                + "\(plural(total.snapshots, "snapshot")), \(plural(total.expectations, "expectation")): "
                + "\(failedFiles) failed in \(String(format: "%.2f", seconds)) s")
        return lines.joined(separator: "\n")
    }

    func json() -> JSONValue {
        let entries: [JSONValue] = files.map { file in
            var entry: JSONObject = ["file": .string(file.path), "status": .string(file.status.rawValue)]
            if let golden = file.golden { entry["golden"] = .string(golden) }
            entry["runs"] = .int(Int64(file.runs))
            entry["steps"] = .int(Int64(file.steps))
            entry["snapshots"] = .int(Int64(file.snapshots))
            entry["expectations"] = .int(Int64(file.expectations))
            entry["failures"] = .array(file.failures.map(JSONValue.string))
            return .object(entry)
        }
        var summary: JSONObject = ["files": .array(entries)]
        summary["scenarios"] = .int(Int64(files.count))
        summary["runs"] = .int(Int64(files.reduce(0) { $0 + $1.runs }))
        summary["steps"] = .int(Int64(files.reduce(0) { $0 + $1.steps }))
        summary["snapshots"] = .int(Int64(files.reduce(0) { $0 + $1.snapshots }))
        summary["expectations"] = .int(Int64(files.reduce(0) { $0 + $1.expectations }))
        summary["failed"] = .int(Int64(failedFiles))
        summary["seconds"] = .double((seconds * 1000).rounded() / 1000)
        return .object(summary)
    }

    private func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
