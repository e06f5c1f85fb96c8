import SplitCore
import SplitWire

// Request line -> handler. Every request gets exactly one reply, staged in the turn.
extension Server {
    func handle(line: UnsafeRawBufferPointer, from session: ClientSession) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            reply(error: RequestError(.badJSON, "not JSON: \(error)"), id: .null, to: session)
            return
        }
        guard case .object(let object) = value else {
            reply(error: RequestError(.badJSON, "a request must be a JSON object"), id: .null, to: session)
            return
        }
        let id = object["id"] ?? .null
        guard let op = object["op"]?.string else {
            reply(error: RequestError(.badRequest, "missing field 'op'"), id: id, to: session)
            return
        }
        switch op {
        case "ping":
            stage(.fixed(Replies.ok(id: id) { $0.rawKey("pong"); $0.write(true) }), for: session)
        case "hello":
            guard let version = object["protocol"]?.int else {
                reply(error: RequestError(.badRequest, "missing field 'protocol'"), id: id, to: session)
                return
            }
            guard version == 1 else {
                reply(error: RequestError(.versionMismatch, "protocol \(version) is not supported; this server speaks protocol 1"), id: id, to: session)
                return
            }
            stage(.fixed(Replies.ok(id: id) {
                $0.rawKey("protocol"); $0.write(1)
                $0.rawKey("server"); $0.write("splitd \(SplitdVersion.current)")
            }), for: session)
        default:
            reply(error: RequestError(.unknownOp, "unknown op '\(op)'"), id: id, to: session)
        }
    }

    func reply(error: RequestError, id: JSONValue, to session: ClientSession) {
        stats.count(error: error.code)
        stage(.fixed(Replies.error(id: id, code: error.code, message: error.message)), for: session)
    }
}

/// The daemon's version, reported by `hello` and `--version`.
public enum SplitdVersion {
    public static let current = "0.1.0"
}
