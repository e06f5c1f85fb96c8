import SplitClient
import SplitCore
import SplitWire
import Testing

/// Runs `body` against a fresh daemon; on any thrown error, records it with the daemon's
/// log, and checks the daemon did not die along the way.
func withDaemon(
    durability: String = "full", extraArguments: [String] = [], environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (DaemonProcess) throws -> Void
) throws {
    let daemon = try DaemonProcess(durability: durability, extraArguments: extraArguments, environment: environment)
    do {
        try body(daemon)
    } catch {
        Issue.record("\(error)\n\(daemon.logTail())", sourceLocation: sourceLocation)
        return
    }
    if let process = daemon.process, let ended = process.pollExit() {
        Issue.record("splitd ended unexpectedly (\(ended))\n\(daemon.logTail())", sourceLocation: sourceLocation)
    }
}

/// The wire error code `body` failed with; nil if it succeeded (or failed otherwise, which
/// is recorded as an issue).
func serverErrorCode(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as ClientError {
        if let code = error.serverCode { return code }
        Issue.record("expected an error response, got \(error)", sourceLocation: sourceLocation)
        return nil
    } catch {
        Issue.record("expected an error response, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A raw request's full response (ok or not) for tests that check the wire shape itself.
func rawResponse(_ connection: SplitConnection, _ op: String, _ params: JSONObject = JSONObject()) throws -> JSONValue {
    try connection.response(to: connection.send(op: op, params))
}

/// The error code of a full response object, nil when ok.
func errorCode(of response: JSONValue) -> String? {
    response["ok"]?.bool == false ? response["error"]?["code"]?.string : nil
}

/// The configuration most tests use: named roots so stacks are visible.
let mailConfig: JSONValue = ["roots": ["primary": "inbox", "secondary": "detail"]]

/// The big iPad of SEMANTICS 2, its landscape screen and multitasking sizes.
enum IPadPro129 {
    static let device = "ipad-pro-12.9"
    static let landscape = Size(width: 1366, height: 1024)
    static let portrait = Size(width: 1024, height: 1366)
    /// Landscape 1/3 Split View: 375 pt wide, compact (SEMANTICS 2).
    static let oneThird = Size(width: 375, height: 1024)
    /// Landscape 1/2: 678 pt, regular.
    static let half = Size(width: 678, height: 1024)
    /// Landscape 2/3: 981 pt, regular.
    static let twoThirds = Size(width: 981, height: 1024)
}

extension Layout {
    /// The layout entry of `column`, if listed.
    func column(_ column: Column) -> ColumnLayout? { columns.first { $0.column == column } }
}
