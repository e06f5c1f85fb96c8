import SplitCore

/// How many points one terminal cell stands for (docs/TERMINAL.md): by default a column is
/// 8 pt and a row 16 pt, so a 200x50 terminal is a 1600x800 pt window. Set with
/// `--cell-width`/`--cell-height` or `$SPLITCTL_CELL` (`WIDTHxHEIGHT`, e.g. `8x16`).
struct CellMetrics: Equatable {
    var width: Double = 8
    var height: Double = 16

    static let environmentVariable = "SPLITCTL_CELL"

    /// `8x16`; nil unless both parts are positive finite numbers.
    init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
            width > 0, height > 0, width.isFinite, height.isFinite
        else { return nil }
        self.width = width
        self.height = height
    }

    init(width: Double = 8, height: Double = 16) {
        self.width = width
        self.height = height
    }

    /// The window size of a terminal of `columns` x `rows` cells.
    func points(columns: Int, rows: Int) -> Size {
        Size(width: Double(columns) * width, height: Double(rows) * height)
    }
}
