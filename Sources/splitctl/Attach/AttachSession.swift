import SplitClient
import SplitCore
import SplitWire
#if canImport(Glibc)
import Glibc
#endif

/// What `splitctl attach` was asked to do.
struct AttachOptions {
    var scene: String
    var role: AttachRole
    /// Create the scene when it does not exist (with `device` and `config`).
    var create: Bool
    var device: String?
    var config: JSONValue?
    var metrics: CellMetrics
    var socketPath: String
    var timeout: Duration
    /// Draw box-drawing characters and symbols; false: ASCII lookalikes (`localeIsUTF8`).
    var utf8 = true
}

/// Whether the locale says the terminal takes UTF-8, as tmux decides it: the first of
/// `LC_ALL`, `LC_CTYPE`, `LANG` that is set names UTF-8 (`C.UTF-8`, `en_US.utf8`). None set
/// counts as UTF-8, today's default (containers often set none); `C`, `POSIX` or
/// `en_US.ISO-8859-1` do not.
func localeIsUTF8(_ environment: [String: String]) -> Bool {
    guard
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
    else {
        return true
    }
    let lowered = locale.lowercased()
    return lowered.contains("utf-8") || lowered.contains("utf8")
}

/// The terminal client's I/O shell: one poll(2) loop over the keyboard, the daemon's socket
/// and a self-pipe of signals. It sends the terminal's size on attach and on every SIGWINCH,
/// turns keys into intents, draws every layout splitd sends, and when the daemon goes away
/// reconnects with backoff and resynchronizes by attaching again.
final class AttachSession {
    static let handledSignals: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP]
    /// Reconnection delays: 100 ms, doubled per failed attempt, at most 2 s.
    static let firstRetry: Duration = .milliseconds(100)
    static let longestRetry: Duration = .seconds(2)

    private let options: AttachOptions
    private var state: AttachState
    private var connection: SplitConnection?
    private var nextAttempt: ContinuousClock.Instant?
    private var attempt = 0
    private let terminal = TerminalMode()
    /// Set when the session is over without a key or signal (the scene was deleted, or is
    /// gone after a reconnect): the exit status and the line to print once the terminal is back.
    private(set) var ending: Ending?

    struct Ending {
        var status: Int32
        var message: String
        /// An error line (`splitctl: ...` on stderr) rather than a notice on stdout.
        var isError: Bool
    }

    init(options: AttachOptions, terminal size: TerminalSize) {
        self.options = options
        state = AttachState(scene: options.scene, role: options.role, terminal: size, metrics: options.metrics)
    }

    /// Connects and attaches before the terminal is taken over, so a wrong socket or scene
    /// ends as one error line like every other splitctl command.
    func connectFirst() throws(ClientError) {
        let connection = try SplitConnection.connect(to: options.socketPath, timeout: options.timeout)
        let reply = try attach(on: connection, mayCreate: options.create)
        self.connection = connection
        state.show(reply.layout, revision: reply.revision, events: [], force: true)
    }

    /// Runs until `q`/^C (0), a terminating signal (128 + its number), the scene's deletion
    /// (0) or its absence after a reconnect (65); the last two leave `ending` to print. The
    /// terminal is restored on every path.
    func run() -> Int32 {
        guard let signals = SignalPipe.install(Self.handledSignals) else {
            printError("cannot create the signal pipe: \(String(cString: strerror(errno)))")
            return 70
        }
        defer {
            SignalPipe.uninstall(Self.handledSignals)
            close(signals)
        }
        guard terminal.enter() else {
            printError("cannot put the terminal in raw mode")
            return 70
        }
        defer { terminal.restore() }
        pump()
        while true {
            if let ending { return ending.status }
            draw()
            var descriptors = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
            ]
            if let connection {
                descriptors.append(pollfd(fd: connection.socket.fd, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
            if ready < 0 {
                if errno == EINTR { continue }
                return 70
            }
            if descriptors[1].revents != 0, let status = handleSignals(SignalPipe.drain(signals)) { return status }
            if descriptors.count > 2, descriptors[2].revents != 0 { pump() }
            if descriptors[0].revents != 0, !readKeys() { return 0 }
            if let nextAttempt, ContinuousClock.now >= nextAttempt { reconnect() }
        }
    }

    // MARK: Input

    /// Handles what the keyboard sent; false to quit (q, ^C, or the terminal went away).
    private func readKeys() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        if count == 0 { return false }
        for key in KeyDecoder.decode(Array(buffer[0..<count])) {
            guard let effect = state.handle(key) else { continue }
            if effect == .quit { return false }
            perform(effect)
        }
        return true
    }

    /// SIGWINCH resizes; the others end the session with 128 + the signal number.
    private func handleSignals(_ received: [Int32]) -> Int32? {
        if let terminating = received.first(where: { $0 != SIGWINCH }) { return 128 + terminating }
        if received.contains(SIGWINCH) { terminalResized() }
        return nil
    }

    private func terminalResized() {
        guard let size = TerminalSize.of(fd: 1), size != state.terminal else { return }
        state.terminal = size
        guard state.role == .window, let connection else { return }
        request { () throws(ClientError) in
            let reply = try connection.resize(options.scene, to: state.windowSize)
            state.show(reply.layout, revision: reply.revision, events: reply.timeline)
        }
    }

    // MARK: Requests

    private func perform(_ effect: AttachEffect) {
        guard let connection else {
            state.say("not connected: the key is ignored until splitd is back", error: true)
            return
        }
        switch effect {
        case .intent(let intent):
            request { () throws(ClientError) in try sendIntent(intent, on: connection) }
        case .nextTab:
            guard let tab = state.layout?.selectedTab else {
                state.say("this scene has no tabs", error: true)
                return
            }
            request { () throws(ClientError) in
                do throws(ClientError) {
                    try sendIntent(Intent.selectTab(index: tab + 1).wireObject, on: connection, reportErrors: false)
                } catch .server(let code, _) where code == "invalid_intent" {
                    try sendIntent(Intent.selectTab(index: 0).wireObject, on: connection)
                }
            }
        case .snapshot:
            request { () throws(ClientError) in
                let result = try connection.snapshot(options.scene, preset: "appSwitcher")
                state.say(describeSnapshot(result))
            }
        case .quit:
            break
        }
    }

    /// Sends an intent and shows splitd's answer; an error response becomes the message line
    /// unless `reportErrors` is false (then it is thrown to the caller).
    private func sendIntent(
        _ intent: JSONValue, on connection: SplitConnection, reportErrors: Bool = true
    ) throws(ClientError) {
        do throws(ClientError) {
            let before = state.revision
            let reply = try connection.intent(options.scene, intent)
            state.show(reply.layout, revision: reply.revision, events: reply.timeline)
            // As splitctl's change commands say it: some changes (a tab selection) move the
            // revision without events.
            if reply.timeline.isEmpty {
                state.say("\(describeIntent(intent)): " + (reply.revision == before ? "no change" : "no events"))
            }
        } catch .server(let code, let message) where reportErrors {
            state.say("\(describeIntent(intent)): \(code): \(message)", error: true)
        }
    }

    /// Runs one exchange with splitd: error responses become the message line, a lost
    /// connection starts reconnecting; pushes that arrived meanwhile are applied after.
    private func request(_ body: () throws(ClientError) -> Void) {
        do {
            try body()
        } catch .server(let code, let message) {
            state.say("\(code): \(message)", error: true)
        } catch {
            lost(error)
            return
        }
        pump()
    }

    /// Reads whatever splitd sent without waiting and applies the pushes.
    private func pump() {
        guard let connection else { return }
        var failure: ClientError?
        do {
            try connection.drain(quiet: .zero)
        } catch {
            failure = error
        }
        for push in connection.takePushes() { apply(push) }
        if let failure { lost(failure) }
    }

    private func apply(_ push: JSONValue) {
        guard push["scene"]?.string == options.scene else { return }
        switch push["event"]?.string {
        case "layout":
            guard let decoded = try? LayoutPush(decoding: push) else { return }
            state.show(decoded.layout, revision: decoded.revision, events: decoded.timeline)
        case "deleted":
            // Nothing more will come: over, as `watch` ends (re-creating it is not ours to do).
            ending = Ending(status: 0, message: "scene \(options.scene) was deleted", isError: false)
        default:
            break
        }
    }

    // MARK: Connection

    /// hello, then scene.attach (with the window size); creates the scene first if
    /// `mayCreate` and it does not exist.
    private func attach(on connection: SplitConnection, mayCreate: Bool) throws(ClientError) -> SceneReply {
        try connection.hello(client: "splitctl attach")
        let size = state.role == .window ? state.windowSize : nil
        do throws(ClientError) {
            return try connection.attach(options.scene, role: state.role, size: size, notices: .deleted)
        } catch .server(let code, _) where code == "unknown_scene" && mayCreate {
            do throws(ClientError) {
                try connection.createScene(
                    options.scene, device: options.device ?? "", size: size, config: options.config)
            } catch .server(let code, _) where code == "scene_exists" {
                // Another terminal created it first: attach to theirs.
            }
            return try connection.attach(options.scene, role: state.role, size: size, notices: .deleted)
        }
    }

    private func lost(_ error: ClientError) {
        connection?.close()
        connection = nil
        attempt = 1
        state.link = .reconnecting(attempt: attempt, reason: "\(error)")
        nextAttempt = ContinuousClock.now.advanced(by: Self.delay(beforeAttempt: attempt))
    }

    private func reconnect() {
        do {
            let fresh = try SplitConnection.connect(to: options.socketPath, timeout: options.timeout)
            // Never --create here: a scene missing now was deleted while we were away (its
            // `deleted` push lost with the connection), and someone meant it.
            let reply = try attach(on: fresh, mayCreate: false)
            connection = fresh
            state.show(reply.layout, revision: reply.revision, events: [], force: true)
            state.link = .connected
            state.say("reconnected: resynchronized at revision \(reply.revision)")
            attempt = 0
            nextAttempt = nil
            pump()
        } catch .server(let code, let message) where code == "unknown_scene" {
            // It will not come back by retrying.
            ending = Ending(
                status: 65, message: "\(code): \(message) (it was deleted while attach was reconnecting)", isError: true
            )
        } catch {
            attempt += 1
            state.link = .reconnecting(attempt: attempt, reason: "\(error)")
            nextAttempt = ContinuousClock.now.advanced(by: Self.delay(beforeAttempt: attempt))
        }
    }

    /// 100 ms before the first attempt, doubling, at most 2 s.
    static func delay(beforeAttempt attempt: Int) -> Duration {
        min(firstRetry * (1 << min(max(attempt - 1, 0), 10)), longestRetry)
    }

    private func pollTimeout() -> Int32 {
        guard let nextAttempt else { return -1 }
        let remaining = ContinuousClock.now.duration(to: nextAttempt)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    private func draw() {
        writeAll(1, ScreenRenderer.render(state).frame(ascii: !options.utf8))
    }
}

/// `snapshot s3 at rev 7: 7 sizes, round trip lossless`.
func describeSnapshot(_ result: JSONValue) -> String {
    let session = result["session"].map { $0.string ?? JSONWriter.string($0) } ?? "-"
    let base = result["baseRevision"].map { JSONWriter.string($0) } ?? "?"
    let count = result["snapshots"]?.array?.count ?? 0
    let lossless = result["roundTrip"]?["lossless"]?.bool
    let verdict = lossless.map { $0 ? "round trip lossless" : "round trip LOSSY" } ?? "no round-trip verdict"
    return "snapshot \(session) at rev \(base): \(count) sizes, \(verdict)"
}
