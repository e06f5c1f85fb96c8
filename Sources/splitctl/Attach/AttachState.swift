import SplitClient
import SplitCore
import SplitWire

/// Everything the attach screen shows, as a plain value. Layouts only ever come from splitd
/// (attach replies, change replies, pushes): the screen never guesses a layout locally, which
/// is what keeps several terminals on one scene identical.
struct AttachState {
    /// Whether the daemon is reachable right now.
    enum Link: Equatable {
        case connected
        /// Lost; the next attempt (number `attempt`) is scheduled. `reason` says why.
        case reconnecting(attempt: Int, reason: String)
    }

    var scene: String
    var role: AttachRole
    var terminal: TerminalSize
    var metrics: CellMetrics
    var layout: Layout?
    var revision = 0
    var link = Link.connected
    /// The column keys act on (push) and whose item list is shown.
    var focus: Column?
    var selectedItem = 0
    var helpVisible = false
    /// The last change's events, one line.
    var ticker = ""
    /// A one-line answer to the last key (an error response, a snapshot summary...).
    var message: String?
    var messageIsError = false
    /// The columns of the scene's style, from the last expanded layout (s/S cycle through them).
    var styleColumns: [Column] = [.primary, .secondary]
    var columnCursor = 0

    /// Items of the simulated list in the focused column: Enter opens `item-N` as showDetail.
    static let itemCount = 20

    /// The window size this terminal announces.
    var windowSize: Size { metrics.points(columns: terminal.columns, rows: terminal.rows) }

    /// Takes a layout splitd sent. Pushes may arrive after the reply that carried the same
    /// revision, so only newer revisions replace the screen (`force`: a fresh attach, whose
    /// revision may even be lower after a daemon lost its state).
    mutating func show(_ layout: Layout, revision: Int, events: [TimelineEvent], force: Bool = false) {
        guard force || self.layout == nil || revision > self.revision else { return }
        self.layout = layout
        self.revision = revision
        if !layout.collapsed { styleColumns = layout.columns.map(\.column) }
        if !events.isEmpty { ticker = "rev \(revision): " + events.map { describe($0) }.joined(separator: " · ") }
        // Keys act on what can be seen: a dimmed secondary lies under a sidebar.
        let undimmed = layout.visibleColumns.filter { !$0.dimmed }.map(\.column)
        let focusable = undimmed.isEmpty ? layout.visibleColumns.map(\.column) : undimmed
        if let focus, focusable.contains(focus) { return }
        focus = focusable.first
    }

    mutating func say(_ text: String, error: Bool = false) {
        message = text
        messageIsError = error
    }

    /// The column to push into: the focused one; while collapsed, the primary (the one
    /// visible stack grows from it).
    var pushColumn: Column {
        if layout?.collapsed ?? false { return .primary }
        return focus ?? .primary
    }
}

/// What a key asks the session to do beyond changing the screen state.
enum AttachEffect: Equatable {
    case intent(JSONValue)
    /// Select the tab after the current one (wrapping).
    case nextTab
    case snapshot
    case quit
}

extension AttachState {
    /// Applies `key` to the screen state; answers the request to send, if any (the key map
    /// of docs/TERMINAL.md, also shown by `?`).
    mutating func handle(_ key: Key) -> AttachEffect? {
        message = nil
        if helpVisible, key != .character("q"), key != .control(3) {
            helpVisible = false
            return nil
        }
        switch key {
        case .character("q"), .control(3): return .quit
        case .character("?"): helpVisible = true
        case .up, .character("k"): selectedItem = (selectedItem + Self.itemCount - 1) % Self.itemCount
        case .down, .character("j"): selectedItem = (selectedItem + 1) % Self.itemCount
        case .left: moveFocus(by: -1)
        case .right, .character("l"): moveFocus(by: 1)
        case .enter: return .intent(Intent.showDetail(vc: "item-\(selectedItem + 1)").wireObject)
        case .backspace, .character("h"): return .intent(Intent.back.wireObject)
        case .character("p"):
            return .intent(Intent.push(column: pushColumn, vc: "\(pushColumn.rawValue)-\(revision + 1)").wireObject)
        case .tab: return .nextTab
        case .character(let digit) where ("1"..."9").contains(digit):
            return .intent(Intent.selectTab(index: Int(String(digit))! - 1).wireObject)
        case .character("d"): return .intent(Intent.displayModeButton.wireObject)
        case .character("g"): return .intent(Intent.gesture.wireObject)
        case .character("t"): return .intent(Intent.tapDimmed.wireObject)
        case .character("s"): return .intent(Intent.showColumn(nextCycledColumn()).wireObject)
        case .character("S"): return .intent(Intent.hideColumn(nextCycledColumn()).wireObject)
        case .character("n"): return .snapshot
        default: break
        }
        return nil
    }

    private mutating func moveFocus(by offset: Int) {
        let visible = layout?.visibleColumns.map(\.column) ?? []
        guard !visible.isEmpty else { return }
        let current = focus.flatMap { visible.firstIndex(of: $0) } ?? 0
        focus = visible[(current + offset + visible.count) % visible.count]
    }

    /// The column s/S act on, advancing the cycle (primary, supplementary, secondary).
    private mutating func nextCycledColumn() -> Column {
        let column = styleColumns[columnCursor % styleColumns.count]
        columnCursor += 1
        return column
    }
}
