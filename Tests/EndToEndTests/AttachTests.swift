import Foundation
import SplitClient
import SplitCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A private tmux server (its own `-L` socket) whose sessions run `splitctl attach` in real
/// pseudo-terminals. Every wait polls the screen with a deadline; nothing sleeps fixed amounts.
final class TmuxServer {
    nonisolated(unsafe) private static var created = 0
    let socketName: String
    let executable: String

    init() throws {
        guard
            let found = ["/usr/bin/tmux", "/bin/tmux", "/usr/local/bin/tmux"].first(
                where: FileManager.default.isExecutableFile)
        else {
            throw HarnessError("tmux is not installed (Debian: apt-get install tmux)")
        }
        executable = found
        TmuxServer.created += 1
        socketName = "splitctl-e2e-\(getpid())-\(TmuxServer.created)"
    }

    deinit { stop() }

    /// A detached session of `columns` x `rows` running `command` (through /bin/sh).
    func start(_ session: String, columns: Int, rows: Int, command: String) throws {
        try tmux("new-session", "-d", "-s", session, "-x", String(columns), "-y", String(rows), command)
    }

    func screen(_ session: String) throws -> String {
        try tmux("capture-pane", "-p", "-t", session).stdout
    }

    func sendKeys(_ session: String, _ keys: String...) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    /// Resizes the session's window: the pane's process gets SIGWINCH.
    func resize(_ session: String, columns: Int, rows: Int) throws {
        try tmux("resize-window", "-t", session, "-x", String(columns), "-y", String(rows))
    }

    /// The pid of the process the pane's shell started (the splitctl under test).
    func commandPID(_ session: String) throws -> pid_t {
        let shell = try tmux("display-message", "-p", "-t", session, "#{pane_pid}").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = readText("/proc/\(shell)/task/\(shell)/children").split(separator: " ")
        guard let first = children.first, let pid = pid_t(first) else {
            throw HarnessError("no child process under pane shell \(shell)")
        }
        return pid
    }

    /// Polls the screen until `condition` holds; throws with the last screen after `timeout`.
    @discardableResult
    func waitForScreen(
        _ session: String, timeout: Duration = .seconds(20), what: String,
        _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var last = ""
        while true {
            last = try screen(session)
            if condition(last) { return last }
            if ContinuousClock.now >= deadline {
                throw HarnessError("timed out waiting for \(what); screen of \(session):\n\(last)")
            }
            usleep(50_000)
        }
    }

    /// Ends the panes' process groups (SIGKILL: a test runner's blocked signals are inherited,
    /// so SIGHUP from kill-server may not end them), then the server.
    func stop() {
        let panes =
            (try? runCommand(
                executable, ["-L", socketName, "list-panes", "-a", "-F", "#{pane_pid}"], timeout: .seconds(10)))?
            .lines.compactMap { pid_t($0) } ?? []
        for pane in panes where pane > 1 { kill(-pane, SIGKILL) }
        _ = try? runCommand(executable, ["-L", socketName, "kill-server"], timeout: .seconds(10))
    }

