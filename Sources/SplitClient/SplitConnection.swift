#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SplitWire

/// A blocking protocol-1 connection to splitd.
///
/// Requests get increasing integer ids. Reading for one response sets aside everything else
/// that arrives: pushes (objects with `"event"` and no `id`) go to `pushes`, responses to
/// other ids (pipelined requests) wait in a table until asked for, and responses with
/// `"id": null` (lines the daemon could not read) go to `unreadableResponses`. Every
/// blocking call has a deadline. Not thread-safe: one owner at a time.
public final class SplitConnection {
    public let socket: UnixSocket
    /// Default wait for one response.
    public var timeout: Duration
    /// Pushes received and not yet taken, oldest first.
    public private(set) var pushes: [JSONValue] = []
    /// Responses with `"id": null`, oldest first.
    public private(set) var unreadableResponses: [JSONValue] = []

    private var lines = LineBuffer()
    private var waitingResponses: [JSONValue: JSONValue] = [:]
    private var nextID: Int64 = 1
    private var sawEndOfStream = false
    /// The last message read, to tell a refusal (an id-null error right before the close)
    /// from an older id-null error.
    private var lastMessage: JSONValue?

    public init(socket: UnixSocket, timeout: Duration = .seconds(10)) {
        self.socket = socket
        self.timeout = timeout
    }

    /// Connects to the daemon at `path`.
    public static func connect(to path: String, timeout: Duration = .seconds(10)) throws(ClientError) -> SplitConnection
    {
        SplitConnection(socket: try UnixSocket.connect(path: path, deadline: .after(timeout)), timeout: timeout)
    }

    /// Connects, retrying while the socket does not exist or refuses connections (a daemon
    /// that is still starting), until `within` has passed.
    public static func connectWhenReady(
        to path: String, within: Duration = .seconds(20),
        retryEvery: Duration = .milliseconds(20),
        timeout: Duration = .seconds(10)
    ) throws(ClientError) -> SplitConnection {
        let deadline = Deadline.after(within)
        while true {
            do {
                return try connect(to: path, timeout: timeout)
            } catch let error where error.isConnectionFailure && error != .closed && !deadline.hasPassed {
                sleep(for: retryEvery)
            } catch let error where error.isConnectionFailure {
                throw .timedOut(what: "splitd to accept connections on \(path) (last error: \(error))")
            }
        }
    }

    /// Closes the connection; pending responses are dropped.
    public func close() { socket.close() }

    // MARK: Sending

    /// Writes a request and answers its id without waiting for the response.
    @discardableResult
    public func send(op: String, _ params: JSONObject = JSONObject()) throws(ClientError) -> JSONValue {
        let id = JSONValue.int(nextID)
        nextID += 1
        var request = JSONObject()
        request["id"] = id
        request["op"] = .string(op)
        for member in params { request[member.key] = member.value }
        try sendLine(JSONWriter.string(.object(request)))
        return id
    }

    /// Writes a request object as given; an `id` is added when it has none. Answers the id.
    @discardableResult
    public func send(request: JSONObject) throws(ClientError) -> JSONValue {
        var request = request
        if request["id"] == nil {
            request["id"] = .int(nextID)
            nextID += 1
        }
        try sendLine(JSONWriter.string(.object(request)))
        return request["id"] ?? .null
    }

    /// Writes `line` plus a terminating newline, as is (no validation: tests send garbage).
    public func sendLine(_ line: String) throws(ClientError) {
        try sendRaw(Array(line.utf8) + [UInt8(ascii: "\n")])
    }

    /// Writes raw bytes, as is.
    public func sendRaw(_ bytes: [UInt8]) throws(ClientError) {
        do {
            try socket.write(bytes, deadline: .after(timeout))
        } catch .closed {
            throw refusalOrClosed()
        }
    }

    /// Why the daemon closed the connection: a daemon that refuses a peer (unauthorized,
    /// frame_too_large) says so in an id-null error just before closing; report that error
    /// rather than a bare close. Reads what is left for a short while to find it.
    private func refusalOrClosed() -> ClientError {
        let deadline = Deadline.after(.milliseconds(500))
        while !sawEndOfStream || lines.bufferedCount > 0 {
            guard let message = try? nextMessage(deadline: deadline), (try? file(message)) != nil else { break }
        }
        if let refusal = lastMessage, refusal["id"] == .null, let code = refusal["error"]?["code"]?.string {
            return .server(code: code, message: refusal["error"]?["message"]?.string ?? "")
        }
        return .closed
    }

    // MARK: Receiving

