import ArgumentParser
import SplitClient
import SplitWire
#if canImport(Glibc)
import Glibc
#endif

/// splitctl's exit codes (sysexits.h).
enum ExitStatus {
    /// EX_DATAERR: splitd answered with an error response (or broke the protocol).
    static let serverError = ExitCode(65)
    /// EX_UNAVAILABLE: splitd could not be reached.
    static let unavailable = ExitCode(69)
    /// EX_SOFTWARE: a bug or an unexpected system failure.
    static let internalError = ExitCode(70)
    /// EX_CONFIG: no --socket, and splitd's configuration (environment, config file), which
    /// says where it listens, cannot be read or is invalid.
    static let configuration = ExitCode(78)
}

/// Prints one `splitctl: ...` line on stderr; control characters (from splitd's messages,
/// which may quote an id) are shown as `\xHH`, so it stays one harmless line.
func printError(_ message: String) {
    fflush(nil)  // keep stdout lines before the error line
    let line = Array(("splitctl: " + visible(message) + "\n").utf8)
    line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}

/// The exit code of a failure and its one-line message.
func exitCode(for error: ClientError) -> ExitCode {
    switch error {
    // Refused as a peer (the allow-list): as unusable as a socket it may not open.
    case .server(code: "unauthorized", _): ExitStatus.unavailable
    // Refused at connection time, full (limits.maxClients or the open-file limit): a daemon
    // that cannot serve now, which a script may retry, like `unauthorized`.
    case let .server(code, message) where isTooManyClients(code: code, message: message): ExitStatus.unavailable
    case .server, .protocolViolation: ExitStatus.serverError
    case .noSocket, .connectionRefused, .notASocket, .permissionDenied, .pathTooLong, .closed, .timedOut:
        ExitStatus.unavailable
    case .system: ExitStatus.internalError
    }
}

/// splitd's refusal of a connection beyond `limits.maxClients` (or the open-file limit): an
/// error with `"id": null` sent on accepting, before it closes the connection, worded
/// `too many clients (limit N)` or `too many clients (the open-file limit ...)`. Other
/// `limit_exceeded` errors (too many scenes, a stack too deep...) answer a request and stay 65.
func isTooManyClients(code: String, message: String) -> Bool {
    code == "limit_exceeded" && message.lowercased().hasPrefix("too many clients")
}

/// Runs `body` on a fresh connection; maps every client failure to one stderr line and its exit code.
func withConnection<T>(_ global: GlobalOptions, _ body: (SplitConnection) throws(ClientError) -> T) throws -> T {
    let path = try global.socketPath()
    var opened: SplitConnection?
    do {
        let connection = try SplitConnection.connect(to: path, timeout: global.timeoutDuration)
        opened = connection
        defer { connection.close() }
        return try body(connection)
    } catch {
        // `--json` prints the response without `id`/`ok`: for an error, its `error` object
        // (the stderr line and the exit code stay, for scripts that check either).
        if global.json, case let .server(code, message) = error { emitJSONError(code: code, message: message) }
        printError(error.description)
        // A limit_exceeded that came as an id-null refusal before the close is the connection's,
        // whatever its wording: 69 as well.
        if case .server(code: "limit_exceeded", _) = error,
            opened?.unreadableResponses.contains(where: { $0["error"]?["code"]?.string == "limit_exceeded" }) == true
        {
            throw ExitStatus.unavailable
        }
        throw exitCode(for: error)
    }
}

/// `--json`'s form of an error answer: the response without `id`/`ok`, on stdout.
func emitJSONError(code: String, message: String) {
    emit(JSONWriter.string(.object(["error": .object(["code": .string(code), "message": .string(message)])])))
}
