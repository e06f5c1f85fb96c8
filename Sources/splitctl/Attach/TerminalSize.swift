#if canImport(Glibc)
import Glibc
#endif

/// A terminal's size in cells.
struct TerminalSize: Equatable {
    var columns: Int
    var rows: Int

    /// The size of the terminal on `fd` (TIOCGWINSZ); nil when `fd` is not a terminal or
    /// reports no size.
    static func of(fd: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
