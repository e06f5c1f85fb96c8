import ArgumentParser
import Foundation
import SplitClient
import SplitCore
#if canImport(Glibc)
import Glibc
#endif

/// `splitctl attach SCENE`: the terminal becomes a live window of the scene (docs/TERMINAL.md).
struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make this terminal a live window of a scene: resize it, watch the split, drive it with keys.",
        discussion: """
            The terminal's size in cells is converted to points (default 1 column = 8 pt, \
            1 row = 16 pt; --cell-width/--cell-height or $SPLITCTL_CELL=8x16) and sent on attach \
            and on every resize. Every layout splitd pushes is drawn full-screen; press ? for the \
            keys. The daemon going away is survived: the client reconnects with backoff and \
            re-attaches. Needs a terminal on stdin and stdout (ANSI/xterm, tmux, no terminfo).
            Ends with 0 when the scene is deleted. After a reconnect the scene is never created \
            (even with --create): if it is gone, attach exits 65.
            Exit codes: 0 quit or scene deleted, 64 usage or not a terminal, 65 error response \
            (e.g. unknown_scene without --create, or after a reconnect), 69 splitd unreachable at \
            start, 78 no --socket and splitd's configuration cannot be read, 128+N ended by signal N.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Scene id.")
    var scene: String

    @Option(help: "window (the terminal's size sizes the scene) or viewer (watch and drive, size ignored).")
    var role: AttachRoleArgument = .init(role: .window)

    @Flag(help: "Create the scene if it does not exist (needs --device).")
    var create = false

    @Option(help: "Device profile or rule set for --create.")
    var device: String?

    @Option(
        help: ArgumentHelp("Split configuration for --create: a JSON object or @file.", valueName: "json"),
        transform: JSONArgument.init(parsing:))
    var config: JSONArgument?

    // .unconditional: `--cell-width -1` is a value to refuse, not a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Points per terminal column (default 8, or $SPLITCTL_CELL).", valueName: "pt"))
    var cellWidth: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Points per terminal row (default 16, or $SPLITCTL_CELL).", valueName: "pt"))
    var cellHeight: Double?

    func validate() throws {
        if create, device == nil { throw ValidationError("--create needs --device ID") }
        if !create, device != nil || config != nil {
            throw ValidationError("--device and --config only apply with --create")
        }
        for (name, value) in [("--cell-width", cellWidth), ("--cell-height", cellHeight)] {
            if let value, !(value > 0 && value.isFinite) {
                throw ValidationError("\(name) must be a positive number of points, not \(points(value))")
            }
        }
        _ = try metrics()
    }

    /// Defaults, then `$SPLITCTL_CELL`, then the options.
    func metrics() throws -> CellMetrics {
        var metrics = CellMetrics()
        if let text = ProcessInfo.processInfo.environment[CellMetrics.environmentVariable], !text.isEmpty {
            guard let parsed = CellMetrics(parsing: text) else {
                throw ValidationError(
                    "$\(CellMetrics.environmentVariable) must look like 8x16 (points per column x per row), not '\(text)'"
                )
            }
            metrics = parsed
        }
        if let cellWidth { metrics.width = cellWidth }
        if let cellHeight { metrics.height = cellHeight }
        return metrics
    }

    func run() throws {
        guard isatty(0) == 1, isatty(1) == 1 else {
            printError("attach needs a terminal on stdin and stdout (use `splitctl watch` in scripts)")
            throw ExitCode.validationFailure
        }
        guard let size = TerminalSize.of(fd: 1) else {
            // `script` without a size, some CI ptys, serial consoles.
            printError("the terminal reports no size (0x0): set one, e.g. with `stty rows 40 cols 120`")
            throw ExitCode.validationFailure
        }
        let options = AttachOptions(
            scene: scene, role: role.role, create: create, device: device, config: config?.value,
            metrics: try metrics(), socketPath: try global.socketPath(), timeout: global.timeoutDuration,
            utf8: localeIsUTF8(ProcessInfo.processInfo.environment))
        let session = AttachSession(options: options, terminal: size)
        do {
            try session.connectFirst()
        } catch {
            printError(error.description)
            throw attachExitCode(error)
        }
        let status = session.run()
        if let ending = session.ending {
            if ending.isError { printError(ending.message) } else { emit(ending.message) }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// splitctl's exit code for a client failure (the global function is hidden inside commands
/// by ParsableCommand's static `exitCode(for:)`).
private func attachExitCode(_ error: ClientError) -> ExitCode { exitCode(for: error) }
