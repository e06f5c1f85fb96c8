#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr for long runs, redrawn in place; silent unless stderr
/// is a terminal, so logs and pipes never see carriage returns.
struct ProgressBar {
    let total: Int
    let enabled: Bool
    private(set) var done = 0

    init(total: Int, enabled: Bool = isatty(2) == 1) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    /// Marks one more unit done and shows `label` as the current one.
    mutating func advance(_ label: String) {
        done += 1
        guard enabled else { return }
        // Never wider than the terminal: a wrapped line is not redrawn in place but repeated.
        let room = max(terminalColumns() - 1, 1)
        let width = min(24, max(room - 16, 0))
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = width > 0 ? "[\(bar)] \(done)/\(total) \(label)" : "\(done)/\(total) \(label)"
        write("\r" + String(line.prefix(room)) + "\u{1B}[K")
    }

    /// Erases the bar (before the summary is printed).
    func finish() {
        guard enabled else { return }
        write("\r\u{1B}[K")
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }

    private func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
