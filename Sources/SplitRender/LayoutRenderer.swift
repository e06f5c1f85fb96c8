import SplitCore

/// How a layout is drawn besides the layout itself: what a `Layout` does not carry.
public struct RenderOptions: Hashable, Sendable {
    /// The caption's first line (a scene id, a scenario step); nil: none.
    public var title: String?
    /// Text alignment in the columns. Frames are already mirrored by the core for rtl.
    public var layoutDirection: LayoutDirection
    /// Tab titles of the primary's tab bar; empty: tabs are numbered up to the selected one.
    public var tabTitles: [String]
    /// The picture's width in CSS pixels; the height follows the aspect ratio. The viewBox
    /// is in points, so every drawn coordinate is the layout's own.
    public var pixelWidth: Double

    public init(
        title: String? = nil, layoutDirection: LayoutDirection = .ltr, tabTitles: [String] = [],
        pixelWidth: Double = 640
    ) {
        self.title = title
        self.layoutDirection = layoutDirection
        self.tabTitles = tabTitles
        self.pixelWidth = pixelWidth
    }
}

/// A drawing in points: its content and the box that shows all of it.
struct Picture {
    var minX: Double
    var minY: Double
    var width: Double
    var height: Double
    var content: [SVGElement]

    var viewBox: String { [minX, minY, width, height].map(svgNumber).joined(separator: " ") }

    /// A root `svg` element showing the picture `pixelWidth` pixels wide.
    func root(pixelWidth: Double, attributes extra: [(String, String)] = []) -> SVGElement {
        let pixelHeight = (pixelWidth * height / width).rounded()
        return SVGElement(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("viewBox", viewBox),
                ("width", svgNumber(pixelWidth)), ("height", svgNumber(pixelHeight)),
                ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"),
            ] + extra, children: content)
    }
}

/// A `Layout` as SVG (pure and deterministic: the same layout and options give the same
/// bytes). The window is the rectangle (0, 0, width, height) of the viewBox; every visible
/// column is a `rect class="frame"` at exactly its layout `x` and `width`, full height;
/// parts of a column outside the window (a displaced sidebar) are drawn veiled, outside the
/// window's outline. Controls carry the intent they stand for as `data-intent` (JSON), which
/// splitweb's page sends when they are clicked.
public enum LayoutRenderer {
    public static func svg(_ layout: Layout, options: RenderOptions = RenderOptions()) -> String {
        picture(layout, options: options).root(
            pixelWidth: options.pixelWidth,
            attributes: [
                ("class", "layout"), ("data-width", svgNumber(layout.size.width)),
                ("data-height", svgNumber(layout.size.height)),
            ]
        ).document
    }

    /// Metrics grow with the window so that a full-screen iPad and a phone read alike when
    /// both are shown at the same pixel width.
    struct Metrics {
        let font: Double
        var navBar: Double { font * 2.6 }
        var row: Double { font * 2 }
        var gap: Double { font / 2 }

        init(_ size: Size) { font = max(13, (max(size.width, size.height) / 64).rounded()) }
    }

