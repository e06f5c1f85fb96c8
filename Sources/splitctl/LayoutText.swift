import SplitCore

// Compact human renderings. Scripts use --json; these are for people. View-controller ids
// go through `visible` (control characters as `\xHH`).

/// One header line and one line per column:
/// `1366x1024 landscape regular/regular expanded oneBesideSecondary tile`
/// `  primary        x=0     w=320    inbox > thread`
func describe(_ layout: Layout) -> String {
    var header =
        "\(layout.size) \(layout.orientation.rawValue) "
        + "\(layout.traits.horizontalSizeClass.rawValue)/\(layout.traits.verticalSizeClass.rawValue) "
    if layout.collapsed {
        header += "collapsed"
    } else {
        header += "expanded \(layout.displayMode?.rawValue ?? "-") \(layout.splitBehavior?.rawValue ?? "-")"
    }
    if let tab = layout.selectedTab { header += " tab=\(tab)" }
    let additions = layout.revision2
    if let additions {
        if additions.interfaceOrientation != layout.orientation {
            header += " held=\(additions.interfaceOrientation.rawValue)"
        }
        if additions.activation != .foregroundActive { header += " \(additions.activation.rawValue)" }
        if let target = additions.displayModeButton.target { header += " button->\(target.rawValue)" }
    }
    var lines = [header]
    for column in layout.columns { lines.append("  " + describe(column)) }
    if let inspector = additions?.inspector, !layout.collapsed {
        lines.append(
            "  "
                + describe(
                    ColumnLayout(
                        column: .secondary, visible: inspector.visible, x: inspector.x, width: inspector.width,
                        overlay: inspector.overlay, stack: inspector.stack), name: "inspector"))
    }
    if let inspector = additions?.inspector, inspector.presentedAsSheet {
        lines.append("  presented      \(inspector.stack.map(visible).joined(separator: " > ")) inspector sheet")
    }
    for (index, presentation) in layout.presentations.enumerated() {
        let extra = additions.flatMap { index < $0.presentations.count ? $0.presentations[index] : nil }
        let style = extra?.requestedStyle ?? presentation.style.rawValue
        let adapted =
            presentation.effectiveStyle.rawValue == style ? "" : " (as \(presentation.effectiveStyle.rawValue))"
        let anchor = extra?.anchor.map { " at \(visible($0))" } ?? ""
        lines.append("  presented      \(visible(presentation.vc)) \(style)\(adapted)\(anchor)")
    }
    return lines.joined(separator: "\n")
}

func describe(_ column: ColumnLayout, name columnName: String? = nil) -> String {
    var flags: [String] = []
    if !column.visible { flags.append("hidden") }
    if column.overlay { flags.append("overlay") }
    if column.dimmed { flags.append("dimmed") }
    let name = padded(columnName ?? column.column.rawValue, 15)
    let x = padded("x=" + points(column.x), 8)
    let width = padded("w=" + points(column.width), 8)
    let stack = column.stack.isEmpty ? "(empty)" : column.stack.map(visible).joined(separator: " > ")
    let suffix = flags.isEmpty ? "" : " [" + flags.joined(separator: ",") + "]"
    return "\(name)\(x)\(width)\(stack)\(suffix)"
}

/// Revision 2's events as one-liners; protocol 1's as `describe(_: SceneEvent)`.
func describe(_ event: TimelineEvent) -> String {
    switch event {
    case .scene(let event): describe(event)
    case .willShowColumn(let column): "willShowColumn \(column.rawValue)"
    case .willHideColumn(let column): "willHideColumn \(column.rawValue)"
    case let .activationChanged(from, to): "activationChanged \(from.rawValue) -> \(to.rawValue)"
    case .snapshotTaken(let session): "snapshotTaken session=\(visible(session))"
    case .inspectorAppear(let vc): "appear \(visible(vc)) in inspector"
    case .inspectorDisappear(let vc): "disappear \(visible(vc)) in inspector"
    }
}

/// `didCollapse moved=[a,b]`-style one-liners.
func describe(_ event: SceneEvent) -> String {
    switch event {
    case let .traitsChanged(from, to):
        "traitsChanged \(from.horizontalSizeClass.rawValue)/\(from.verticalSizeClass.rawValue) -> \(to.horizontalSizeClass.rawValue)/\(to.verticalSizeClass.rawValue)"
    case let .viewWillTransition(size): "viewWillTransition to \(size)"
    case let .willCollapse(moved), let .didCollapse(moved), let .willExpand(moved), let .didExpand(moved):
        "\(event.type) moved=[\(moved.map(visible).joined(separator: ","))]"
    case let .displayModeChanged(from, to):
        "displayModeChanged \(from?.rawValue ?? "null") -> \(to?.rawValue ?? "null")"
    case let .appear(vc, column), let .disappear(vc, column): "\(event.type) \(visible(vc)) in \(column.rawValue)"
    case let .presented(vc, style): "presented \(visible(vc)) \(style.rawValue)"
    case let .dismissed(vc): "dismissed \(visible(vc))"
    }
}

/// `text` padded with spaces to `width`; a longer text is kept whole and gets one space, so
/// fields never run together.
func padded(_ text: String, _ width: Int) -> String {
    text.count < width ? text + String(repeating: " ", count: width - text.count) : text + " "
}

/// 320 -> "320", 0.5 -> "0.5".
func points(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
