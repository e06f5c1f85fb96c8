import SplitCore

/// Draws an `AttachState` on a canvas the size of the terminal (docs/TERMINAL.md "Screen"):
/// a status line (scene, revision, size, size classes, collapsed or display mode and
/// behavior, tab, link), the columns as boxes at their scaled widths with their stacks (top
/// highlighted) and the item list in the focused one, presentations and the help overlay on
/// top, then the event ticker and a message/hint line. Pure.
enum ScreenRenderer {
    static let minimumColumns = 24
    static let minimumRows = 6

    static let header = CellStyle(reverse: true)
    static let topOfStack = CellStyle(bold: true, reverse: true)
    static let focusBorder = CellStyle(bold: true, color: 36)
    static let errorText = CellStyle(bold: true, color: 31)
    static let hintText = CellStyle(faint: true)

    static func render(_ state: AttachState) -> ScreenCanvas {
        let size = state.terminal
        var canvas = ScreenCanvas(width: size.columns, height: size.rows)
        guard size.columns >= minimumColumns, size.rows >= minimumRows else {
            canvas.put("terminal too small", x: 0, y: 0)
            canvas.put("need \(minimumColumns)x\(minimumRows)", x: 0, y: 1)
            return canvas
        }
        drawStatusLine(state, on: &canvas)
        let area = (top: 1, height: size.rows - 3)
        if let layout = state.layout {
            drawColumns(layout, state: state, area: area, on: &canvas)
            drawPresentations(layout, area: area, on: &canvas)
        } else {
            canvas.put("waiting for the layout of \(state.scene)...", x: 1, y: area.top + 1)
        }
        if state.helpVisible { drawHelp(area: area, on: &canvas) }
        canvas.put(state.ticker.isEmpty ? "events: -" : "events: " + state.ticker, x: 1, y: size.rows - 2,
                   style: hintText, limit: size.columns - 2)
        if let message = state.message {
            canvas.put(message, x: 1, y: size.rows - 1, style: state.messageIsError ? errorText : .plain, limit: size.columns - 2)
        } else {
            canvas.put("? help  ←→ focus  ↑↓ select  ⏎ open  p push  ⌫ back  tab/1-9 tabs  d mode  n snapshot  q quit",
                       x: 1, y: size.rows - 1, style: hintText, limit: size.columns - 2)
        }
        return canvas
    }

    /// `scene S │ rev 7 │ expanded oneBesideSecondary tile │ regular/regular │ 1600x800 landscape │ tab 0 │ window 200x50`,
    /// at most `width` characters: whole fields from the left, then `…` where the rest was
    /// left out (a field is never cut in the middle; only a scene id too long for the line is).
    static func statusText(_ state: AttachState, fitting width: Int = .max) -> String {
        let separator = " │ ", more = "…"
        var text = ""
        for field in statusFields(state) {
            let candidate = text.isEmpty ? field : text + separator + field
            if candidate.count <= width {
                text = candidate
                continue
            }
            if text.isEmpty {
                text = width > 0 ? String(field.prefix(width - 1)) + more : ""
            } else if text.count + separator.count + more.count <= width {
                text += separator + more
            } else if text.count + 1 + more.count <= width {
                text += " " + more
            }
            break
        }
        return text
    }

    /// The status line's fields, most telling first.
    static func statusFields(_ state: AttachState) -> [String] {
        var parts = ["scene \(state.scene)", "rev \(state.revision)"]
        // Most telling first: a narrow terminal leaves fields out from the right.
        if let layout = state.layout {
            parts.append(layout.collapsed ? "collapsed"
                : "expanded \(layout.displayMode?.rawValue ?? "-") \(layout.splitBehavior?.rawValue ?? "-")")
            parts.append("\(layout.traits.horizontalSizeClass.rawValue)/\(layout.traits.verticalSizeClass.rawValue)")
            parts.append("\(sizeLabel(layout.size)) \(layout.orientation.rawValue)")
            if let tab = layout.selectedTab { parts.append("tab \(tab)") }
        }
        parts.append("\(state.role.rawValue) \(state.terminal.columns)x\(state.terminal.rows)")
        return parts
    }

    static func linkText(_ link: AttachState.Link) -> String {
        switch link {
        case .connected: "connected"
        case let .reconnecting(attempt, reason): "reconnecting (attempt \(attempt)): \(reason)"
        }
    }

    private static func drawStatusLine(_ state: AttachState, on canvas: inout ScreenCanvas) {
        canvas.fill(x: 0, y: 0, width: canvas.width, height: 1, style: header)
        let link = " " + linkText(state.link) + " "
        let linkStyle = state.link == .connected ? header : CellStyle(bold: true, reverse: true, color: 33)
        let room = canvas.width - link.count - 1
        canvas.put(" " + statusText(state, fitting: room - 1), x: 0, y: 0, style: header, limit: max(room, 0))
        canvas.put(link, x: max(canvas.width - link.count, 0), y: 0, style: linkStyle)
    }