    static func picture(_ layout: Layout, options: RenderOptions) -> Picture {
        let m = Metrics(layout.size)
        let w = layout.size.width, h = layout.size.height
        let visible = layout.columns.filter(\.visible)
        let margin = m.font
        let minX = min(0, visible.map(\.x).min() ?? 0) - margin
        let maxX = max(w, visible.map { $0.x + $0.width }.max() ?? w) + margin
        let caption = captionLines(layout, options: options)
        let captionHeight = Double(caption.count) * m.font * 1.5 + m.font
        var content: [SVGElement] = []
        content.append(SVGElement("title", text: caption.joined(separator: " | ")))
        content.append(
            rect(
                minX, -margin, maxX - minX, h + 2 * margin + captionHeight, fill: "#fafafa",
                attributes: [("class", "background")]))
        content.append(rect(0, 0, w, h, fill: "#ffffff", attributes: [("class", "window")]))

        // Tiled columns first, then scrims over dimmed ones, then overlays on top.
        let base = visible.filter { !$0.overlay }
        let overlays = visible.filter(\.overlay)
        let hasSupplementary = layout.columns.contains { $0.column == .supplementary }
        for column in base + overlays {
            content.append(
                columnGroup(column, layout: layout, metrics: m, options: options, hasSupplementary: hasSupplementary))
        }
        // Veils over the parts outside the window, and its outline above everything so far.
        for column in visible where column.x < 0 || column.x + column.width > w {
            let left = column.x < 0 ? (column.x, min(0, column.x + column.width)) : nil
            let right = column.x + column.width > w ? (max(w, column.x), column.x + column.width) : nil
            for (from, to) in [left, right].compactMap({ $0 }) where to > from {
                content.append(
                    rect(
                        from, 0, to - from, h, fill: "#fafafa",
                        attributes: [
                            ("class", "offwindow"), ("data-column", column.column.rawValue), ("fill-opacity", "0.7"),
                        ]))
            }
        }
        content.append(
            rect(
                0, 0, w, h, fill: "none",
                attributes: [
                    ("class", "window-outline"), ("stroke", "#222222"), ("stroke-width", svgNumber(m.font / 6)),
                ]))
        for (index, presentation) in layout.presentations.enumerated() {
            content += presentationElements(presentation, index: index, layout: layout, metrics: m, options: options)
        }
        for (index, line) in caption.enumerated() {
            content.append(
                SVGElement(
                    "text",
                    [
                        ("class", index == 0 && options.title != nil ? "caption title" : "caption"),
                        ("x", "0"), ("y", svgNumber(h + m.font * 1.5 * Double(index + 1) + m.font / 2)),
                        ("font-size", svgNumber(m.font)), ("fill", "#333333"),
                        ("font-weight", index == 0 && options.title != nil ? "bold" : "normal"),
                    ], text: line))
        }
        return Picture(
            minX: minX, minY: -margin, width: maxX - minX, height: h + 2 * margin + captionHeight, content: content)
    }

    /// Title, size and traits, display state, then what is hidden or presented.
    static func captionLines(_ layout: Layout, options: RenderOptions) -> [String] {
        var lines: [String] = []
        if let title = options.title { lines.append(title) }
        let traits = layout.traits
        lines.append(
            "\(svgNumber(layout.size.width))x\(svgNumber(layout.size.height)) \(layout.orientation.rawValue)"
                + " · horizontal \(traits.horizontalSizeClass.rawValue) · vertical \(traits.verticalSizeClass.rawValue)"
        )
        if layout.collapsed {
            lines.append("collapsed")
        } else {
            lines.append("expanded · \(layout.displayMode?.rawValue ?? "-") · \(layout.splitBehavior?.rawValue ?? "-")")
        }
        var extra: [String] = []
        let hidden = layout.columns.filter { !$0.visible }.map(\.column.rawValue)
        if !hidden.isEmpty { extra.append("hidden: " + hidden.joined(separator: ", ")) }
        if !layout.presentations.isEmpty {
            extra.append(
                "presented: "
                    + layout.presentations.map { presentation in
                        presentation.vc + " ("
                            + (presentation.style == presentation.effectiveStyle
                                ? presentation.style.rawValue
                                : "\(presentation.style.rawValue) as \(presentation.effectiveStyle.rawValue)") + ")"
                    }.joined(separator: ", "))
        }
        if let tab = layout.selectedTab { extra.append("tab \(tab)") }
        if !extra.isEmpty { lines.append(extra.joined(separator: " · ")) }
        return lines
    }

    static let columnFill: [Column: String] = [
        .primary: "#e9eef6", .supplementary: "#f1edf8", .secondary: "#ffffff", .compact: "#ffffff",
    ]

