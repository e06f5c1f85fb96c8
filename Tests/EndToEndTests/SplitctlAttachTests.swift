import Foundation
import SplitClient
import SplitCore
import SplitWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `splitctl attach` command line for a tmux pane: its exit status stays on screen after it ends.
func attachPaneCommand(_ daemon: DaemonProcess, _ arguments: String...) -> String {
    let quoted = ([Binaries.splitctl, "--socket", daemon.socketPath, "attach"] + arguments).map { "'\($0)'" }.joined(
        separator: " ")
    return "TERM=xterm-256color \(quoted); echo \"splitctl exited $?\"; sleep 600"
}

/// A daemon and a tmux server for one test; the server is stopped at the end.
func withDaemonAndTmux(_ body: (DaemonProcess, TmuxServer) throws -> Void) throws {
    try withDaemon { daemon in
        let tmux = try TmuxServer()
        defer { tmux.stop() }
        try body(daemon, tmux)
    }
}

/// The revision in an attach screen's status line (`rev N`), or -1.
func statusRevision(of screen: String) -> Int {
    let status = screen.split(separator: "\n").first.map(String.init) ?? ""
    guard let range = status.range(of: #"rev \d+"#, options: .regularExpression) else { return -1 }
    return Int(status[range].dropFirst(4)) ?? -1
}

extension EndToEnd {
    /// `splitctl attach` as a terminal client: what it draws, reads and survives.
    @Suite struct SplitctlAttach {
        /// A view-controller id is any string: its control characters used to reach the
        /// terminal raw (an OSC sequence retitled it, `ESC [2J` cleared it).
        @Test func controlCharactersInIdsAreDrawnVisibly() throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                _ = try client.createScene("esc", device: "ipad-pro-12.9", config: mailConfig)
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                try tmux.start(
                    "a", columns: 200, rows: 30, command: attachPaneCommand(daemon, "esc", "--role", "viewer"))
                try tmux.waitForScreen("a", what: "the first layout") { $0.contains("▸ inbox") }
                _ = try client.intent("esc", .push(column: .primary, vc: "x\u{1B}]0;PWNED\u{07}y"))
                // Until the ticker shows it too: tmux may be captured in the middle of a frame.
                let screen = try tmux.waitForScreen("a", what: "the pushed id and its event") {
                    statusRevision(of: $0) == 2 && $0.contains("in primary")
                }
                #expect(screen.contains(#"▸ x\x1b]0;PWNED\x07y"#), "\(screen)")
                #expect(screen.contains(#"appear x\x1b]0;PWNED\x07y in primary"#), "the ticker: \(screen)")
            }
        }

        /// The message line used to say `no change` for every change without events, also
        /// one that moved the revision (a tab selection).
        @Test func theMessageLineTellsNoChangeFromNoEvents() throws {
            try withDaemonAndTmux { daemon, tmux in
                try tmux.start(
                    "a", columns: 160, rows: 24,
                    command: attachPaneCommand(
                        daemon, "tabs", "--create", "--device", "ipad-pro-12.9",
                        "--config", #"{"style":"tripleColumn","tabs":[{"root":"a"},{"root":"b"}]}"#))
                let first = try tmux.waitForScreen("a", what: "the first layout") { $0.contains("tab 0") }
                let revision = statusRevision(of: first)
                try tmux.sendKeys("a", "Tab")
                try tmux.waitForScreen("a", what: "tab 1, no events") {
                    $0.contains("tab 1") && statusRevision(of: $0) == revision + 1
                        && $0.contains("selectTab index=1: no events")
                }
                try tmux.sendKeys("a", "2")
                try tmux.waitForScreen("a", what: "tab 1 again, no change") {
                    statusRevision(of: $0) == revision + 1 && $0.contains("selectTab index=1: no change")
                }
            }
        }

        /// attach used to stay on a blank "connected" screen when its scene was deleted, deaf
        /// to a scene re-created under the same id.
        @Test func theScenesDeletionEndsItWith0() throws {
            try withDaemonAndTmux { daemon, tmux in
                try tmux.start(
                    "a", columns: 120, rows: 24,
                    command: attachPaneCommand(daemon, "gone", "--create", "--device", "ipad-pro-12.9"))
                try tmux.waitForScreen("a", what: "the first layout") { $0.contains("┌─ primary") }
                try daemon.client().deleteScene("gone")
                let screen = try tmux.waitForScreen("a", what: "attach to end") { $0.contains("splitctl exited") }
                #expect(screen.contains("scene gone was deleted\nsplitctl exited 0"), "\(screen)")
            }
        }

        /// After a reconnect, a scene that is gone was deleted while attach was away: --create
        /// used to re-create it, and without --create attach retried unknown_scene forever.
        @Test(arguments: [["--create", "--device", "ipad-pro-12.9"], ["--role", "viewer"]])
        func aSceneGoneAfterAReconnectEndsItWith65(arguments: [String]) throws {
            try withDaemon { daemon in
                if !arguments.contains("--create") {
                    _ = try daemon.client().createScene("lost", device: "ipad-pro-12.9")
                }
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                let command = ([Binaries.splitctl, "--socket", daemon.socketPath, "attach", "lost"] + arguments)
                    .map { "'\($0)'" }.joined(separator: " ")
                try tmux.start(
                    "a", columns: 120, rows: 24,
                    command: "TERM=xterm-256color \(command); echo \"splitctl exited $?\"; sleep 600")
                try tmux.waitForScreen("a", what: "the first layout") { $0.contains("┌─ primary") }
                // The daemon comes back without the scene (its database is gone).
                #expect(daemon.terminate() == .exited(0))
                for suffix in ["", "-wal", "-shm"] { unlink(daemon.databasePath + suffix) }
                try daemon.start()
                let screen = try tmux.waitForScreen("a", what: "attach to end") { $0.contains("splitctl exited") }
                #expect(screen.contains("splitctl: unknown_scene: "), "\(screen)")
                #expect(screen.contains("(it was deleted while attach was reconnecting)"), "\(screen)")
                #expect(screen.contains("splitctl exited 65"), "\(screen)")
                #expect(try daemon.client().call("scene.list")["scenes"]?.array?.isEmpty == true, "not re-created")
            }
        }

        /// A pty that reports 0x0 (`script` without a size, some CI ptys) used to be told
        /// "attach needs a terminal".
        @Test func aTerminalWithoutASizeIsToldSo() throws {
            // posix_openpt/unlockpt/ptsname by hand (Glibc does not export them to Swift):
            // TIOCSPTLCK and TIOCGPTN, as on every Linux architecture the tests run on.
            let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            try #require(master >= 0)
            defer { close(master) }
            var unlock: Int32 = 0, number: UInt32 = 0
            try #require(
                ioctl(master, UInt(0x4004_5431), &unlock) == 0 && ioctl(master, UInt(0x8004_5430), &number) == 0)
            let terminal = "/dev/pts/\(number)"
            var size = winsize()
            #expect(
                ioctl(master, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col == 0 && size.ws_row == 0, "a new pty is 0x0")
            let directory = try makeTemporaryDirectory(prefix: "splitctl-nosize")
            defer { removeDirectory(directory) }
            let attach = try ChildProcess(
                Binaries.splitctl, ["--socket", "/nonexistent/splitd.sock", "attach", "s"],
                stdoutPath: terminal, stderrPath: directory + "/stderr", stdinPath: terminal)
            defer { attach.killHard() }
            #expect(attach.wait(timeout: .seconds(10)) == .exited(64))
            #expect(
                readText(directory + "/stderr")
                    == "splitctl: the terminal reports no size (0x0): set one, e.g. with `stty rows 40 cols 120`\n")
        }

        /// The screen used to be UTF-8 whatever the locale: on a Latin-1 (or `C`) terminal a
        /// box-drawing character takes several cells and the layout breaks.
        @Test func aLocaleThatIsNotUTF8GetsAnASCIIScreen() throws {
            try withDaemonAndTmux { daemon, tmux in
                try tmux.start(
                    "a", columns: 120, rows: 24,
                    command: "LC_ALL=en_US.ISO-8859-1 "
                        + attachPaneCommand(daemon, "latin", "--create", "--device", "ipad-pro-12.9"))
                let screen = try tmux.waitForScreen("a", what: "the first layout") { $0.contains("+- primary") }
                let ascii = screen.allSatisfy { $0.isASCII }
                #expect(ascii, "\(screen)")
                #expect(screen.contains("| > "), "the top of a stack: \(screen)")
                #expect(
                    screen.split(separator: "\n").first?.contains("scene latin | rev 1 | expanded") == true, "\(screen)"
                )
            }
        }

        @Test func aTerminalTooSmallSaysTheMinimumAndStillSizesTheScene() throws {
            try withDaemonAndTmux { daemon, tmux in
                try tmux.start(
                    "a", columns: 20, rows: 4,
                    command: attachPaneCommand(daemon, "tiny", "--create", "--device", "ipad-pro-12.9"))
                try tmux.waitForScreen("a", what: "the too-small screen") {
                    $0.hasPrefix("terminal too small\nneed 24x6")
                }
                #expect(try daemon.client().getScene("tiny").layout.size == Size(width: 160, height: 64))
            }
        }
    }
}
