import ArgumentParser
import SplitClient
import SplitWire

/// `splitctl explain SCENE`: the decisions behind a scene's current layout.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the decisions behind a scene's current layout, each with the rule that made it.",
        discussion: """
            One line per decision, in the order splitd takes them: size classes (device row or \
            rule-set rule, hysteresis), collapsed, split behavior, display mode (preferred, user \
            action, degraded for room), each column's width (preferred, fraction or automatic, and \
            the clamp that bit), the display-mode button, each presentation's style, and what the \
            collapse (or a kept expand) moved. --json prints the op's result with each decision's \
            inputs. Reads only: the scene's revision does not change.
            """)
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Scene id.")
    var scene: String

    func run() throws {
        let result = try withConnection(global) { connection throws(ClientError) in try connection.explain(scene) }
        emit(result, json: global.json) { describeExplanation(result) }
    }
}

/// `revision N`, then per decision `field = value  rule` and its reason indented below.
func describeExplanation(_ result: JSONValue) -> String {
    var lines = ["scene \(result["scene"]?.string ?? "?") at revision \(result["revision"]?.int ?? 0)"]
    let decisions = result["decisions"]?.array ?? []
    let rows: [[String]] = decisions.map { decision in
        [
            decision["field"]?.string ?? "?", "= " + decisionText(decision["value"] ?? .null),
            decision["rule"]?.string ?? "?",
        ]
    }
    let aligned = alignedColumns(rows).split(separator: "\n", omittingEmptySubsequences: false)
    for (line, decision) in zip(aligned, decisions) {
        lines.append(String(line))
        if let why = decision["why"]?.string { lines.append("    " + why) }
    }
    return lines.joined(separator: "\n")
}

private func decisionText(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .array(let items): "[" + items.map(decisionText).joined(separator: ", ") + "]"
    default: value.string ?? JSONWriter.string(value)
    }
}
