import SplitCore

/// A visible column placed on the terminal: cells `x..<x+width`, and whether its frame went
/// past the window's left or right edge (a displaced secondary), so the renderer leaves that
/// side open.
struct ColumnRect: Equatable {
    var column: ColumnLayout
    var x: Int
    var width: Int
    var clippedLeft: Bool
    var clippedRight: Bool
}

/// Scales a layout's column frames (points) to terminal cells. Pure.
enum ColumnGeometry {
    /// The visible columns in drawing order: tiled and displaced columns first, overlay
    /// columns last so they are drawn over the (dimmed) secondary.
    static func rects(for layout: Layout, columns: Int) -> [ColumnRect] {
        guard layout.size.width > 0, columns > 0 else { return [] }
        let scale = Double(columns) / layout.size.width
        let visible = layout.visibleColumns
        let ordered = visible.filter { !$0.overlay } + visible.filter(\.overlay)
        return ordered.compactMap { column in
            let left = Int((column.x * scale).rounded())
            let right = Int(((column.x + column.width) * scale).rounded())
            let x = max(left, 0), end = min(right, columns)
            guard end > x else { return nil }
            return ColumnRect(
                column: column, x: x, width: end - x, clippedLeft: left < 0, clippedRight: right > columns)
        }
    }
}
