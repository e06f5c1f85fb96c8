import Foundation
import SplitWire
import Testing

extension EndToEnd {
    /// The undefined `${var}` check (SIMULATE.md, Matrix): a malformed matrix was reported as
    /// an undefined variable, and `${...}` in free text (`description`, a step's `note`) was
    /// refused although it is only text.
    @Suite struct SimulateVariables {
        /// The matrix's own error, not "unknown variable": its shape is checked first.
        @Test(
            arguments: [
                (#""matrix": "ipad-pro-12.9""#, #"matrix: expected an object of variable: [values]"#),
                (#""matrix": ["a", "b"]"#, #"matrix: expected an object of variable: [values]"#),
                (#""matrix": [{"x": ["mac"]}]"#, #"matrix: expected an object of variable: [values]"#),
                (#""matrix": {}"#, #"matrix: expected an object of variable: [values]"#),
                (#""matrix": null"#, #"matrix: expected an object of variable: [values]"#),
                (#""matrix": {"x": "mac"}"#, #"matrix.x: expected a non-empty array of strings or "profiles""#),
                (#""matrix": {"x": [1, 2]}"#, #"matrix.x: expected a non-empty array of strings or "profiles""#),
                (#""matrix": {"x": []}"#, #"matrix.x: expected a non-empty array of strings or "profiles""#),
                (
                    #""matrix": {"d": ["mac"], "x": {"y": ["mac"]}}"#,
                    #"matrix.x: expected a non-empty array of strings or "profiles""#
                ),
            ] as [(String, String)])
        func aMalformedMatrixIsReportedAsSuch(matrix: String, problem: String) throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-matrix")
            defer { removeDirectory(directory) }
            // `${x}` is undefined unless the matrix is read as defining it, `${y}` is in any case.
            try #"{"device": "${x}", "presetDevice": "${y}", \#(matrix), "steps": []}"#.write(
                toFile: directory + "/m.json", atomically: true, encoding: .utf8)
            // Refused when the file is read: no daemon is contacted (that would be 69).
            let output = try simulate("--socket", "/nonexistent/splitd.sock", directory + "/m.json")
            #expect(output.exitCode == 66, "\(output)")
            #expect(output.stderr == "splitctl: \(directory)/m.json: \(problem)\n", "\(output.stderr)")
        }

        /// `description` and a step's `note` are free text: `${...}` there is neither checked
        /// nor substituted, the other strings are both.
        @Test func freeTextIsNeitherCheckedNorSubstituted() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-free-text")
            defer { removeDirectory(directory) }
            for (name, matrix) in [("plain", ""), ("matrix", #""matrix": {"d": ["ipad-pro-12.9"]}, "#)] {
                let device = matrix.isEmpty ? "ipad-pro-12.9" : "${d}"
                try #"""
                {"description": "costs ${HOME} and ${d}; the matrix sets ${device}", \#(matrix)"device": "\#(device)",
                 "steps": [{"note": "at ${d}, not ${undefined}", "resize": "landscape/1/3"},
                           {"note": "${", "expect": {"collapsed": true}}]}
                """#.write(toFile: "\(directory)/\(name).json", atomically: true, encoding: .utf8)
                let output = try simulate("--embedded", "--json", "\(directory)/\(name).json")
                #expect(output.exitCode == 0, "\(name): \(output)")
                let summary = try JSONParser.parse(output.lines.last ?? "")
                #expect(summary["runs"] == 1 && summary["failed"] == 0, "\(name): \(output.stdout)")
            }
            // Still refused in every other string, also next to a note.
            try
                #"{"device": "ipad-pro-12.9", "steps": [{"note": "${n}", "intent": {"kind": "push", "column": "primary", "vc": "v-${n}"}}]}"#
                .write(toFile: directory + "/s.json", atomically: true, encoding: .utf8)
            let refused = try simulate("--socket", "/nonexistent/splitd.sock", directory + "/s.json")
            #expect(refused.exitCode == 66, "\(refused)")
            #expect(
                refused.stderr
                    == "splitctl: \(directory)/s.json: steps[0].intent.vc: unknown variable ${n} (no matrix defines any)\n",
                "\(refused.stderr)")
        }
    }
}
