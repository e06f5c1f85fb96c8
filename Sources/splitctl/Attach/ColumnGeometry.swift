import SplitCore

/// A visible column placed on the terminal: cells `x..<x+width`, and whether its frame went
/// past the window's left or right edge (a displaced secondary), so the renderer leaves that
/// side open. The inspector (revision 2), which is no `Column`, comes as a `ColumnLayout`
/// holding its frame and stack with `isInspector` set.
struct ColumnRect: Equatable {
    var column: ColumnLayout
    var isInspector = false
    var x: Int
    var width: Int
    var clippedLeft: Bool
    var clippedRight: Bool
}

/// Scales a layout's column frames (points) to terminal cells. Pure.
enum ColumnGeometry {
    /// The visible columns in drawing order: tiled and displaced columns first, overlay
    /// columns last so they are drawn over the (dimmed) secondary.
    /// The inspector, when visible as a column, is one of them at its frame (tiled with the
    /// tiled columns, or over the secondary's trailing edge with the overlays).
    static func rects(for layout: Layout, columns: Int) -> [ColumnRect] {
        guard layout.size.width > 0, columns > 0 else { return [] }
        let scale = Double(columns) / layout.size.width
        var visible = layout.visibleColumns.map { (column: $0, isInspector: false) }
        if let inspector = layout.revision2?.inspector, inspector.visible, !layout.collapsed {
            let frame = ColumnLayout(
                column: .secondary, visible: true, x: inspector.x, width: inspector.width,
                overlay: inspector.overlay, stack: inspector.stack)
            visible.append((frame, true))
        }
        let ordered = visible.filter { !$0.column.overlay } + visible.filter { $0.column.overlay }
        return ordered.compactMap { entry in
            let column = entry.column
            let left = Int((column.x * scale).rounded())
            let right = Int(((column.x + column.width) * scale).rounded())
            let x = max(left, 0), end = min(right, columns)
            guard end > x else { return nil }
            return ColumnRect(
                column: column, isInspector: entry.isInspector, x: x, width: end - x, clippedLeft: left < 0,
                clippedRight: right > columns)
        }
    }
}