    static func columnGroup(
        _ column: ColumnLayout, layout: Layout, metrics m: Metrics, options: RenderOptions,
        hasSupplementary: Bool
    ) -> SVGElement {
        let name = column.column.rawValue
        let h = layout.size.height
        var classes = ["column", name]
        if column.overlay { classes.append("overlay") }
        if column.dimmed { classes.append("dimmed") }
        if column.x < 0 || column.x + column.width > layout.size.width { classes.append("displaced") }
        var group = SVGElement("g", [("class", classes.joined(separator: " ")), ("data-column", name)])
        if column.overlay {
            group.append(
                rect(
                    column.x + m.gap, m.gap, column.width, h - m.gap, fill: "#000000",
                    attributes: [("class", "shadow"), ("fill-opacity", "0.18")]))
        }
        group.append(
            rect(
                column.x, 0, column.width, h, fill: columnFill[column.column] ?? "#ffffff",
                attributes: [
                    ("class", "frame"), ("data-x", svgNumber(column.x)), ("data-width", svgNumber(column.width)),
                    ("stroke", "#556070"), ("stroke-width", svgNumber(m.font / 10)),
                ]))
        let rtl = options.layoutDirection == .rtl
        let inset = m.font * 0.8
        let leadingX = rtl ? column.x + column.width - inset : column.x + inset
        let trailingX = rtl ? column.x + inset : column.x + column.width - inset
        let anchorLeading = rtl ? "end" : "start", anchorTrailing = rtl ? "start" : "end"

        // Navigation bar: back (pop) when the stack has more than its root, the top's title,
        // the display-mode button in the secondary's bar while expanded.
        group.append(
            rect(
                column.x, 0, column.width, m.navBar, fill: "#f4f5f7",
                attributes: [("class", "navbar"), ("stroke", "#c9ced6"), ("stroke-width", svgNumber(m.font / 12))]))
        let top = column.stack.last ?? ""
        let barY = m.navBar / 2 + m.font * 0.35
        var titleRoom = column.width - 2 * inset
        if column.stack.count > 1 {
            group.append(
                SVGElement(
                    "text",
                    [
                        ("class", "back"),
                        ("data-intent", jsonObject([("kind", .string("pop")), ("column", .string(name))])),
                        ("x", svgNumber(leadingX)), ("y", svgNumber(barY)), ("font-size", svgNumber(m.font)),
                        ("fill", "#2f6fdf"), ("text-anchor", anchorLeading), ("cursor", "pointer"),
                    ], text: rtl ? "back ›" : "‹ back"))
            titleRoom -= m.font * 8
        }
        if let button = displayModeButton(layout, column: column) {
            let size = m.font * 1.6
            let x =
                rtl
                ? column.x + column.width - inset - size - (column.stack.count > 1 ? m.font * 4.5 : 0)
                : column.x + inset + (column.stack.count > 1 ? m.font * 4.5 : 0)
            group.append(
                SVGElement(
                    "g",
                    [
                        ("class", "display-mode-button"),
                        ("data-intent", jsonObject([("kind", .string("displayModeButton"))])),
                        ("data-label", button), ("cursor", "pointer"),
                    ],
                    children: [
                        rect(
                            x, (m.navBar - size) / 2, size * 1.3, size, fill: "#ffffff",
                            attributes: [
                                ("stroke", "#2f6fdf"), ("stroke-width", svgNumber(m.font / 8)),
                                ("rx", svgNumber(m.font / 5)),
                            ]),
                        rect(
                            rtl ? x + size * 1.3 - size * 0.45 : x, (m.navBar - size) / 2, size * 0.45, size,
                            fill: "#2f6fdf", attributes: [("rx", svgNumber(m.font / 5))]),
                        SVGElement("title", text: button),
                    ]))
            titleRoom -= m.font * 8
        }
        group.append(
            SVGElement(
                "text",
                [
                    ("class", "title"), ("x", svgNumber(column.x + column.width / 2)), ("y", svgNumber(barY)),
                    ("font-size", svgNumber(m.font)), ("font-weight", "bold"), ("text-anchor", "middle"),
                    ("fill", "#111111"),
                ], text: truncated(top, toFit: max(titleRoom, m.font), characterWidth: m.font * 0.6)))

        // The stack, bottom first; the top highlighted. Deep stacks keep the root and the
        // last entries that fit, with an elision row between.
        let tabBar = tabBarColumn(layout) == column.column
        let bottomReserve = tabBar ? m.navBar : 0
        let available = h - m.navBar - bottomReserve - m.gap
        var entries: [(Int, String)?] = column.stack.enumerated().map { ($0.offset, $0.element) }
        let sourceRows = listRows(column, layout: layout, hasSupplementary: hasSupplementary)
        let rowsHeight = sourceRows.isEmpty ? 0 : Double(sourceRows.count + 1) * m.row
        let fitting = max(Int((available - rowsHeight) / m.row), 3)
        if entries.count > fitting {
            entries = [entries[0], nil] + Array(entries.suffix(fitting - 2))
        }
        var y = m.navBar + m.gap
        group.append(
            SVGElement(
                "text",
                [
                    ("class", "stack-label"), ("x", svgNumber(leadingX)), ("y", svgNumber(y + m.font)),
                    ("font-size", svgNumber(m.font * 0.75)),
                    ("fill", "#667085"), ("text-anchor", anchorLeading),
                ], text: "\(name) stack (\(column.stack.count))"))
        y += m.font * 1.4
        for entry in entries {
            guard let (index, vc) = entry else {
                group.append(
                    SVGElement(
                        "text",
                        [
                            ("class", "elision"), ("x", svgNumber(leadingX)), ("y", svgNumber(y + m.font)),
                            ("font-size", svgNumber(m.font)), ("fill", "#667085"), ("text-anchor", anchorLeading),
                        ], text: "⋮"))
                y += m.row
                continue
            }
            let isTop = index == column.stack.count - 1
            group.append(
                SVGElement(
                    "g",
                    [
                        ("class", isTop ? "stack-entry top" : "stack-entry"), ("data-vc", vc),
                        ("data-index", String(index)),
                    ],
                    children: [
                        rect(
                            column.x + inset / 2, y, column.width - inset, m.row - m.font / 4,
                            fill: isTop ? "#2f6fdf" : "#dfe3ea", attributes: [("rx", svgNumber(m.font / 4))]),
                        SVGElement(
                            "text",
                            [
                                ("x", svgNumber(leadingX)), ("y", svgNumber(y + m.row * 0.65)),
                                ("font-size", svgNumber(m.font)),
                                ("fill", isTop ? "#ffffff" : "#222222"), ("text-anchor", anchorLeading),
                            ],
                            text: truncated(
                                "\(index). \(vc)", toFit: column.width - 2 * inset, characterWidth: m.font * 0.6)),
                    ]))
            y += m.row
        }

        // The list the root shows: a row selects an item (showDetail, or show in the
        // supplementary when the primary lists for it).
        if !sourceRows.isEmpty {
            y += m.row / 2
            for (label, intent) in sourceRows {
                group.append(
                    SVGElement(
                        "g", [("class", "row"), ("data-intent", intent), ("cursor", "pointer")],
                        children: [
                            rect(
                                column.x, y, column.width, m.row, fill: "#ffffff",
                                attributes: [
                                    ("fill-opacity", "0.6"), ("stroke", "#d5d9e0"),
                                    ("stroke-width", svgNumber(m.font / 12)),
                                ]),
                            SVGElement(
                                "text",
                                [
                                    ("x", svgNumber(leadingX)), ("y", svgNumber(y + m.row * 0.65)),
                                    ("font-size", svgNumber(m.font)),
                                    ("fill", "#222222"), ("text-anchor", anchorLeading),
                                ],
                                text: truncated(
                                    label, toFit: column.width - 2 * inset - m.font, characterWidth: m.font * 0.6)),
                            SVGElement(
                                "text",
                                [
                                    ("x", svgNumber(trailingX)), ("y", svgNumber(y + m.row * 0.65)),
                                    ("font-size", svgNumber(m.font)),
                                    ("fill", "#98a2b3"), ("text-anchor", anchorTrailing),
                                ], text: rtl ? "‹" : "›"),
                        ]))
                y += m.row
            }
        }
        if tabBar { group.append(tabBarElement(layout, column: column, metrics: m, options: options)) }
        if column.dimmed {
            group.append(
                rect(
                    column.x, 0, column.width, h, fill: "#000000",
                    attributes: [
                        ("class", "scrim"), ("fill-opacity", "0.3"), ("cursor", "pointer"),
                        ("data-intent", jsonObject([("kind", .string("tapDimmed"))])),
                    ]))
        }
        return group
    }

