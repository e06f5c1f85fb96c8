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
    case .server, .protocolViolation: ExitStatus.serverError
    case .noSocket, .connectionRefused, .notASocket, .permissionDenied, .pathTooLong, .closed, .timedOut: ExitStatus.unavailable
    case .system: ExitStatus.internalError
    }
}

/// Runs `body` on a fresh connection; maps every client failure to one stderr line and its exit code.
func withConnection<T>(_ global: GlobalOptions, _ body: (SplitConnection) throws(ClientError) -> T) throws -> T {
    let path = try global.socketPath()
    do {
        let connection = try SplitConnection.connect(to: path, timeout: global.timeoutDuration)
        defer { connection.close() }
        return try body(connection)
    } catch {
        // `--json` prints the response without `id`/`ok`: for an error, its `error` object
        // (the stderr line and the exit code stay, for scripts that check either).
        if global.json, case let .server(code, message) = error { emitJSONError(code: code, message: message) }
        printError(error.description)
        throw exitCode(for: error)
    }
}

/// `--json`'s form of an error answer: the response without `id`/`ok`, on stdout.
func emitJSONError(code: String, message: String) {
    emit(JSONWriter.string(.object(["error": .object(["code": .string(code), "message": .string(message)])])))
}
