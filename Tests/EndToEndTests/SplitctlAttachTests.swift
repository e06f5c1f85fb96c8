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
    let quoted = ([Binaries.splitctl, "--socket", daemon.socketPath, "attach"] + arguments).map { "'\($0)'" }.joined(separator: " ")
    return "TERM=xterm-256color \(quoted); echo \"splitctl exited $?\"; sleep 600"
}

/// The revision in an attach screen's status line (`rev N`), or -1.
func statusRevision(of screen: String) -> Int {
    let status = screen.split(separator: "\n").first.map(String.init) ?? ""
    guard let range = status.range(of: #"rev \d+"#, options: .regularExpression) else { return -1 }
    return Int(status[range].dropFirst(4)) ?? -1
}

extension EndToEnd {
    /// `splitctl attach` defects found by the audit of the terminal client (audit D).
    @Suite struct SplitctlAttach {
        /// A view-controller id is any string: its control characters used to reach the
        /// terminal raw (an OSC sequence retitled it, `ESC [2J` cleared it).
        @Test func controlCharactersInIdsAreDrawnVisibly() throws {
            try withDaemon { daemon in
                let client = try daemon.client()
                _ = try client.createScene("esc", device: "ipad-pro-12.9", config: mailConfig)
                let tmux = try TmuxServer()
                defer { tmux.stop() }
                try tmux.start("a", columns: 200, rows: 30, command: attachPaneCommand(daemon, "esc", "--role", "viewer"))
                try tmux.waitForScreen("a", what: "the first layout") { $0.contains("▸ inbox") }
                _ = try client.intent("esc", .push(column: .primary, vc: "x\u{1B}]0;PWNED\u{07}y"))
                let screen = try tmux.waitForScreen("a", what: "the pushed id") { statusRevision(of: $0) == 2 }
                #expect(screen.contains(#"▸ x\x1b]0;PWNED\x07y"#), "\(screen)")
                #expect(screen.contains(#"appear x\x1b]0;PWNED\x07y in primary"#), "the ticker: \(screen)")
            }
        }
    }
}
