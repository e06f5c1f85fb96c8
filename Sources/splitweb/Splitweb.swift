import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// `splitweb`: browser tabs as live windows of splitd scenes. It serves one page and, per
/// tab, bridges a WebSocket to its own connection to splitd's socket. The daemon stays
/// libuv + SQLite only; this is a separate process.
@main
struct Splitweb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitweb",
        abstract: "Serve a page whose tabs attach to splitd scenes as windows.",
        discussion: """
            Prints, as its first stdout line, the URL to open, with a random access token \
            (as Jupyter does); add &scene=NAME (default web) and &device=D to create the \
            scene if it does not exist. The viewport's CSS size is the window's size in \
            points. Requests without the token, with another Host, or a WebSocket from \
            another Origin are refused (403; 400 for a refused WebSocket upgrade).
            """)

    @Option(help: ArgumentHelp("splitd's socket.", valueName: "PATH"))
    var socket: String = ProcessInfo.processInfo.environment["SPLITD_SOCKET"] ?? "/run/splitd/splitd.sock"

    @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free port.", valueName: "127.0.0.1:PORT"))
    var listen: String = "127.0.0.1:8470"

    @Option(help: ArgumentHelp("The access token (default: 32 random hex digits).", valueName: "TOKEN"))
    var token: String?

    func validate() throws {
        guard ListenAddress(listen) != nil else { throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:0") }
    }

    func run() async throws {
        let address = ListenAddress(listen)!
        let token = self.token ?? randomToken()
        let gate = Gate(token: token, host: address.host)
        let socketPath = socket
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { request, _ -> Response in
            try gate.check(request, websocket: false)
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Page.html)))
        }
        router.ws("/ws") { request, _ in
            try gate.check(request, websocket: true)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let query = context.request.uri.queryParameters
            let scene = query["scene"].map(String.init) ?? "web"
            let device = query["device"].map(String.init)
            var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            // The page's first message is its size: the window's size when attaching.
            guard case .text(let first) = try await messages.next(),
                let hello = (try? JSONSerialization.jsonObject(with: Data(first.utf8))) as? [String: Any],
                let width = hello["width"] as? Double, let height = hello["height"] as? Double,
                width > 0, height > 0
            else { return }
            let config = hello["config"] as? [String: Any]
            let session = TabSession(
                socketPath: socketPath, scene: scene, device: device, config: config,
                width: width.rounded(), height: height.rounded(), outbound: outbound)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await session.runDaemonSide() }
                while let message = try await messages.next() {
                    if case .text(let text) = message { await session.browserMessage(text) }
                }
                group.cancelAll()
                await session.stop()
            }
        }
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 22))),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "splitweb"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                gate.port = port
                // The URL line goes out unbuffered: a script waits for it on a pipe.
                let line = "http://\(address.host):\(port)/?token=\(token)\n"
                _ = line.withCString { write(1, $0, strlen($0)) }
            },
            logger: {
                var logger = Logger(label: "splitweb")
                logger.logLevel = .warning
                return logger
            }()
        )
        try await app.runService()
    }
}

/// `HOST:PORT`.
struct ListenAddress {
    var host: String
    var port: Int

    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon != text.startIndex
        else { return nil }
        host = String(text[..<colon])
        self.port = port
    }
}

func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in
        let byte = UInt8.random(in: 0...255, using: &generator)
        return (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }.joined()
}

/// Who may use the server: requests carrying the token, addressed to this server's own
/// host and port (a page of another site cannot reach it through DNS rebinding), and, for
/// the WebSocket, coming from this server's own page (Origin), since browsers let any
/// site open a WebSocket to 127.0.0.1.
final class Gate: @unchecked Sendable {
    let token: String
    let host: String
    private let lock = NSLock()
    private var boundPort = 0  // guarded by `lock`

    /// The port the server is bound to, known once it runs (`--listen` may say 0).
    var port: Int {
        get { lock.withLock { boundPort } }
        set { lock.withLock { boundPort = newValue } }
    }

    init(token: String, host: String) {
        self.token = token
        self.host = host
    }

    func check(_ request: Request, websocket: Bool) throws {
        let port = self.port
        let hosts = Set([host, "localhost", "127.0.0.1"].map { "\($0):\(port)" })
        guard request.uri.queryParameters["token"].map(String.init) == token else {
            throw HTTPError(.forbidden, message: "missing or wrong token")
        }
        guard let requestHost = request.head.authority, hosts.contains(requestHost) else {
            throw HTTPError(.forbidden, message: "unexpected Host")
        }
        let origin = request.headers[.origin]
        if websocket || origin != nil {
            guard let origin, hosts.contains(where: { "http://\($0)" == origin }) else {
                throw HTTPError(.forbidden, message: "other origin refused")
            }
        }
    }
}
