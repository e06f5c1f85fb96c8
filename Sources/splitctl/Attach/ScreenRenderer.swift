import SplitCore

/// Draws an `AttachState` on a canvas the size of the terminal (docs/TERMINAL.md "Screen"):
/// a status line (scene, revision, size, size classes, collapsed or display mode and
/// behavior, tab, link), the columns as boxes at their scaled widths with their stacks (top
/// highlighted) and the item list in the focused one (the inspector as a column at its
/// frame, the display-mode button as a marker in the secondary's title bar), presentations
/// (a collapsed scene's inspector sheet first) and the help overlay on top, then the event
/// ticker and a message/hint line. Pure.
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
        canvas.put(
            state.ticker.isEmpty ? "events: -" : "events: " + state.ticker, x: 1, y: size.rows - 2,
            style: hintText, limit: size.columns - 2)
        if let message = state.message {
            canvas.put(
                message, x: 1, y: size.rows - 1, style: state.messageIsError ? errorText : .plain,
                limit: size.columns - 2)
        } else {
            canvas.put(
                "? help  ←→ focus  ↑↓ select  ⏎ open  p push  ⌫ back  tab/1-9 tabs  d mode  n snapshot  q quit",
                x: 1, y: size.rows - 1, style: hintText, limit: size.columns - 2)
        }
        return canvas
    }

    /// The status line's two parts within `width` cells: the status fields on the left
    /// (`scene S │ rev 7 │ expanded oneBesideSecondary tile │ regular/regular │ 1600x800
    /// landscape │ tab 0 │ window 200x50`) and the link on the right (`connected`,
    /// `reconnecting (attempt 3): no socket at ...`). As TERMINAL.md promises, whole fields
    /// are left out from the right and none is cut in the middle; they count in this order:
    /// scene, revision, the link's state, its reason, then the layout's fields. The longest
    /// run of them that fits is shown, with `…` where status fields or the reason were left
    /// out. Only a scene id too long for the line alone is cut. The line reads ` STATUS  LINK `.
    static func statusLine(_ state: AttachState, width: Int) -> (status: String, link: String) {
        let status = statusFields(state)
        let link = linkFields(state.link)
        // Priority order, as (is a link field, index).
        let order =
            status.indices.prefix(2).map { (false, $0) } + link.indices.map { (true, $0) }
            + status.indices.dropFirst(2).map { (false, $0) }
        for count in stride(from: order.count, through: 1, by: -1) {
            let chosen = order.prefix(count)
            let statusCount = chosen.filter { !$0.0 }.count, linkCount = chosen.filter { $0.0 }.count
            let left = joinedStatus(status, statusCount)
            let right =
                linkCount == 0
                ? "" : link.prefix(linkCount).joined(separator: ": ") + (linkCount < link.count ? ": …" : "")
            if 1 + left.count + (right.isEmpty ? 0 : 2 + right.count) + 1 <= width { return (left, right) }
        }
        return (cutScene(status[0], width - 2), "")
    }

    /// The first `count` fields joined, and `│ …` when some were left out.
    private static func joinedStatus(_ fields: [String], _ count: Int) -> String {
        let shown = fields.prefix(count).joined(separator: " │ ")
        return count < fields.count ? shown + " │ …" : shown
    }

    /// A scene field too long for the line: cut, with `…`.
    private static func cutScene(_ field: String, _ width: Int) -> String {
        width > 0 ? String(field.prefix(width - 1)) + "…" : ""
    }

    /// The status line's fields, most telling first.
    static func statusFields(_ state: AttachState) -> [String] {
        // As the canvas shows them (`visible`), so that they are counted as drawn.
        var parts = ["scene \(visible(state.scene))", "rev \(state.revision)"]
        // Most telling first: a narrow terminal leaves fields out from the right.
        if let layout = state.layout {
            parts.append(
                layout.collapsed
                    ? "collapsed"
                    : "expanded \(layout.displayMode?.rawValue ?? "-") \(layout.splitBehavior?.rawValue ?? "-")")
            parts.append("\(layout.traits.horizontalSizeClass.rawValue)/\(layout.traits.verticalSizeClass.rawValue)")
            parts.append("\(sizeLabel(layout.size)) \(layout.orientation.rawValue)")
            if let tab = layout.selectedTab { parts.append("tab \(tab)") }
        }
        parts.append("\(state.role.rawValue) \(state.terminal.columns)x\(state.terminal.rows)")
        return parts
    }

    /// The link as fields: its state, then why (while reconnecting).
    static func linkFields(_ link: AttachState.Link) -> [String] {
        switch link {
        case .connected: ["connected"]
        case let .reconnecting(attempt, reason): ["reconnecting (attempt \(attempt))", visible(reason)]
        }
    }

    private static func drawStatusLine(_ state: AttachState, on canvas: inout ScreenCanvas) {
        canvas.fill(x: 0, y: 0, width: canvas.width, height: 1, style: header)
        let (status, link) = statusLine(state, width: canvas.width)
        canvas.put(" " + status, x: 0, y: 0, style: header)
        guard !link.isEmpty else { return }
        let linkStyle = state.link == .connected ? header : CellStyle(bold: true, reverse: true, color: 33)
        canvas.put(" " + link + " ", x: canvas.width - link.count - 2, y: 0, style: linkStyle)
    }

    private static func drawColumns(
        _ layout: Layout, state: AttachState, area: (top: Int, height: Int),
        on canvas: inout ScreenCanvas
    ) {
        for rect in ColumnGeometry.rects(for: layout, columns: canvas.width) {
            let column = rect.column
            // Keys do not act on the inspector (it is no `Column`): it is never the focus.
            let focused = !rect.isInspector && column.column == state.focus
            // Overlay columns hide what lies under them.
            canvas.fill(x: rect.x, y: area.top, width: rect.width, height: area.height)
            canvas.box(
                x: rect.x, y: area.top, width: rect.width, height: area.height,
                style: focused ? focusBorder : .plain, openLeft: rect.clippedLeft, openRight: rect.clippedRight)
            var title = "─ \(rect.isInspector ? "inspector" : column.column.rawValue) \(points(column.width))pt"
            if column.overlay { title += " overlay" }
            if column.dimmed { title += " dimmed" }
            if !rect.isInspector, column.column == .secondary, let marker = buttonMarker(layout) {
                title += " " + marker
            }
            canvas.put(
                title + " ", x: rect.x + 1, y: area.top, style: focused ? focusBorder : .plain, limit: rect.width - 2)
            drawContent(
                of: column, focused: focused, state: state, x: rect.x + 2, y: area.top + 1,
                width: rect.width - 4, height: area.height - 2, on: &canvas)
            if column.dimmed {
                canvas.restyle(x: rect.x, y: area.top, width: rect.width, height: area.height) { $0.faint = true }
            }
        }
    }

    /// The stack (bottom first, top highlighted), then, in the focused column, the items.
    private static func drawContent(
        of column: ColumnLayout, focused: Bool, state: AttachState,
        x: Int, y: Int, width: Int, height: Int, on canvas: inout ScreenCanvas
    ) {
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
            canvas.put(
                (selected ? "› " : "  ") + "item-\(item + 1)", x: x, y: row,
                style: selected ? CellStyle(bold: true) : hintText, limit: width)
            row += 1
        }
    }

    /// The display-mode button (revision 2's `displayModeButton`) as the secondary's title
    /// bar shows it, where UIKit puts it: `[d → MODE]`, the key that taps it and the mode a
    /// tap leads to; nil while the button is hidden (or the layout predates revision 2).
    static func buttonMarker(_ layout: Layout) -> String? {
        guard let button = layout.revision2?.displayModeButton, button.visible else { return nil }
        return "[d → \(button.target?.rawValue ?? "-")]"
    }

    /// The modal stack, bottom first: while collapsed, a shown inspector is the first sheet
    /// (`inspector: TOP  pageSheet`), under the presentations the app made.
    static func presentationLines(_ layout: Layout) -> [String] {
        var lines: [String] = []
        if let inspector = layout.revision2?.inspector, inspector.presentedAsSheet, let top = inspector.stack.last {
            lines.append("inspector: \(top)  sheet")
        }
        let additions = layout.revision2?.presentations ?? []
        for (index, presentation) in layout.presentations.enumerated() {
            let requested =
                index < additions.count && additions[index].requestedStyle == "automatic"
                ? "automatic" : presentation.style.rawValue
            var line =
                presentation.effectiveStyle.rawValue == requested
                ? "\(presentation.vc)  \(requested)"
                : "\(presentation.vc)  \(requested) (as \(presentation.effectiveStyle.rawValue))"
            if index < additions.count, let anchor = additions[index].anchor { line += " at \(anchor)" }
            lines.append(line)
        }
        return lines
    }

    private static func drawPresentations(
        _ layout: Layout, area: (top: Int, height: Int), on canvas: inout ScreenCanvas
    ) {
        let lines = presentationLines(layout)
        guard !lines.isEmpty else { return }
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
    private static func drawPanel(
        title: String, lines: [String], area: (top: Int, height: Int), on canvas: inout ScreenCanvas
    ) {
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
