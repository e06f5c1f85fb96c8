/// The wire error codes (WIRE.md minimum set plus nothing else so far).
enum ErrorCode: String, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case badRequest = "bad_request"
    case unknownOp = "unknown_op"
    case versionMismatch = "version_mismatch"
    case unknownScene = "unknown_scene"
    case sceneExists = "scene_exists"
    case unknownDevice = "unknown_device"
    case invalidIntent = "invalid_intent"
    case conflict
    case frameTooLarge = "frame_too_large"
    case limitExceeded = "limit_exceeded"
    case unauthorized
    case storage
    case `internal`
}

/// A request refused with a wire error code.
struct RequestError: Error, Sendable {
    var code: ErrorCode
    var message: String

    init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
