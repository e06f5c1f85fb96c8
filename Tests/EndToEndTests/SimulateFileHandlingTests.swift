import Foundation
import SplitWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// How `simulate` handles its files: golden files it cannot write, scenario files it
    /// cannot use, a file given twice, a refused creation counted as a step.
    @Suite struct SimulateFileHandling {
        static let passing =
            #"{"device": "ipad-pro-12.9", "steps": [{"resize": "landscape/1/3"}, {"expect": {"collapsed": true}}]}"#

        /// A golden file that could not be written was a FAILED scenario (exit 1) with
        /// Foundation's "The file doesn't exist".
        @Test func aGoldenFileThatCannotBeWrittenExits73AndSaysWhy() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-cantcreat")
            defer { removeDirectory(directory) }
            try Self.passing.write(toFile: directory + "/x.json", atomically: true, encoding: .utf8)
            try "".write(toFile: directory + "/h.json", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(
                atPath: directory + "/g/x.json/inside", withIntermediateDirectories: true)
            for (golden, problem) in [
                ("/proc/nope", "/proc/nope/x.json: cannot create directory /proc/nope: No such file or directory"),
                (directory + "/h.json", "\(directory)/h.json/x.json: \(directory)/h.json is not a directory"),
                (
                    directory + "/h.json/deeper",
                    "\(directory)/h.json/deeper/x.json: \(directory)/h.json is not a directory"
                ),
                // Found after the runs: the golden path is a directory.
                (directory + "/g", "\(directory)/g/x.json: cannot replace \(directory)/g/x.json: Is a directory"),
            ] {
                let output = try simulate("--embedded", "--record", "--golden-dir", golden, directory + "/x.json")
                #expect(output.exitCode == 73, "\(golden): \(output)")
                #expect(output.stderr == "splitctl: \(problem)\n", "\(output.stderr)")
                #expect(!output.stdout.contains("FAILED"), "\(output.stdout)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory + "/g") == ["x.json"],
                "no temporary file left")
        }

        /// A golden file that does not fit its volume: the write comes up short, then fails
        /// (ENOSPC); the reason is told and the temporary file removed.
        @Test(.enabled(if: Machine.canMountTmpfs, "needs root and permission to mount a tmpfs"))
        func aGoldenFileThatDoesNotFitExits73AndLeavesNothing() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-nospace")
            defer { removeDirectory(directory) }
            // One run per profile: a golden file of tens of KB, more than the 16 KB volume.
            let scenario =
                #"{"device": "${d}", "matrix": {"d": "profiles"}, "steps": [{"resize": {"width": 700, "height": 1000}}]}"#
            try scenario.write(toFile: directory + "/m.json", atomically: true, encoding: .utf8)
            try withTmpfs(size: "16k", prefix: "splitctl-nospace-volume") { volume in
                let output = try simulate(
                    "--embedded", "--record", "--golden-dir", volume + "/g", directory + "/m.json")
                #expect(output.exitCode == 73, "\(output)")
                #expect(
                    output.stderr.hasPrefix("splitctl: \(volume)/g/m.json: cannot write \(volume)/g/m.json.tmp-"),
                    "\(output.stderr)")
                #expect(output.stderr.hasSuffix(": No space left on device\n"), "\(output.stderr)")
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: volume + "/g") == [], "no temporary file left")
            }
        }

        /// The type of `device` was reported as its absence, a missing height as "width and
        /// height must be positive numbers", and an undefined variable reached splitd as is.
        @Test(
            arguments: [
                (
                    #"{"device": 5, "steps": []}"#,
                    "device: expected a string (a device profile id or rule-set name), got a number"
                ),
                (
                    #"{"device": "ipad-pro-12.9", "steps": [{"resize": {"width": 10}}]}"#,
                    #"steps[0].resize: height is missing (a size is {"width": W, "height": H})"#
                ),
                (
                    #"{"device": "ipad-pro-12.9", "steps": [{"resize": {"height": 10, "width": "10"}}]}"#,
                    "steps[0].resize.width: expected a number of points, got a string"
                ),
                (
                    #"{"device": "ipad-pro-12.9", "steps": [{"resize": {"width": 10, "height": 0}}]}"#,
                    "steps[0].resize.height: must be a positive number of points, not 0"
                ),
                (
                    #"{"device": "${y}", "matrix": {"x": ["mac"]}, "steps": []}"#,
                    "device: unknown variable ${y} (the matrix defines ${x})"
                ),
                (
                    #"{"device": "mac", "steps": [{"intent": {"kind": "push", "column": "primary", "vc": "v-${n}"}}]}"#,
                    "steps[0].intent.vc: unknown variable ${n} (no matrix defines any)"
                ),
            ] as [(String, String)])
        func scenarioMistakesSayWhatIsWrong(scenario: String, problem: String) throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-scenario")
            defer { removeDirectory(directory) }
            try scenario.write(toFile: directory + "/s.json", atomically: true, encoding: .utf8)
            let output = try simulate("--embedded", directory + "/s.json")
            #expect(output.exitCode == 66, "\(output)")
            #expect(output.stderr == "splitctl: \(directory)/s.json: \(problem)\n", "\(output.stderr)")
            if problem.contains("unknown variable") {
                // Refused when the file is read: no daemon is contacted (that would be 69).
                let early = try simulate("--socket", "/nonexistent/splitd.sock", directory + "/s.json")
                #expect(early.exitCode == 66 && early.stderr == output.stderr, "\(early)")
            }
        }

        /// The same file twice ran, was recorded and was counted twice.
        @Test func aFileGivenTwiceRunsOnce() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-twice")
            defer { removeDirectory(directory) }
            try Self.passing.write(toFile: directory + "/x.json", atomically: true, encoding: .utf8)
            #expect(symlink(directory + "/x.json", directory + "/link.json") == 0)
            let twice = try simulate(
                "--embedded", "--record", directory + "/x.json", directory + "/./x.json", directory + "/link.json")
            #expect(twice.exitCode == 0, "\(twice)")
            #expect(twice.lines.filter { $0.hasPrefix("recorded") }.count == 1, "\(twice.stdout)")
            #expect(twice.lines.last?.hasPrefix("1 scenario file, 1 run, 2 steps") == true, "\(twice.stdout)")
            // The directory holds x.json and the link to it.
            let directoryAndFile = try simulate("--embedded", "--json", directory, directory + "/x.json")
            let summary = try JSONParser.parse(directoryAndFile.lines.last ?? "")
            #expect(summary["scenarios"] == 1 && summary["runs"] == 1, "\(directoryAndFile.stdout)")
        }

        /// A run whose scene.create was refused reported 0 steps; SIMULATE.md counts requests made.
        @Test func aRefusedCreationCountsAsAStep() throws {
            let directory = try makeTemporaryDirectory(prefix: "splitctl-refused")
            defer { removeDirectory(directory) }
            try #"{"device": "ipad-pro-99", "steps": [{"resize": "landscape/1/3"}]}"#
                .write(toFile: directory + "/e.json", atomically: true, encoding: .utf8)
            let output = try simulate("--embedded", "--json", directory + "/e.json")
            #expect(output.exitCode == 1, "\(output)")
            let summary = try JSONParser.parse(output.lines.last ?? "")
            #expect(summary["runs"] == 1 && summary["steps"] == 1, "\(output.stdout)")
            #expect(
                summary["files"]?[0]?["failures"]?[0]?.string?.contains("unknown_device") == true, "\(output.stdout)")
        }
    }
}
