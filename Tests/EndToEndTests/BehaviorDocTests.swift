import Foundation
import Testing

// docs/BEHAVIOR.md stays true: its examples (request -> the layout fields it must give) are
// replayed against the splitd under test by Scripts/protocol-examples, as PROTOCOL.md's are,
// and the repository's documents link only to files inside it.

/// docs/BEHAVIOR.md.
enum BehaviorDoc {
    static let path = Binaries.packageRoot + "/docs/BEHAVIOR.md"

    static var text: String { readText(path) }

    /// The `## N. Title` sections that hold at least one example.
    static func sectionsWithExamples(in text: String) -> Set<Int> {
        var sections: Set<Int> = []
        var current: Int?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("## "), let number = Int(line.dropFirst(3).prefix { $0.isNumber }) {
                current = number
            } else if line.hasPrefix("<!-- example"), let current {
                sections.insert(current)
            }
        }
        return sections
    }
}

extension EndToEnd {
    @Suite struct BehaviorDocExamples {
        @Test(.enabled(if: ProtocolDoc.hasTools, "needs python3 and socat"))
        func everyExampleMatchesTheDaemon() throws {
            let output = try ProtocolDoc.run(doc: BehaviorDoc.path)
            let examples = ProtocolDoc.exampleCount(in: BehaviorDoc.text)
            #expect(examples >= 10)
            #expect(output.exitCode == 0, "\(output.stdout)\n\(output.stderr)")
            #expect(output.stdout.contains("protocol-examples: \(examples) examples,"), "\(output.stdout)")
            #expect(output.stdout.contains(" 0 failures"), "\(output.stdout)")
        }

        /// The check can fail: a layout field documented wrongly (portrait iPad shown as tiled)
        /// is reported at its line.
        @Test(.enabled(if: ProtocolDoc.hasTools, "needs python3 and socat"))
        func aWrongLayoutFieldIsReportedAtItsLine() throws {
            var lines = BehaviorDoc.text.components(separatedBy: "\n")
            let index = try #require(lines.firstIndex { $0.contains(#""scene":"turn","revision":1"#) })
            let documented = #""displayMode":"secondaryOnly","splitBehavior":"overlay""#
            #expect(lines[index].contains(documented))
            lines[index] = lines[index].replacingOccurrences(
                of: documented, with: #""displayMode":"secondaryOnly","splitBehavior":"tile""#)
            let directory = try makeTemporaryDirectory(prefix: "behavior-doc")
            defer { removeDirectory(directory) }
            let altered = directory + "/BEHAVIOR.md"
            try lines.joined(separator: "\n").write(toFile: altered, atomically: true, encoding: .utf8)

            let output = try ProtocolDoc.run(doc: altered)
            #expect(output.exitCode == 1, "\(output.stdout)")
            #expect(
                output.stdout.contains(
                    "FAIL docs line \(index + 1): client A: $.layout.splitBehavior: "
                        + #"expected "tile", got "overlay""#), "\(output.stdout)")
            #expect(output.stdout.contains(" 1 failures"), "\(output.stdout)")
        }

        /// Every section with behavior a client can observe shows it in an example, and the
        /// page names every policy, mode, behavior and built-in rule set it describes.
        @Test func examplesCoverTheBehavior() {
            let text = BehaviorDoc.text
            let sections = BehaviorDoc.sectionsWithExamples(in: text)
            let expected: Set = [1, 2, 5, 6, 7, 8, 9]
            #expect(
                expected.subtracting(sections).isEmpty,
                "sections without an example: \(expected.subtracting(sections).sorted())")
            let names = [
                "secondaryOnly", "oneBesideSecondary", "oneOverSecondary", "twoBesideSecondary",
                "twoOverSecondary", "twoDisplaceSecondary", "tile", "overlay", "displace",
                "uikit", "moveDetailExceptRoot", "keepPrimary", "moveAllButRoot", "replace", "resetAndPush",
                "latest", "largest", "smallest", "manual", "material", "adwaita", "compact-below-1000",
                "regular-above-414", "displayModeButton", "tapDimmed", "showColumn", "hideColumn",
                "topColumnForCollapsing", "lastNavigated", "popLatest", "popUntilLayoutChange",
            ]
            for name in names {
                #expect(text.contains("`\(name)`"), "\(name) is not described")
            }
        }
    }

    /// README and every document under docs/ link only to files the repository has.
    @Suite struct DocumentLinks {
        static func markdownFiles() throws -> [String] {
            let docs = try FileManager.default.contentsOfDirectory(atPath: Binaries.packageRoot + "/docs")
                .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
            return ["README.md", "Sources/SplitCore/CONTRACT.md"] + docs.sorted()
        }

        /// The relative targets of `[text](target)` links, without their `#fragment`.
        static func relativeLinks(in text: String) -> [String] {
            var targets: [String] = []
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close].prefix { $0 != "#" && $0 != " " })
                rest = rest[close...]
                if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { continue }
                targets.append(target)
            }
            return targets
        }

        /// A document's text without the README's words it quotes (a `<!-- README section`
        /// marker, then `>` lines, kept word for word, links relative to the README included).
        static func ownText(_ text: String) -> String {
            var quoting = false
            return text.components(separatedBy: "\n").filter { line in
                if line.hasPrefix("<!-- README section") { quoting = true; return false }
                if quoting, line.hasPrefix(">") { return false }
                quoting = false
                return true
            }.joined(separator: "\n")
        }

        static let root = URL(fileURLWithPath: Binaries.packageRoot).standardizedFileURL.path

        /// Where `target`, linked from `file` (relative to the root), leads.
        static func resolve(_ target: String, from file: String) -> String {
            URL(fileURLWithPath: root + "/" + file).deletingLastPathComponent()
                .appendingPathComponent(target).standardizedFileURL.path
        }

        @Test func everyRelativeLinkNamesAFileInTheRepository() throws {
            let root = Self.root
            var checked = 0
            for file in try Self.markdownFiles() {
                for target in Self.relativeLinks(in: Self.ownText(readText(root + "/" + file))) {
                    let resolved = Self.resolve(target, from: file)
                    #expect(resolved.hasPrefix(root + "/"), "\(file) links outside the repository: \(target)")
                    #expect(FileManager.default.fileExists(atPath: resolved), "\(file) links to a missing \(target)")
                    checked += 1
                }
            }
            #expect(checked > 20)
        }

        /// The link check can fail: a link out of the repository is found.
        @Test func aLinkOutOfTheRepositoryIsFound() {
            let links = Self.relativeLinks(in: "See [the spec](../../outside/SPEC.md#intro) and [x](https://e.org).")
            #expect(links == ["../../outside/SPEC.md"])
            #expect(!Self.resolve(links[0], from: "docs/PROTOCOL.md").hasPrefix(Self.root + "/"))
            #expect(Self.resolve("../README.md", from: "docs/PROTOCOL.md") == Self.root + "/README.md")
        }
    }
}