    /// The full response object (`ok` true or false) for request `id`.
    public func response(to id: JSONValue, timeout: Duration? = nil) throws(ClientError) -> JSONValue {
        let deadline = Deadline.after(timeout ?? self.timeout)
        while true {
            if let response = waitingResponses.removeValue(forKey: id) { return response }
            do {
                try file(try nextMessage(deadline: deadline))
            } catch .closed {
                throw refusalOrClosed()
            }
        }
    }

    /// Sends `op` and waits for its response; answers the response object minus `id`/`ok`
    /// when ok, throws `.server(code, message)` when not.
    @discardableResult
    public func call(
        _ op: String, _ params: JSONObject = JSONObject(), timeout: Duration? = nil
    ) throws(ClientError) -> JSONValue {
        let id = try send(op: op, params)
        return try result(of: try response(to: id, timeout: timeout))
    }

    /// The next push, waiting until `timeout` for one.
    public func nextPush(timeout: Duration? = nil) throws(ClientError) -> JSONValue {
        let deadline = Deadline.after(timeout ?? self.timeout)
        while pushes.isEmpty { try file(try nextMessage(deadline: deadline)) }
        return pushes.removeFirst()
    }

    /// Takes every push received so far.
    public func takePushes() -> [JSONValue] {
        defer { pushes.removeAll() }
        return pushes
    }

    /// The next response with `"id": null`, waiting until `timeout` for one.
    public func nextUnreadableResponse(timeout: Duration? = nil) throws(ClientError) -> JSONValue {
        let deadline = Deadline.after(timeout ?? self.timeout)
        while unreadableResponses.isEmpty { try file(try nextMessage(deadline: deadline)) }
        return unreadableResponses.removeFirst()
    }

    /// The next message of any kind, not set aside (for tests of raw framing).
    public func nextMessage(timeout: Duration? = nil) throws(ClientError) -> JSONValue {
        try nextMessage(deadline: .after(timeout ?? self.timeout))
    }

    /// Reads (and files away) everything until the daemon closes the connection; true if it
    /// did before `timeout`, false if it was still open.
    public func awaitClose(timeout: Duration? = nil) throws(ClientError) -> Bool {
        let deadline = Deadline.after(timeout ?? self.timeout)
        while true {
            do {
                try file(try nextMessage(deadline: deadline))
            } catch .closed {
                return true
            } catch .timedOut {
                return false
            }
        }
    }

    /// Reads and files away everything that arrives until nothing more comes for `quiet`.
    public func drain(quiet: Duration = .milliseconds(100)) throws(ClientError) {
        while true {
            do {
                try file(try nextMessage(deadline: .after(quiet)))
            } catch .timedOut {
                return
            }
        }
    }

    private func nextMessage(deadline: Deadline) throws(ClientError) -> JSONValue {
        while true {
            if let line = try lines.nextLine() {
                let message = try parseMessage(line)
                lastMessage = message
                return message
            }
            if sawEndOfStream { throw .closed }
            let bytes = try socket.read(deadline: deadline)
            if bytes.isEmpty { sawEndOfStream = true } else { lines.append(bytes) }
        }
    }

    /// Files one message where it belongs: a push, a response to someone's id, or an id-null response.
    private func file(_ message: JSONValue) throws(ClientError) {
        guard let object = message.object else {
            throw .protocolViolation("a message that is not an object: \(message)")
        }
        if let id = object["id"] {
            if id.isNull { unreadableResponses.append(message) } else { waitingResponses[id] = message }
        } else if object["event"] != nil {
            pushes.append(message)
        } else {
            throw .protocolViolation("a message with neither id nor event: \(message)")
        }
    }

    private func parseMessage(_ line: [UInt8]) throws(ClientError) -> JSONValue {
        do {
            return try JSONParser.parse(line)
        } catch {
            throw .protocolViolation(
                "unparsable line from splitd (\(error)): \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
    }
}

/// The result part of a response: the object without `id` and `ok` when `ok` is true;
/// `.server` when false; `.protocolViolation` when it is not a response.
public func result(of response: JSONValue) throws(ClientError) -> JSONValue {
    guard var object = response.object, let ok = object["ok"]?.bool else {
        throw .protocolViolation("a response without a boolean 'ok': \(response)")
    }
    if ok {
        object["id"] = nil
        object["ok"] = nil
        return .object(object)
    }
    let error = object["error"]
    guard let code = error?["code"]?.string else {
        throw .protocolViolation("an error response without error.code: \(response)")
    }
    throw .server(code: code, message: error?["message"]?.string ?? "")
}

func sleep(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
}
