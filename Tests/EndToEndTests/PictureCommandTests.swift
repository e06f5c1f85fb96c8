import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// splitctl render, snapshot --svg and sweep against a real daemon (docs/PICTURES.md).
    @Suite struct PictureCommands {
        func temporaryDirectory() throws -> String {
            let path = NSTemporaryDirectory() + "pictures-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        /// `x="…" width="…"` of every column frame in an SVG, in order.
        func frames(_ svg: String) -> [(x: Double, width: Double)] {
            svg.split(separator: "\n").filter { $0.contains("class=\"frame\"") }.compactMap { line in
                func value(_ name: String) -> Double? {
                    guard let start = line.range(of: " \(name)=\"") else { return nil }
                    return Double(line[start.upperBound...].prefix { $0 != "\"" })
                }
                guard let x = value("x"), let width = value("width") else { return nil }
                return (x, width)
            }
        }

        @Test func renderDrawsTheCurrentLayout() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let layout = try connection.getScene("mail").layout
                let output = try splitctl(daemon, "render", "mail")
                #expect(output.exitCode == 0, "\(output)")
                #expect(output.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
                let drawn = frames(output.stdout)
                #expect(drawn.map(\.x) == layout.visibleColumns.map(\.x))
                #expect(drawn.map(\.width) == layout.visibleColumns.map(\.width))
                #expect(output.stdout.contains("scene mail · revision 1"))

                let directory = try temporaryDirectory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let file = directory + "/mail.svg"
                #expect(try splitctl(daemon, "render", "mail", "--revision", "1", "--out", file).exitCode == 0)
                #expect(try String(contentsOfFile: file, encoding: .utf8).contains("class=\"frame\""))
                let stale = try splitctl(daemon, "render", "mail", "--revision", "7")
                #expect(stale.exitCode == 65 && stale.stderr.contains("is at revision 1; 7 has not happened"))
                #expect(try splitctl(daemon, "render", "nope").exitCode == 65)
            }
        }

        @Test func snapshotWritesOnePicturePerSizeAndAStrip() throws {
            try withDaemon { daemon in
                let connection = try daemon.client("owner")
                try connection.createScene("mail", device: IPadPro129.device, config: mailConfig)
                let directory = try temporaryDirectory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let output = try splitctl(
                    daemon, "snapshot", "mail", "--size", "375x1024", "--size", "1024x1366", "--svg", directory)
                #expect(output.exitCode == 0, "\(output)")
                let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                #expect(names == ["01-375x1024.svg", "02-1024x1366.svg", "session.svg"])
                let compact = try String(contentsOfFile: directory + "/01-375x1024.svg", encoding: .utf8)
                #expect(frames(compact).map(\.width) == [375])
                #expect(compact.contains(">collapsed<"))
                let strip = try String(contentsOfFile: directory + "/session.svg", encoding: .utf8)
                #expect(strip.components(separatedBy: "class=\"snapshot\"").count == 3)
            }
        }

        @Test func sweepListsBreakpoints() throws {
            let output = try splitctl(
                nil, "--json", "sweep", "--device", "compact-below-1000", "--from", "990", "--to", "1010", "--height",
                "800")
            let intervals = try #require(try jsonOutput(output)["intervals"]?.array)
            #expect(intervals.map { $0["from"]?.double } == [990, 1000])
            #expect(intervals.map { $0["to"]?.double } == [999, 1010])
            #expect(intervals.map { $0["summary"]?["collapsed"]?.bool } == [true, false])

            let text = try splitctl(
                nil, "sweep", "--device", "regular-above-414", "--from", "400", "--to", "430", "--height", "800")
            #expect(text.exitCode == 0)
            #expect(text.lines.first?.hasPrefix("400-414\tcompact/regular\tcollapsed") == true, "\(text.stdout)")

            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let chart = try splitctl(
                nil, "sweep", "--device", "ipad-pro-12.9", "--from", "300", "--svg", directory + "/sweep.svg")
            #expect(chart.exitCode == 0)
            let svg = try String(contentsOfFile: directory + "/sweep.svg", encoding: .utf8)
            #expect(svg.contains("class=\"mark\" data-at=\"678\""), "the 1/2 preset is marked")

            #expect(try splitctl(nil, "sweep").exitCode == 64)
            #expect(try splitctl(nil, "sweep", "--device", "nope").exitCode == 65)
            #expect(try splitctl(nil, "sweep", "--device", "mac", "--from", "1", "--to", "200000").exitCode == 65)
        }
    }
}
