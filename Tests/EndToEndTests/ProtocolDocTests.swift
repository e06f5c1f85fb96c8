import Foundation
import Testing

// docs/PROTOCOL.md stays true: Scripts/protocol-examples replays every example of it
// against the splitd under test, and the examples cover WIRE.md's ops, intent kinds,
// events and error codes.

/// docs/PROTOCOL.md and the script that checks it.
enum ProtocolDoc {
    static let path = Binaries.packageRoot + "/docs/PROTOCOL.md"
    static let script = Binaries.packageRoot + "/Scripts/protocol-examples"

    static var text: String { readText(path) }

    /// `<!-- example ... -->` blocks: the script must report running exactly these.
    static func exampleCount(in text: String) -> Int {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("<!-- example") }.count
    }

    /// One transcript line of an example: which block, which client, sent or received.
    struct TranscriptLine {
        var block: Int
        var client: Character
        var direction: Character
        var object: [String: Any]
    }

    /// The JSON objects of the examples' transcript lines (`A>` sent, `A<` received; no
    /// letter is client A).
    static func transcript(in text: String) -> [TranscriptLine] {
        var lines: [TranscriptLine] = []
        var block = 0, inExample = false, pendingDirective = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("<!-- example") { pendingDirective = true; continue }
            if line.hasPrefix("```") {
                inExample = pendingDirective && !inExample
                if inExample { block += 1 }
                pendingDirective = false
                continue
            }
            guard inExample else { continue }
            var rest = Substring(line)
            var client: Character = "A"
            if let first = rest.first, first.isUppercase, first.isLetter {
                client = first
                rest = rest.dropFirst()
            }
            guard let direction = rest.first, direction == ">" || direction == "<" else { continue }
            let payload = rest.dropFirst().drop { $0 == " " }
            guard let data = payload.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            lines.append(TranscriptLine(block: block, client: client, direction: direction, object: object))
        }
        return lines
    }

    /// The intent kinds of requests whose documented response is `"ok": true`.
    static func succeededIntentKinds(_ lines: [TranscriptLine]) -> Set<String> {
        var kinds: Set<String> = []
        for request in lines where request.direction == ">" && request.object["op"] as? String == "intent" {
            guard let kind = (request.object["intent"] as? [String: Any])?["kind"] as? String,
                let id = request.object["id"] as? Int
            else { continue }
            let answered = lines.contains { line in
                line.block == request.block && line.client == request.client && line.direction == "<"
                    && line.object["id"] as? Int == id && line.object["ok"] as? Bool == true
            }
            if answered { kinds.insert(kind) }
        }
        return kinds
    }

    static var hasTools: Bool {
        Machine.hasPython && (try? runCommand("/usr/bin/env", ["socat", "-V"]))?.exitCode == 0
    }

    static func run(doc: String) throws -> CommandOutput {
        try runCommand(
            "/usr/bin/env", ["bash", script, "--bin", Binaries.directory, "--doc", doc],
            timeout: .seconds(150))
    }
}

extension EndToEnd {
    @Suite struct ProtocolDocExamples {
        @Test(.enabled(if: ProtocolDoc.hasTools, "needs python3 and socat"))
        func everyExampleMatchesTheDaemon() throws {
            let output = try ProtocolDoc.run(doc: ProtocolDoc.path)
            let examples = ProtocolDoc.exampleCount(in: ProtocolDoc.text)
            #expect(examples > 0)
            #expect(output.exitCode == 0, "\(output.stdout)\n\(output.stderr)")
            #expect(output.stdout.contains("protocol-examples: \(examples) examples,"), "\(output.stdout)")
            #expect(output.stdout.contains(" 0 failures"), "\(output.stdout)")
        }

