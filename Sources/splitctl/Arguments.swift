import ArgumentParser
import Foundation
import SplitClient
import SplitCore
import SplitWire

/// A window size written `WIDTHxHEIGHT` in points, e.g. `1366x1024` or `678.5x1024`.
/// Zero and negative numbers parse, so that the command's `validate()` refuses them with
/// `invalidSize` (exit 64, splitd not contacted) rather than ArgumentParser's "is invalid".
struct WindowSize: ExpressibleByArgument {
    var size: Size
    /// As typed, for messages.
    var text: String

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
            width.isFinite, height.isFinite
        else { return nil }
        size = Size(width: width, height: height)
        text = argument
    }

    static var defaultValueDescription: String { "WIDTHxHEIGHT" }

    var isPositive: Bool { size.width > 0 && size.height > 0 }

    /// The usage error for a size that is not positive.
    static func invalidSize(_ text: String) -> ValidationError {
        ValidationError("'\(text)' is not a window size: WIDTHxHEIGHT takes positive numbers of points")
    }

    /// Refuses a zero or negative width or height (splitd would answer bad_request: 65).
    static func requirePositive(_ sizes: [WindowSize]) throws {
        if let bad = sizes.first(where: { !$0.isPositive }) { throw invalidSize(bad.text) }
    }
}

/// A command-line token ArgumentParser takes for an option although it is a negative number
/// (`-1`, `-2.5`): before `validate()` runs, an option or argument given one looks missing.
func isNegativeNumber(_ token: String) -> Bool {
    token.hasPrefix("-") && token.count > 1 && Double(token) != nil
}

/// The first negative number on the command line that no option took as its value; nil
/// when there is none. `valueOptions` are the options that take a value `parsing:
/// .unconditional` (so `--base-revision -3` is that option's, refused by its own check).
func strayNegativeNumber(valueOptions: Set<String> = ["--base-revision", "--timeout"]) -> String? {
    var previous = ""
    for token in CommandLine.arguments.dropFirst() {
        if token == "--" { return nil }
        if isNegativeNumber(token), !valueOptions.contains(previous) { return token }
        previous = token
    }
    return nil
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
                guard FileManager.default.fileExists(atPath: path) else {
                    throw Problem(description: "no such file: \(path)")
                }
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw Problem(description: "cannot read \(path)")
                }
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
extension Orientation: ExpressibleByArgument {}
extension ActivationState: ExpressibleByArgument {}

/// A column an intent may name: a `Column`, or the inspector (revision 2).
enum ColumnArgument: ExpressibleByArgument {
    case column(Column)
    case inspector

    init?(argument: String) {
        if argument == "inspector" {
            self = .inspector
        } else if let column = Column(rawValue: argument) {
            self = .column(column)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { Column.allCases.map(\.rawValue) + ["inspector"] }

    /// `intent`'s wire object for this column: the inspector's when it names the inspector.
    func wireObject(_ intent: (Column) -> Intent) -> JSONValue {
        switch self {
        case .column(let column): return intent(column).wireObject
        case .inspector:
            guard case .object(var object) = intent(.primary).wireObject else { return .null }
            object["column"] = "inspector"
            return .object(object)
        }
    }
}

/// A presentation style, `automatic` included (revision 2).
struct PresentStyleArgument: ExpressibleByArgument {
    /// nil: `automatic`.
    var style: PresentationStyle?

    init?(argument: String) {
        if argument == "automatic" {
            style = nil
        } else if let style = PresentationStyle(rawValue: argument) {
            self.style = style
        } else {
            return nil
        }
    }

    init(style: PresentationStyle?) { self.style = style }

    static var allValueStrings: [String] { ["automatic"] + PresentationStyle.allCases.map(\.rawValue) }
}
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
