import ArgumentParser

/// Options every subcommand accepts (before or after the subcommand name).
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("splitd's socket path.", valueName: "path"))
    var socket: String?

    @Flag(
        name: .long,
        help: "Print JSON, one object per line: splitd's result objects (simulate: its run summary; attach: ignored).")
    var json = false

    // .unconditional: `--timeout -1` is a value to refuse, not a missing value and an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Seconds to wait for splitd's answer.", valueName: "seconds"))
    var timeout: Double = 10

    /// The socket path as the daemon resolves it (`SocketLocation`); on failure prints the
    /// one-line error and throws `ExitStatus.configuration`.
    func socketPath() throws -> String {
        do {
            return try SocketLocation.cached(explicit: socket)
        } catch {
            printError(error.description)
            throw ExitStatus.configuration
        }
    }

    /// The largest `--timeout`: about 11.6 days. Far larger values overflowed the conversion
    /// to a Duration (a crash above 9.2e15 s); nobody waits that long for an answer.
    static let longestTimeout: Double = 1_000_000

    var timeoutDuration: Duration { .milliseconds(Int64(min(max(timeout, 0), Self.longestTimeout) * 1000)) }

    func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
        guard timeout <= Self.longestTimeout else {
            throw ValidationError("--timeout must be at most \(points(Self.longestTimeout)) seconds")
        }
        // `--socket "$SOCK"` with SOCK unset: refused rather than resolved from the environment
        // (which --socket promises not to read).
        if socket?.isEmpty == true { throw ValidationError("--socket needs a path, not an empty string") }
    }
}
