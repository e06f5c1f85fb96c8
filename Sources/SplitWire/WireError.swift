import SplitCore

/// An error code of protocol 1 (WIRE.md "Error codes"). An open set: a client reading a
/// newer server may meet codes not listed here, so this is a string wrapper, not an enum.
public struct WireErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The line is not JSON, or not a JSON object.
    public static let badJSON = WireErrorCode(rawValue: "bad_json")
    /// A missing or invalid field (the message names it), including an unknown intent kind.
    public static let badRequest = WireErrorCode(rawValue: "bad_request")
    public static let unknownOp = WireErrorCode(rawValue: "unknown_op")
    public static let versionMismatch = WireErrorCode(rawValue: "version_mismatch")
    public static let unknownScene = WireErrorCode(rawValue: "unknown_scene")
    public static let sceneExists = WireErrorCode(rawValue: "scene_exists")
    public static let unknownDevice = WireErrorCode(rawValue: "unknown_device")
    /// Impossible navigation: pop at a root, unknown column, tab out of range.
    public static let invalidIntent = WireErrorCode(rawValue: "invalid_intent")
    /// A stale `baseRevision`.
    public static let conflict = WireErrorCode(rawValue: "conflict")
    public static let frameTooLarge = WireErrorCode(rawValue: "frame_too_large")
    public static let limitExceeded = WireErrorCode(rawValue: "limit_exceeded")
    public static let unauthorized = WireErrorCode(rawValue: "unauthorized")
    /// The database refused a write; the change was not applied.
    public static let storage = WireErrorCode(rawValue: "storage")
    public static let `internal` = WireErrorCode(rawValue: "internal")
    /// Cluster mode (WIRE.md "Cluster mode"): etcd cannot be reached or the scene's
    /// ownership is moving; nothing was applied, retry.
    public static let unavailable = WireErrorCode(rawValue: "unavailable")

    /// Every code of WIRE.md's minimum set.
    public static let protocolOne: [WireErrorCode] = [
        .badJSON, .badRequest, .unknownOp, .versionMismatch, .unknownScene, .sceneExists, .unknownDevice,
        .invalidIntent, .conflict, .frameTooLarge, .limitExceeded, .unauthorized, .storage, .internal,
    ]

    /// The wire code of a core refusal.
    public init(_ code: CoreError.Code) {
        self.init(rawValue: code.rawValue)
    }

    public var description: String { rawValue }
}

/// An error response's `{"code", "message"}`.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: WireErrorCode
    /// Human text; names the offending field for `bad_request`.
    public var message: String

    public init(_ code: WireErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: CoreError) {
        self.init(WireErrorCode(error.code), error.message)
    }

    public static func badRequest(_ message: String) -> WireError { WireError(.badRequest, message) }

    public var description: String { "\(code.rawValue): \(message)" }
}