    /// Where the display-mode button shows, and what it is called; nil: nowhere in this
    /// column. Derived from the layout: expanded scenes show it in the secondary's bar.
    /// (A layout field that states it would be read here instead.)
    static func displayModeButton(_ layout: Layout, column: ColumnLayout) -> String? {
        guard !layout.collapsed, column.column == .secondary, let mode = layout.displayMode else { return nil }
        return mode == .secondaryOnly ? "show sidebar" : "display mode: \(mode.rawValue)"
    }

    /// The rows a column's root list shows, as (label, intent JSON): only a column showing
    /// its root (a list), and never the secondary (a detail).
    static func listRows(_ column: ColumnLayout, layout: Layout, hasSupplementary: Bool) -> [(String, String)] {
        guard column.column != .secondary, column.stack.count == 1, let root = column.stack.first else { return [] }
        return (1...4).map { number in
            let vc = "\(root)-\(number)"
            let intent =
                column.column == .primary && hasSupplementary && !layout.collapsed
                ? jsonObject([("kind", .string("show")), ("vc", .string(vc)), ("column", .string("supplementary"))])
                : jsonObject([("kind", .string("showDetail")), ("vc", .string(vc))])
            return (vc, intent)
        }
    }

    /// The column that holds the tab bar: the primary, or the one collapsed column.
    static func tabBarColumn(_ layout: Layout) -> Column? {
        guard layout.selectedTab != nil else { return nil }
        return layout.collapsed ? .compact : .primary
    }