    @discardableResult
    private func tmux(_ arguments: String...) throws -> CommandOutput { try tmux(arguments) }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> CommandOutput {
        // -u: UTF-8 whatever the locale, so box-drawing characters survive capture-pane.
        let output = try runCommand(
            executable, ["-u", "-L", socketName, "-f", "/dev/null"] + arguments,
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"], timeout: .seconds(20))
        guard output.exitCode == 0 else {
            throw HarnessError("tmux \(arguments.joined(separator: " ")): \(output.stderr)")
        }
        return output
    }
}

/// The pane command: splitctl attach, then its exit status and whether the terminal is back
/// in canonical mode (`icanon`, not `-icanon`), kept on screen for the test to read.
private func attachCommand(_ daemon: DaemonProcess, _ arguments: String..., term: String = "xterm-256color") -> String {
    let quoted = ([Binaries.splitctl, "--socket", daemon.socketPath, "attach"] + arguments).map { "'\($0)'" }.joined(
        separator: " ")
    return
        "TERM=\(term) \(quoted); echo \"splitctl exited $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'; sleep 600"
}

/// The revision in the status line (`rev N`), or -1.
private func revision(of screen: String) -> Int {
    let status = screen.split(separator: "\n").first.map(String.init) ?? ""
    guard let range = status.range(of: #"rev \d+"#, options: .regularExpression) else { return -1 }
    return Int(status[range].dropFirst(4)) ?? -1
}

/// Two columns side by side: the primary's and the secondary's boxes, no collapsed stack.
private func showsTwoColumns(_ screen: String) -> Bool {
    screen.contains("┌─ primary") && screen.contains("┌─ secondary") && !screen.contains("┌─ compact")
}

/// Collapsed: one box, the compact stack.
private func showsOneColumn(_ screen: String) -> Bool {
    screen.contains("┌─ compact") && !screen.contains("┌─ primary") && !screen.contains("┌─ secondary")
}

extension EndToEnd {
    /// `splitctl attach` driven inside tmux.
    @Suite struct Attach {
        @Test func aTerminalIsALiveWindowThatCollapsesExpandsAndStaysInSync() throws {
            try withDaemon { daemon in
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                try tmux.start(
                    "a", columns: 200, rows: 50,
                    command: attachCommand(daemon, "term", "--create", "--device", "ipad-pro-12.9"))
                try tmux.waitForScreen("a", what: "two columns at 200x50") { showsTwoColumns($0) }
                // 200 x 50 cells at 8 x 16 pt: a 1600 x 800 pt window.
                let client = try daemon.client()
                #expect(try client.getScene("term").layout.size == Size(width: 1600, height: 800))

                // 60 columns = 480 pt, under the iPad's 640 pt windowed threshold: compact, collapsed.
                try tmux.resize("a", columns: 60, rows: 50)
                try tmux.waitForScreen("a", what: "one column at 60x50") { showsOneColumn($0) }
                #expect(try client.getScene("term").layout.collapsed)
                // While collapsed, `p` grows the one visible stack (pushed from the primary).
                let collapsedAt = try client.getScene("term").revision
                try tmux.sendKeys("a", "p")
                try tmux.waitForScreen("a", what: "a push while collapsed") {
                    revision(of: $0) == collapsedAt + 1 && $0.contains("▸ primary-\(collapsedAt + 1)")
                        && showsOneColumn($0)
                }
                #expect(try client.getScene("term").layout.column(.compact)?.stack.last == "primary-\(collapsedAt + 1)")

                try tmux.resize("a", columns: 200, rows: 50)
                var screen = try tmux.waitForScreen("a", what: "two columns again at 200x50") { showsTwoColumns($0) }
                #expect(try client.getScene("term").layout.size == Size(width: 1600, height: 800))

                // A second terminal, a viewer of another size, shows the same revision.
                let before = revision(of: screen)
                #expect(before > 1)
                try tmux.start("b", columns: 120, rows: 40, command: attachCommand(daemon, "term", "--role", "viewer"))
                try tmux.waitForScreen("b", what: "the viewer at revision \(before)") {
                    revision(of: $0) == before && showsTwoColumns($0)
                }

                // `p` pushes primary-<next revision> onto the focused (primary) column; both terminals show it.
                try tmux.sendKeys("a", "p")
                let pushed = "primary-\(before + 1)"
                screen = try tmux.waitForScreen("a", what: "\(pushed) at revision \(before + 1)") {
                    revision(of: $0) == before + 1 && $0.contains("▸ \(pushed)")
                }
                try tmux.waitForScreen("b", what: "the viewer following to revision \(before + 1)") {
                    revision(of: $0) == before + 1 && $0.contains("▸ \(pushed)")
                }
                #expect(try client.getScene("term").layout.column(.primary)?.stack.last == pushed)

                // q quits; the shell gets its terminal back in canonical mode.
                try tmux.sendKeys("a", "q")
                screen = try tmux.waitForScreen("a", what: "splitctl to exit") {
                    $0.contains("splitctl exited") && $0.contains("icanon")
                }
                #expect(screen.contains("splitctl exited 0"))
                #expect(!screen.contains("-icanon"))
            }
        }

        @Test func keysDriveIntentsAndTheHelpOverlay() throws {
            try withDaemon { daemon in
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                try tmux.start(
                    "a", columns: 160, rows: 40,
                    command: attachCommand(
                        daemon, "keys", "--create", "--device", "ipad-pro-12.9",
                        "--config", #"{"roots":{"primary":"inbox","secondary":"detail"}}"#))
                try tmux.waitForScreen("a", what: "two columns") {
                    showsTwoColumns($0) && $0.contains("oneBesideSecondary")
                }
                try tmux.sendKeys("a", "?")
                try tmux.waitForScreen("a", what: "the help overlay") {
                    $0.contains("─ keys") && $0.contains("display-mode button")
                }
                try tmux.sendKeys("a", "x")
                try tmux.waitForScreen("a", what: "the help to close") { !$0.contains("─ keys") }

                // SEMANTICS 5: tile + a two-column style, the button toggles oneBesideSecondary -> secondaryOnly.
                try tmux.sendKeys("a", "d")
                try tmux.waitForScreen("a", what: "secondaryOnly") {
                    $0.contains("expanded secondaryOnly tile") && !$0.contains("┌─ primary")
                        && $0.contains("┌─ secondary")
                        && $0.contains("displayModeChanged oneBesideSecondary -> secondaryOnly")
                }
                // Down twice then Enter: showDetail item-3 (UIKit's replace routing: the secondary becomes [item-3]).
                try tmux.sendKeys("a", "Down", "j", "Enter")
                let client = try daemon.client()
                try tmux.waitForScreen("a", what: "item-3 on top of the secondary") { $0.contains("▸ item-3") }
                #expect(try client.getScene("keys").layout.column(.secondary)?.stack == ["item-3"])
                // An impossible intent answers one error line and changes nothing.
                let revisionBefore = try client.getScene("keys").revision
                try tmux.sendKeys("a", "1")
                try tmux.waitForScreen("a", what: "the invalid_intent message") { $0.contains("invalid_intent") }
                #expect(try client.getScene("keys").revision == revisionBefore)
                try tmux.sendKeys("a", "C-c")
                let screen = try tmux.waitForScreen("a", what: "splitctl to exit") {
                    $0.contains("splitctl exited") && $0.contains("icanon")
                }
                #expect(screen.contains("splitctl exited 0"))
            }
        }

        @Test func afterADaemonRestartItReconnectsAndResynchronizes() throws {
            try withDaemon { daemon in
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                try tmux.start(
                    "a", columns: 120, rows: 40,
                    command: attachCommand(daemon, "durable", "--create", "--device", "ipad-pro-12.9"))
                let first = try tmux.waitForScreen("a", what: "the first layout") { showsTwoColumns($0) }
                // A change made by another client is pushed and drawn.
                let client = try daemon.client()
                let changed = try client.intent("durable", .push(column: .primary, vc: "from-elsewhere"))
                #expect(changed.revision == revision(of: first) + 1)
                try tmux.waitForScreen("a", what: "the pushed change") {
                    revision(of: $0) == changed.revision && $0.contains("▸ from-elsewhere")
                }
                client.close()

                try daemon.stopAndRestart()
                try tmux.waitForScreen("a", what: "the re-attach") {
                    // The link sits at the end of the status line (capture-pane drops trailing blanks).
                    $0.contains("reconnected: resynchronized at revision \(changed.revision)")
                        && ($0.split(separator: "\n").first?.hasSuffix(" connected") ?? false)
                }
                // It is live again: a key reaches the restarted daemon.
                try tmux.sendKeys("a", "p")
                try tmux.waitForScreen("a", what: "a push after the restart") {
                    revision(of: $0) == changed.revision + 1 && $0.contains("▸ primary-\(changed.revision + 1)")
                }
                #expect(try daemon.client().getScene("durable").revision == changed.revision + 1)
            }
        }

        @Test func aTerminatingSignalRestoresTheTerminal() throws {
            try withDaemon { daemon in
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                try tmux.start(
                    "a", columns: 100, rows: 30,
                    command: attachCommand(daemon, "sig", "--create", "--device", "mac", term: "screen"))
                try tmux.waitForScreen("a", what: "the first layout") { showsTwoColumns($0) }
                kill(try tmux.commandPID("a"), SIGTERM)
                let screen = try tmux.waitForScreen("a", what: "splitctl to exit") {
                    $0.contains("splitctl exited") && $0.contains("icanon")
                }
                #expect(screen.contains("splitctl exited \(128 + SIGTERM)"))
                #expect(!screen.contains("-icanon"))
                #expect(!screen.contains("┌─"), "the alternate screen is gone")
            }
        }

        @Test func startErrorsAreOneLineWithTheirExitCodes() throws {
            try withDaemon { daemon in
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                let splitctl = "'\(Binaries.splitctl)'"
                try tmux.start(
                    "a", columns: 160, rows: 20,
                    command: """
                        \(splitctl) --socket /nonexistent/splitd.sock attach s; echo "first $?"; \
                        \(splitctl) --socket '\(daemon.socketPath)' attach nope; echo "second $?"; sleep 600
                        """)
                let screen = try tmux.waitForScreen("a", what: "both attempts") { $0.contains("second ") }
                #expect(screen.contains("splitctl: no socket at /nonexistent/splitd.sock"))
                #expect(screen.contains("first 69"))
                #expect(screen.contains("splitctl: unknown_scene: "))
                #expect(screen.contains("second 65"))
            }
        }

        @Test(arguments: [
            ["attach"],  // no scene
            ["attach", "s", "--create"],  // --create without --device
            ["attach", "s", "--device", "mac"],  // --device without --create
            ["attach", "s", "--cell-width", "0"],
            ["attach", "s", "--cell-height", "-16"],
            ["attach", "s", "--role", "sideways"],
            ["attach", "s", "--config", "{nope"],
        ])
        func usageErrorsExit64(arguments: [String]) throws {
            let output = try runCommand(Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock"] + arguments)
            #expect(output.exitCode == 64, "\(arguments): \(output)")
            #expect(!output.stderr.isEmpty)
            #expect(output.stdout.isEmpty)
        }

        @Test func aBadCellEnvironmentVariableIsAUsageError() throws {
            let output = try runCommand(
                Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock", "attach", "s"],
                environment: ["SPLITCTL_CELL": "eight"])
            #expect(output.exitCode == 64)
            #expect(output.stderr.contains("SPLITCTL_CELL"))
        }

        @Test func withoutATerminalItRefusesWithOneLine() throws {
            // runCommand gives the child /dev/null and files, not a terminal.
            let output = try runCommand(Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock", "attach", "s"])
            #expect(output.exitCode == 64)
            #expect(
                output.stderr
                    == "splitctl: attach needs a terminal on stdin and stdout (use `splitctl watch` in scripts)\n")
            #expect(output.stdout.isEmpty)
        }
    }
}
