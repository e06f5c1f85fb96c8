#if canImport(Glibc)
import Glibc
#endif

/// The terminal as a full-screen client needs it: raw input (no echo, no line editing, no
/// signals from ^C, which arrives as a key), the alternate screen, a hidden cursor and no
/// auto-wrap, all with plain ANSI/xterm sequences (no terminfo). `restore()` puts back exactly
/// what `enter()` found; it is idempotent and runs on every exit path.
final class TerminalMode {
    private let input: Int32
    private let output: Int32
    private var saved: termios?

    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
    static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    deinit { restore() }

    /// Switches to raw mode and the alternate screen; false if `input` is not a terminal.
    func enter() -> Bool {
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { return false }
        var raw = original
        // cfmakeraw, minus OPOST: output keeps its usual processing.
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { return false }
        saved = original
        writeAll(output, Self.enterSequence)
        return true
    }

    func restore() {
        guard var original = saved else { return }
        saved = nil
        writeAll(output, Self.leaveSequence)
        _ = tcsetattr(input, TCSAFLUSH, &original)
    }
}