    static func tabBarElement(
        _ layout: Layout, column: ColumnLayout, metrics m: Metrics, options: RenderOptions
    ) -> SVGElement {
        let selected = layout.selectedTab ?? 0
        let count = max(options.tabTitles.count, selected + 1)
        let y = layout.size.height - m.navBar
        let cell = column.width / Double(count)
        var bar = SVGElement("g", [("class", "tabbar")])
        bar.append(
            rect(
                column.x, y, column.width, m.navBar, fill: "#f4f5f7",
                attributes: [("stroke", "#c9ced6"), ("stroke-width", svgNumber(m.font / 12))]))
        for index in 0..<count {
            // Tabs run from the leading edge.
            let slot = options.layoutDirection == .rtl ? count - 1 - index : index
            let title = index < options.tabTitles.count ? options.tabTitles[index] : "tab \(index)"
            let x = column.x + Double(slot) * cell
            bar.append(
                SVGElement(
                    "g",
                    [
                        ("class", index == selected ? "tab selected" : "tab"), ("cursor", "pointer"),
                        ("data-intent", jsonObject([("kind", .string("selectTab")), ("index", .int(index))])),
                    ],
                    children: [
                        rect(
                            x, y, cell, m.navBar, fill: index == selected ? "#dbe6fb" : "#f4f5f7",
                            attributes: [("fill-opacity", "0.9")]),
                        SVGElement(
                            "text",
                            [
                                ("x", svgNumber(x + cell / 2)), ("y", svgNumber(y + m.navBar / 2 + m.font * 0.35)),
                                ("font-size", svgNumber(m.font)), ("text-anchor", "middle"),
                                ("fill", index == selected ? "#2f6fdf" : "#555555"),
                            ],
                            text: truncated(title, toFit: cell - m.font, characterWidth: m.font * 0.6)),
                    ]))
        }
        return bar
    }

    /// A presentation's frame by its effective style: full screen covers the window; sheets
    /// are centered cards (page 704 wide, form 540 x 620, as UIKit's regular sizes, clamped
    /// to the window); a popover hangs under its anchor, a bar button at the window's top
    /// trailing corner.
    static func presentationFrame(
        _ style: PresentationStyle, layout: Layout, metrics m: Metrics,
        options: RenderOptions
    ) -> (x: Double, y: Double, width: Double, height: Double, anchor: (Double, Double)?) {
        let w = layout.size.width, h = layout.size.height
        switch style {
        case .fullScreen:
            return (0, 0, w, h, nil)
        case .pageSheet:
            let width = min(w, 704)
            return ((w - width) / 2, (h * 0.05).rounded(), width, h - (h * 0.05).rounded(), nil)
        case .formSheet:
            let width = min(w - 2 * m.font, 540), height = min(h - 2 * m.font, 620)
            return ((w - width) / 2, (h - height) / 2, width, height, nil)
        case .popover:
            let anchorX = options.layoutDirection == .rtl ? m.font * 2 : w - m.font * 2
            let anchorY = m.navBar * 0.8
            let width = min(320, w - 2 * m.font), height = min(400, h * 0.45)
            let x = options.layoutDirection == .rtl ? m.font : w - m.font - width
            return (x, anchorY + m.font, width, height, (anchorX, anchorY))
        }
    }

