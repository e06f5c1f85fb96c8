import ArgumentParser
import Foundation
import SplitCore
import SplitWire

/// A window size written `WIDTHxHEIGHT` in points, e.g. `1366x1024` or `678.5x1024`.
struct WindowSize: ExpressibleByArgument {
    var size: Size

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width.isFinite, height.isFinite else { return nil }
        size = Size(width: width, height: height)
    }

    static var defaultValueDescription: String { "WIDTHxHEIGHT" }
}

/// A JSON object given inline or as `@file` (`-` reads stdin: `@-`).
struct JSONArgument: ExpressibleByArgument {
    var value: JSONValue

    init?(argument: String) {
        guard let value = try? JSONArgument.parse(argument) else { return nil }
        self.value = value
    }

    static func parse(_ argument: String) throws -> JSONValue {
        var text = argument
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: path))
            text = String(decoding: data, as: UTF8.self)
        }
        let value = try JSONParser.parse(text)
        guard value.object != nil else { throw ValidationError("expected a JSON object") }
        return value
    }

    static var defaultValueDescription: String { "JSON object or @file" }
}

extension Column: ExpressibleByArgument {}
extension PresentationStyle: ExpressibleByArgument {}
extension SizePolicy: ExpressibleByArgument {}

/// A display mode by its wire name or a deprecated UIKit alias (`allVisible`...).
struct DisplayModeArgument: ExpressibleByArgument {
    var mode: DisplayMode

    init?(argument: String) {
        guard let mode = DisplayMode(wireName: argument) else { return nil }
        self.mode = mode
    }

    static var allValueStrings: [String] { DisplayMode.allCases.map(\.rawValue) }
}

/// Whole milliseconds of a duration, for human output.
func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    return String(format: "%.2f", value)
}
