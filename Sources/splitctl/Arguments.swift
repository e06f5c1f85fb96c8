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

/// A JSON object given inline or as `@file` (`-` reads stdin: `@-`). Options and arguments
/// of this type use `transform: JSONArgument.init(parsing:)`, so a refusal says why (the
/// parse error, a missing file) instead of only "is invalid".
struct JSONArgument {
    var value: JSONValue

    /// Why the text is not a JSON object; ArgumentParser appends it to its message.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(parsing argument: String) throws {
        var text = argument
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            if path == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard FileManager.default.fileExists(atPath: path) else { throw Problem(description: "no such file: \(path)") }
                guard let data = FileManager.default.contents(atPath: path) else { throw Problem(description: "cannot read \(path)") }
                text = String(decoding: data, as: UTF8.self)
            }
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            // A file's text (`@file`) is told by line and column; a one-line value by its byte.
            let place = text.contains("\n") ? error.description(in: Array(text.utf8)) : error.description
            throw Problem(description: "not valid JSON (\(place))")
        }
        guard value.object != nil else { throw Problem(description: "expected a JSON object, got \(value.typeName)") }
        self.value = value
    }
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