    static func presentationElements(
        _ presentation: PresentationLayout, index: Int, layout: Layout,
        metrics m: Metrics, options: RenderOptions
    ) -> [SVGElement] {
        let style = presentation.effectiveStyle
        let frame = presentationFrame(style, layout: layout, metrics: m, options: options)
        let dismiss = jsonObject([("kind", .string("dismiss"))])
        var group = SVGElement(
            "g",
            [
                ("class", "presentation \(style.rawValue)"), ("data-vc", presentation.vc),
                ("data-style", presentation.style.rawValue), ("data-index", String(index)),
            ])
        if style == .pageSheet || style == .formSheet {
            group.append(
                rect(
                    0, 0, layout.size.width, layout.size.height, fill: "#000000",
                    attributes: [
                        ("class", "scrim"), ("fill-opacity", "0.25"), ("data-intent", dismiss),
                    ]))
        }
        if let (ax, ay) = frame.anchor {
            let half = m.font * 0.8
            group.append(
                SVGElement(
                    "circle",
                    [
                        ("class", "anchor"), ("cx", svgNumber(ax)), ("cy", svgNumber(ay)), ("r", svgNumber(m.font / 3)),
                        ("fill", "#d92d20"),
                    ]))
            group.append(
                SVGElement(
                    "path",
                    [
                        ("class", "arrow"), ("fill", "#ffffff"), ("stroke", "#556070"),
                        ("stroke-width", svgNumber(m.font / 10)),
                        (
                            "d",
                            "M \(svgNumber(ax - half)) \(svgNumber(frame.y)) L \(svgNumber(ax)) \(svgNumber(ay + m.font / 3)) L \(svgNumber(ax + half)) \(svgNumber(frame.y)) Z"
                        ),
                    ]))
        }
        group.append(
            rect(
                frame.x, frame.y, frame.width, frame.height, fill: "#ffffff",
                attributes: [
                    ("class", "sheet"), ("stroke", "#556070"), ("stroke-width", svgNumber(m.font / 8)),
                    ("rx", svgNumber(style == .fullScreen ? 0 : m.font * 0.6)),
                ]))
        group.append(
            rect(
                frame.x, frame.y, frame.width, m.navBar, fill: "#f4f5f7",
                attributes: [("class", "navbar"), ("rx", svgNumber(style == .fullScreen ? 0 : m.font * 0.6))]))
        group.append(
            SVGElement(
                "text",
                [
                    ("class", "title"), ("x", svgNumber(frame.x + frame.width / 2)),
                    ("y", svgNumber(frame.y + m.navBar / 2 + m.font * 0.35)),
                    ("font-size", svgNumber(m.font)), ("font-weight", "bold"), ("text-anchor", "middle"),
                    ("fill", "#111111"),
                ], text: truncated(presentation.vc, toFit: frame.width - m.font * 9, characterWidth: m.font * 0.6)))
        let rtl = options.layoutDirection == .rtl
        group.append(
            SVGElement(
                "text",
                [
                    ("class", "done"), ("data-intent", dismiss), ("cursor", "pointer"),
                    ("x", svgNumber(rtl ? frame.x + m.font * 0.8 : frame.x + frame.width - m.font * 0.8)),
                    ("y", svgNumber(frame.y + m.navBar / 2 + m.font * 0.35)), ("font-size", svgNumber(m.font)),
                    ("fill", "#2f6fdf"), ("text-anchor", rtl ? "start" : "end"),
                ], text: "Done"))
        let styleLine =
            presentation.style == style ? style.rawValue : "\(presentation.style.rawValue) → \(style.rawValue)"
        group.append(
            SVGElement(
                "text",
                [
                    ("class", "style"), ("x", svgNumber(frame.x + frame.width / 2)),
                    ("y", svgNumber(frame.y + m.navBar + m.font * 2)),
                    ("font-size", svgNumber(m.font * 0.85)), ("text-anchor", "middle"), ("fill", "#667085"),
                ], text: styleLine))
        return [group]
    }

    static func rect(
        _ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String,
        attributes: [(String, String)] = []
    ) -> SVGElement {
        // `class` first when given, then geometry, then the rest: stable and easy to read.
        let classAttribute = attributes.filter { $0.0 == "class" }
        let others = attributes.filter { $0.0 != "class" }
        return SVGElement(
            "rect",
            classAttribute + [
                ("x", svgNumber(x)), ("y", svgNumber(y)), ("width", svgNumber(max(width, 0))),
                ("height", svgNumber(max(height, 0))),
                ("fill", fill),
            ] + others)
    }
}
