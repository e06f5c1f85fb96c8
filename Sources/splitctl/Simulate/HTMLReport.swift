import Foundation
import SplitClient
import SplitCore
import SplitRender
import SplitWire

/// `simulate --report FILE.html`: one self-contained page (inline CSS and SVG, no script, no
/// network) with every scenario file, every run and every step's picture; snapshot sessions
/// as a strip. With --check, a step that differs from its golden record shows the golden and
/// the new picture side by side with the changed fields listed, and is counted at the top.
struct HTMLReport {
    struct File {
        var result: FileResult
        /// The runs' records as the golden file would store them.
        var records: [JSONValue]
        /// The golden file's runs (with --check and a golden file), else nil.
        var golden: [JSONValue]?
    }

    var files: [File]
    var checking: Bool

    /// Class names and ids may only hold these; anything else becomes `-`.
    private static func slug(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }

    func page() -> String {
        var changedSteps = 0
        var body = ""
        var contents = ""
        for (fileIndex, file) in files.enumerated() {
            let anchor = "file-\(fileIndex)-" + Self.slug(file.result.path)
            var section = ""
            var fileChanged = 0
            let goldenRuns = Dictionary(
                (file.golden ?? []).map { ($0["name"]?.string ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
            for run in file.records {
                let name = run["name"]?.string ?? "?"
                let goldenRun = goldenRuns[name]
                section +=
                    "<section class=\"run\"><h3>\(html(name)) <small>\(html(run["device"]?.string ?? ""))</small></h3>\n"
                if checking && file.golden != nil && goldenRun == nil {
                    section += "<p class=\"problem\">not in the golden file</p>\n"
                }
                section += "<div class=\"steps\">\n"
                let goldenSteps = goldenRun?["steps"]?.array ?? []
                for (index, step) in (run["steps"]?.array ?? []).enumerated() {
                    let recorded: JSONValue? = goldenSteps.indices.contains(index) ? goldenSteps[index] : nil
                    if checking, let recorded, recorded != step {
                        changedSteps += 1
                        fileChanged += 1
                        section += changedFigure(step, golden: recorded)
                    } else {
                        section += stepFigure(step)
                    }
                }
                section += "</div></section>\n"
            }
            let status = file.result.status.rawValue
            var failures = ""
            if !file.result.failures.isEmpty {
                failures = "<pre class=\"failures\">" + html(file.result.failures.joined(separator: "\n")) + "</pre>\n"
            }
            body +=
                "<section class=\"file \(status)\" id=\"\(anchor)\"><h2>\(html(file.result.path)) <span class=\"status\">\(status)</span></h2>\n"
                + failures + section + "</section>\n"
            contents +=
                "<li><a href=\"#\(anchor)\">\(html(file.result.path))</a> <span class=\"status \(status)\">\(status)</span>"
                + " \(file.result.runs) runs, \(file.result.steps) steps"
                + (fileChanged > 0 ? ", <b>\(fileChanged) changed</b>" : "") + "</li>\n"
        }
        let summary =
            "\(files.count) scenario files, \(files.reduce(0) { $0 + $1.result.runs }) runs, "
            + "\(files.reduce(0) { $0 + $1.result.steps }) steps"
            + (checking
                ? ", <span class=\"changed-count\" data-changed=\"\(changedSteps)\">\(changedSteps) changed steps</span>"
                : "")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width">
            <title>splitctl simulate report</title>
            <style>
            body { font: 14px/1.4 "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px; color: #222; background: #fff; }
            h2 { border-bottom: 2px solid #ccd; padding-bottom: 4px; margin-top: 40px; }
            h3 small { color: #667; font-weight: normal; }
            .status { font-size: 12px; padding: 1px 6px; border-radius: 4px; background: #e6f4ea; }
            .failed > h2 .status, .status.failed { background: #fde8e8; color: #b42318; }
            .steps { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
            figure { margin: 0; padding: 6px; border: 1px solid #dde; border-radius: 6px; background: #fcfcfd; }
            figure.step svg { width: 240px; height: auto; display: block; }
            figure.session svg { height: 150px; width: auto; display: block; }
            figure.session { max-width: 100%; overflow-x: auto; }
            figure.changed { border: 2px solid #d92d20; background: #fff6f5; flex-basis: 100%; }
            .pair { display: flex; gap: 16px; flex-wrap: wrap; }
            .pair > div { flex: 0 0 auto; }
            .pair h4 { margin: 2px 0; font-size: 12px; color: #667; }
            .pair svg { width: 320px; height: auto; display: block; }
            .pair .session svg, .pair svg.session { height: 150px; width: auto; }
            figcaption { font-size: 12px; color: #333; max-width: 240px; overflow-wrap: anywhere; }
            figure.changed figcaption { max-width: none; }
            table.fields { border-collapse: collapse; font-size: 12px; margin-top: 6px; }
            table.fields td, table.fields th { border: 1px solid #e4e4ea; padding: 2px 6px; text-align: left; font-family: "DejaVu Sans Mono", monospace; }
            .error { color: #b42318; font-weight: bold; }
            pre.failures { background: #fde8e8; padding: 8px; white-space: pre-wrap; }
            </style></head>
            <body>
            <h1>splitctl simulate report</h1>
            <p class="summary">\(summary)</p>
            <ul class="contents">
            \(contents)</ul>
            \(body)</body></html>

            """
    }

    /// One step: its number and action, then its picture (a layout, a session strip, or the
    /// error code it got).
    private func stepFigure(_ step: JSONValue) -> String {
        let isSession = step["snapshots"] != nil
        return
            "<figure class=\"\(isSession ? "step session" : "step")\" data-step=\"\(html(JSONDiff.text(step["step"])))\">"
            + picture(step) + "<figcaption>\(caption(step))</figcaption></figure>\n"
    }

    private func changedFigure(_ step: JSONValue, golden: JSONValue) -> String {
        var rows = ""
        for difference in JSONDiff.differences(expected: golden, actual: step).prefix(40) {
            rows +=
                "<tr><td>\(html(difference.path.isEmpty ? "(whole step)" : difference.path))</td>"
                + "<td>\(html(JSONDiff.text(difference.expected)))</td><td>\(html(JSONDiff.text(difference.actual)))</td></tr>\n"
        }
        return "<figure class=\"step changed\" data-step=\"\(html(JSONDiff.text(step["step"])))\">"
            + "<figcaption>\(caption(step)) — <b>changed</b></figcaption>\n<div class=\"pair\">"
            + "<div class=\"golden\"><h4>golden</h4>\(picture(golden))</div>"
            + "<div class=\"new\"><h4>new</h4>\(picture(step))</div></div>\n"
            + "<table class=\"fields\"><tr><th>field</th><th>golden</th><th>new</th></tr>\n\(rows)</table></figure>\n"
    }

    private func caption(_ step: JSONValue) -> String {
        var text = "<b>\(html(JSONDiff.text(step["step"])))</b> \(html(step["do"]?.string ?? ""))"
        if let revision = step["revision"] { text += " · rev \(html(JSONDiff.text(revision)))" }
        if let events = step["events"]?.array, !events.isEmpty {
            text += " · " + html(events.compactMap { $0["type"]?.string }.joined(separator: ", "))
        }
        return text
    }

    private func picture(_ step: JSONValue) -> String {
        if let error = step["error"]?.string { return "<p class=\"error\">error \(html(error))</p>" }
        if step["snapshots"] != nil {
            guard let session = try? decodeSnapshotResult(step) else {
                return "<p class=\"error\">unreadable session</p>"
            }
            return SessionRenderer.svg(session, pixelHeight: 150)
        }
        guard let value = step["layout"], let layout = try? decodeLayout(value) else { return "<p>(no layout)</p>" }
        return LayoutRenderer.svg(layout, options: RenderOptions(pixelWidth: 240))
    }
}

/// `text` safe in HTML text and attribute values.
func html(_ text: String) -> String {
    var out = ""
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(character)
        }
    }
    return out
}