        /// The checker itself can fail: one documented answer altered is reported at its line.
        @Test(.enabled(if: ProtocolDoc.hasTools, "needs python3 and socat"))
        func aChangedAnswerIsReportedAtItsLine() throws {
            var lines = ProtocolDoc.text.components(separatedBy: "\n")
            let documented = "< {\"id\":1,\"ok\":true,\"pong\":true}"
            let index = try #require(lines.firstIndex(of: documented))
            lines[index] = "< {\"id\":1,\"ok\":true,\"pong\":false}"
            let directory = try makeTemporaryDirectory(prefix: "protocol-doc")
            defer { removeDirectory(directory) }
            let altered = directory + "/PROTOCOL.md"
            try lines.joined(separator: "\n").write(toFile: altered, atomically: true, encoding: .utf8)

            let output = try ProtocolDoc.run(doc: altered)
            #expect(output.exitCode == 1, "\(output.stdout)")
            #expect(
                output.stdout.contains("FAIL docs line \(index + 1): client A: $.pong: expected false, got true"),
                "\(output.stdout)")
            #expect(output.stdout.contains(" 1 failures"), "\(output.stdout)")
        }

        /// Every op, intent kind, event type and error code of WIRE.md's minimum sets has an
        /// example (`internal` cannot be provoked from outside: it is documented only).
        @Test func examplesCoverTheWireContract() throws {
            let text = ProtocolDoc.text
            let lines = ProtocolDoc.transcript(in: text)
            let sent = lines.filter { $0.direction == ">" }.map(\.object)
            let received = lines.filter { $0.direction == "<" }.map(\.object)

            let wireOps: Set = [
                "hello", "scene.create", "scene.get", "scene.list", "scene.delete", "scene.attach",
                "scene.detach", "resize", "intent", "snapshot", "snapshot.list", "snapshot.get", "stats",
            ]
            let ops = Set(sent.compactMap { $0["op"] as? String })
            #expect(wireOps.subtracting(ops).isEmpty, "ops without an example: \(wireOps.subtracting(ops).sorted())")

            let wireKinds: Set = [
                "push", "pop", "popToRoot", "show", "showDetail", "back", "selectTab", "present",
                "dismiss", "setPreferredDisplayMode", "displayModeButton", "gesture", "tapDimmed",
                "showColumn", "hideColumn", "setConfig",
            ]
            let succeededKinds = ProtocolDoc.succeededIntentKinds(lines)
            #expect(
                wireKinds.subtracting(succeededKinds).isEmpty,
                "intent kinds without an example: \(wireKinds.subtracting(succeededKinds).sorted())")

            let wireEvents: Set = [
                "traitsChanged", "willCollapse", "didCollapse", "willExpand", "didExpand",
                "displayModeChanged", "viewWillTransition", "appear", "disappear", "presented", "dismissed",
            ]
            let events = Set(
                received.flatMap { ($0["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String } })
            #expect(
                wireEvents.subtracting(events).isEmpty, "events never shown: \(wireEvents.subtracting(events).sorted())"
            )

            let wireCodes: Set = [
                "bad_json", "bad_request", "unknown_op", "version_mismatch", "unknown_scene",
                "scene_exists", "unknown_device", "invalid_intent", "conflict", "frame_too_large",
                "limit_exceeded", "unauthorized", "storage",
            ]
            let codes = Set(received.compactMap { ($0["error"] as? [String: Any])?["code"] as? String })
            #expect(
                wireCodes.subtracting(codes).isEmpty,
                "error codes never shown: \(wireCodes.subtracting(codes).sorted())")
            #expect(text.contains("| `internal` |"))

            let wireConfigKeys = [
                "style", "preferredDisplayMode", "preferredSplitBehavior", "preferredPrimaryColumnWidth",
                "preferredPrimaryColumnWidthFraction", "minimumPrimaryColumnWidth",
                "maximumPrimaryColumnWidth", "preferredSupplementaryColumnWidth",
                "minimumSupplementaryColumnWidth", "maximumSupplementaryColumnWidth", "primaryEdge",
                "presentsWithGesture", "roots", "placeholder", "tabs", "collapsePolicy", "expandPolicy",
                "topColumnForCollapsing", "detailRouting", "sizePolicy",
            ]
            for key in wireConfigKeys {
                #expect(text.contains("`\(key)`"), "config key \(key) is not documented")
            }
            for policy in ["latest", "largest", "smallest", "manual"] {
                #expect(text.contains("`\(policy)`"), "size policy \(policy) is not documented")
            }
            #expect(text.contains("socat - UNIX-CONNECT:$SOCK") && text.contains("nc -U $SOCK"))
        }
    }
}
