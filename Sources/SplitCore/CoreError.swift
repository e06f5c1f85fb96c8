/// Why the core refused a request. The state is untouched whenever one is thrown.
/// `code` is the wire error code (WIRE.md).
public struct CoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        /// A missing or invalid field (bad size, bad width, bad config value).
        case badRequest = "bad_request"
        /// Neither a device profile nor a rule set of that name.
        case unknownDevice = "unknown_device"
        /// Impossible navigation: pop at a root, unknown column, tab out of range...
        case invalidIntent = "invalid_intent"
        /// A stack or presentation limit would be exceeded.
        case limitExceeded = "limit_exceeded"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func badRequest(_ message: String) -> CoreError { CoreError(.badRequest, message) }
    public static func invalidIntent(_ message: String) -> CoreError { CoreError(.invalidIntent, message) }
}