    private static func drawColumns(_ layout: Layout, state: AttachState, area: (top: Int, height: Int),
                                    on canvas: inout ScreenCanvas) {
        for rect in ColumnGeometry.rects(for: layout, columns: canvas.width) {
            let column = rect.column
            let focused = column.column == state.focus
            // Overlay columns hide what lies under them.
            canvas.fill(x: rect.x, y: area.top, width: rect.width, height: area.height)
            canvas.box(x: rect.x, y: area.top, width: rect.width, height: area.height,
                       style: focused ? focusBorder : .plain, openLeft: rect.clippedLeft, openRight: rect.clippedRight)
            var title = "─ \(column.column.rawValue) \(points(column.width))pt"
            if column.overlay { title += " overlay" }
            if column.dimmed { title += " dimmed" }
            canvas.put(title + " ", x: rect.x + 1, y: area.top, style: focused ? focusBorder : .plain, limit: rect.width - 2)
            drawContent(of: column, focused: focused, state: state, x: rect.x + 2, y: area.top + 1,
                        width: rect.width - 4, height: area.height - 2, on: &canvas)
            if column.dimmed {
                canvas.restyle(x: rect.x, y: area.top, width: rect.width, height: area.height) { $0.faint = true }
            }
        }
    }

    /// The stack (bottom first, top highlighted), then, in the focused column, the items.
    private static func drawContent(of column: ColumnLayout, focused: Bool, state: AttachState,
                                    x: Int, y: Int, width: Int, height: Int, on canvas: inout ScreenCanvas) {
        guard width > 0, height > 0 else { return }
        let stack = column.stack.suffix(max(height, 1))
        var row = y
        for (offset, vc) in stack.enumerated() {
            let isTop = offset == stack.count - 1
            canvas.put(isTop ? "▸ \(vc)" : "  \(vc)", x: x, y: row, style: isTop ? topOfStack : .plain, limit: width)
            row += 1
        }
        if column.stack.isEmpty {
            canvas.put("(empty)", x: x, y: row, style: hintText, limit: width)
            row += 1
        }
        let room = y + height - row - 1
        guard focused, room >= 2 else { return }
        row += 1
        let visible = min(room, AttachState.itemCount)
        let first = min(max(state.selectedItem - visible + 1, 0), AttachState.itemCount - visible)
        for item in first..<(first + visible) {
            let selected = item == state.selectedItem
            canvas.put((selected ? "› " : "  ") + "item-\(item + 1)", x: x, y: row,
                       style: selected ? CellStyle(bold: true) : hintText, limit: width)
            row += 1
        }
    }

    private static func drawPresentations(_ layout: Layout, area: (top: Int, height: Int), on canvas: inout ScreenCanvas) {
        guard !layout.presentations.isEmpty else { return }
        let lines = layout.presentations.map { presentation in
            presentation.effectiveStyle == presentation.style
                ? "\(presentation.vc)  \(presentation.style.rawValue)"
                : "\(presentation.vc)  \(presentation.style.rawValue) (as \(presentation.effectiveStyle.rawValue))"
        }
        drawPanel(title: "presented", lines: lines, area: area, on: &canvas)
    }

    static let helpLines = [
        "↑ ↓ / k j   select an item",
        "⏎ Enter     open it (showDetail item-N)",
        "⌫ / h       back",
        "← → / l     focus another column",
        "p           push a new view controller (focused column)",
        "Tab, 1..9   next tab, tab N",
        "d           display-mode button",
        "g           edge gesture",
        "t           tap the dimmed secondary",
        "s / S       show / hide a column (cycles the column)",
        "n           snapshot session (appSwitcher)",
        "q, ^C       quit",
        "any key closes this help",
    ]

    private static func drawHelp(area: (top: Int, height: Int), on canvas: inout ScreenCanvas) {
        drawPanel(title: "keys", lines: helpLines, area: area, on: &canvas)
    }

    /// A centered, bordered panel over everything else.
    private static func drawPanel(title: String, lines: [String], area: (top: Int, height: Int), on canvas: inout ScreenCanvas) {
        let width = min(canvas.width - 2, max(title.count + 6, (lines.map(\.count).max() ?? 0) + 4))
        let height = min(area.height, lines.count + 2)
        let x = (canvas.width - width) / 2
        let y = area.top + (area.height - height) / 2
        canvas.fill(x: x, y: y, width: width, height: height)
        canvas.box(x: x, y: y, width: width, height: height, style: focusBorder)
        canvas.put("─ \(title) ", x: x + 1, y: y, style: focusBorder, limit: width - 2)
        for (offset, line) in lines.prefix(height - 2).enumerated() {
            canvas.put(line, x: x + 2, y: y + 1 + offset, limit: width - 4)
        }
    }
}
