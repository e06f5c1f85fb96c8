import ArgumentParser
import SplitCore
import SplitWire

// One readable subcommand per intent kind of WIRE.md.

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Push VC onto COLUMN's stack.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "primary, supplementary, secondary, compact or inspector.") var column: ColumnArgument
    @Argument(help: "View-controller id.") var vc: String

    func run() throws {
        try runIntent(global, change, column.wireObject { Intent.push(column: $0, vc: vc) })
    }
}

struct Pop: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Pop the top of COLUMN's stack.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "Column (or inspector).") var column: ColumnArgument

    func run() throws { try runIntent(global, change, column.wireObject { Intent.pop(column: $0) }) }
}

struct PopToRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pop-to-root", abstract: "Pop COLUMN's stack to its root.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "Column (or inspector).") var column: ColumnArgument

    func run() throws { try runIntent(global, change, column.wireObject { Intent.popToRoot(column: $0) }) }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show VC from COLUMN (a push in the sender's column).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    // `inspector` is sent as named: the daemon refuses it with what to use instead.
    @Argument(help: "The sender's column (not inspector: use push or show-column).") var column: ColumnArgument
    @Argument(help: "View-controller id.") var vc: String

    func run() throws { try runIntent(global, change, column.wireObject { Intent.show(vc: vc, column: $0) }) }
}

struct ShowDetail: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-detail", abstract: "Show VC as the detail (secondary).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "View-controller id.") var vc: String

    func run() throws { try runIntent(global, change, Intent.showDetail(vc: vc).wireObject) }
}

struct Back: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The system back action.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    func run() throws { try runIntent(global, change, Intent.back.wireObject) }
}

struct SelectTab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select-tab", abstract: "Select tab INDEX (0-based).",
        // The index is required: optional only in its declaration (see `index`).
        usage:
            "splitctl select-tab [--socket <path>] [--json] [--timeout <seconds>] <scene> [--base-revision <base-revision>] <index>"
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    /// Optional so that `select-tab mail -1`, where ArgumentParser takes `-1` for an option
    /// and the index looks missing, reaches `validate()` and is refused as negative.
    @Argument(help: "Tab index, from 0.") var index: Int?

    func validate() throws {
        guard let index else {
            if let negative = strayNegativeNumber() { throw Self.negativeIndex(negative) }
            throw ValidationError("missing expected argument '<index>'")
        }
        if index < 0 { throw Self.negativeIndex(String(index)) }
    }

    private static func negativeIndex(_ text: String) -> ValidationError {
        ValidationError("the tab index must be 0 or more, not \(text)")
    }

    func run() throws { try runIntent(global, change, Intent.selectTab(index: index ?? 0).wireObject) }
}

struct Present: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Present VC modally.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "View-controller id.") var vc: String
    @Option(help: "automatic, fullScreen, pageSheet, formSheet or popover.")
    var style = PresentStyleArgument(style: .pageSheet)
    @Option(help: "What a popover points at: a visible view controller, or displayModeButton.") var anchor: String?
    @Flag(
        name: .customLong("edge-attached"),
        help: "prefersEdgeAttachedInCompactHeight: stay a sheet in a compact height.")
    var edgeAttached = false

    func run() throws {
        guard anchor != nil || edgeAttached || style.style == nil,
            case .object(var object) = Intent.present(
                vc: vc, style: style.style ?? .pageSheet
            ).wireObject
        else {
            return try runIntent(global, change, Intent.present(vc: vc, style: style.style ?? .pageSheet).wireObject)
        }
        object["style"] = .string(style.style?.rawValue ?? "automatic")
        if let anchor { object["anchor"] = .string(anchor) }
        if edgeAttached { object["prefersEdgeAttachedInCompactHeight"] = true }
        try runIntent(global, change, .object(object))
    }
}

struct Activation: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set the scene's activation state (background runs the app-switcher session).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "foregroundActive, foregroundInactive or background.") var state: ActivationState

    func run() throws {
        try runIntent(global, change, ["kind": "activation", "state": .string(state.rawValue)])
    }
}

struct Dismiss: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Dismiss the top presentation.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    func run() throws { try runIntent(global, change, Intent.dismiss.wireObject) }
}

struct SetDisplayMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-display-mode",
        abstract: "Set the preferred display mode (UIKit aliases such as allVisible accepted).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "Display mode.") var mode: DisplayModeArgument

    func run() throws { try runIntent(global, change, Intent.setPreferredDisplayMode(mode.mode).wireObject) }
}

struct DisplayModeButton: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display-mode-button", abstract: "Tap the display-mode button.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    func run() throws { try runIntent(global, change, Intent.displayModeButton.wireObject) }
}

struct Gesture: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The edge swipe gesture.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    func run() throws { try runIntent(global, change, Intent.gesture.wireObject) }
}

struct TapDimmed: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tap-dimmed", abstract: "Tap the dimmed secondary.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions

    func run() throws { try runIntent(global, change, Intent.tapDimmed.wireObject) }
}

struct ShowColumn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-column", abstract: "Show COLUMN (UIKit show(_:)).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "Column (or inspector).") var column: ColumnArgument

    func run() throws { try runIntent(global, change, column.wireObject { Intent.showColumn($0) }) }
}

struct HideColumn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide-column", abstract: "Hide COLUMN (UIKit hide(_:)).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(help: "Column (or inspector).") var column: ColumnArgument

    func run() throws { try runIntent(global, change, column.wireObject { Intent.hideColumn($0) }) }
}

struct SetConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-config",
        abstract: "Change the split configuration (a partial config object).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var change: ChangeOptions
    @Argument(
        help: ArgumentHelp(
            "A JSON object or @file, e.g. '{\"style\":\"tripleColumn\"}' (@- reads stdin).", valueName: "json"),
        transform: JSONArgument.init(parsing:))
    var config: JSONArgument

    func run() throws {
        try runIntent(global, change, ["kind": "setConfig", "config": config.value])
    }
}
