import SplitCore

/// A snapshot session as the app switcher shows it: every size's picture side by side, at
/// one common height, in the session's order, with the round-trip verdict above.
public enum SessionRenderer {
    public static func svg(
        _ result: SnapshotResult, title: String? = nil, pixelHeight: Double = 220,
        layoutDirection: LayoutDirection = .ltr
    ) -> String {
        var header =
            "snapshot session · base revision \(result.baseRevision) · round trip "
            + (result.roundTrip.lossless ? "lossless" : "LOSSY")
        if let title { header = title + " · " + header }
        return strip(
            result.snapshots.map(\.layout), header: header, notes: result.roundTrip.differences,
            pixelHeight: pixelHeight, layoutDirection: layoutDirection)
    }

    /// Pictures of `layouts` in one row. Each is a nested `svg` (class `snapshot`) keeping its
    /// own viewBox in points, so each column rectangle still has its layout's x and width.
    public static func strip(
        _ layouts: [Layout], header: String, notes: [String] = [], pixelHeight: Double = 220,
        layoutDirection: LayoutDirection = .ltr
    ) -> String {
        let gap = 16.0, headerHeight = 24.0 + 18 * Double(notes.count)
        var children: [SVGElement] = [SVGElement("title", text: header)]
        children.append(
            SVGElement(
                "text",
                [
                    ("class", "header"), ("x", "0"), ("y", "16"), ("font-size", "14"), ("font-weight", "bold"),
                    ("fill", "#222222"),
                ], text: header))
        for (index, note) in notes.enumerated() {
            children.append(
                SVGElement(
                    "text",
                    [
                        ("class", "note"), ("x", "0"), ("y", svgNumber(34 + 18 * Double(index))), ("font-size", "13"),
                        ("fill", "#b42318"),
                    ], text: note))
        }
        var x = 0.0
        for (index, layout) in layouts.enumerated() {
            let picture = LayoutRenderer.picture(
                layout,
                options: RenderOptions(
                    title: "\(index + 1). \(svgNumber(layout.size.width))x\(svgNumber(layout.size.height))",
                    layoutDirection: layoutDirection))
            let width = (pixelHeight * picture.width / picture.height).rounded()
            children.append(
                SVGElement(
                    "svg",
                    [
                        ("class", "snapshot"), ("data-index", String(index)), ("x", svgNumber(x)),
                        ("y", svgNumber(headerHeight)),
                        ("width", svgNumber(width)), ("height", svgNumber(pixelHeight)), ("viewBox", picture.viewBox),
                        ("data-width", svgNumber(layout.size.width)), ("data-height", svgNumber(layout.size.height)),
                    ], children: picture.content))
            x += width + gap
        }
        let total = max(x - gap, 320)
        return SVGElement(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("viewBox", "0 0 \(svgNumber(total)) \(svgNumber(headerHeight + pixelHeight))"),
                ("width", svgNumber(total)), ("height", svgNumber(headerHeight + pixelHeight)),
                ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"), ("class", "session"),
            ], children: children
        ).document
    }
}

/// A sweep as bands on a width (or height) axis: one band per interval, coloured by its
/// kind, labelled with its range and summary, with named sizes (a device's presets) marked.
public enum SweepRenderer {
    public struct Mark: Hashable, Sendable {
        public var name: String
        public var at: Double

        public init(name: String, at: Double) {
            self.name = name
            self.at = at
        }
    }

    public static func svg(
        _ intervals: [SweepInterval], axis: SweepAxis = .width, title: String, marks: [Mark] = [],
        pixelWidth: Double = 1000
    ) -> String {
        guard let first = intervals.first, let last = intervals.last else {
            return SVGElement("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("viewBox", "0 0 10 10")]).document
        }
        let from = first.from, to = last.to
        let left = 40.0, right = 60.0, bandTop = 40.0, bandHeight = 70.0
        let span = max(to - from + 1, 1)
        let scale = (pixelWidth - left - right) / span
        // Bands cover [from, to + 1) on the axis, so a one-point interval still shows.
        func position(_ value: Double) -> Double { left + (value - from) * scale }
        var children: [SVGElement] = [SVGElement("title", text: title)]
        children.append(
            SVGElement(
                "text",
                [
                    ("class", "header"), ("x", svgNumber(left)), ("y", "20"), ("font-size", "15"),
                    ("font-weight", "bold"), ("fill", "#222222"),
                ], text: title))
        let labelTop = bandTop + bandHeight + 90
        for (index, interval) in intervals.enumerated() {
            let x = position(interval.from), width = max(position(interval.to + 1) - x, 0.5)
            let s = interval.summary
            let kind =
                s.collapsed ? "collapsed" : "\(s.displayMode?.rawValue ?? "-") \(s.splitBehavior?.rawValue ?? "-")"
            let label =
                "\(svgNumber(interval.from))–\(svgNumber(interval.to)): \(s.horizontalSizeClass.rawValue)/\(s.verticalSizeClass.rawValue) \(kind) [\(s.visibleColumns.map(\.rawValue).joined(separator: ","))]"
            children.append(
                SVGElement(
                    "g",
                    [
                        ("class", "band"), ("data-from", svgNumber(interval.from)), ("data-to", svgNumber(interval.to)),
                        ("data-collapsed", s.collapsed ? "true" : "false"),
                    ],
                    children: [
                        LayoutRenderer.rect(
                            x, bandTop, width, bandHeight, fill: bandColour(s),
                            attributes: [("stroke", "#ffffff"), ("stroke-width", "1")]),
                        SVGElement("title", text: label),
                    ]))
            // Labels go in rows under the axis, cycling so that narrow bands stay legible; a
            // band in the right half is labelled leftwards from its end, so no label runs
            // off the chart.
            let labelY = labelTop + Double(index % 6) * 16
            let rightHalf = x > pixelWidth / 2
            let labelX = rightHalf ? x + width : x
            children.append(
                SVGElement(
                    "line",
                    [
                        ("x1", svgNumber(labelX)), ("y1", svgNumber(bandTop + bandHeight)), ("x2", svgNumber(labelX)),
                        ("y2", svgNumber(labelY - 11)), ("stroke", "#98a2b3"), ("stroke-width", "0.5"),
                    ]))
            children.append(
                SVGElement(
                    "text",
                    [
                        ("class", "band-label"), ("x", svgNumber(rightHalf ? labelX - 2 : labelX + 2)),
                        ("y", svgNumber(labelY)), ("font-size", "11"),
                        ("text-anchor", rightHalf ? "end" : "start"), ("fill", "#333333"),
                    ], text: label))
        }
        // The axis with ticks at the interval starts.
        children.append(
            SVGElement(
                "line",
                [
                    ("class", "axis"), ("x1", svgNumber(left)), ("y1", svgNumber(bandTop + bandHeight)),
                    ("x2", svgNumber(position(to + 1))), ("y2", svgNumber(bandTop + bandHeight)), ("stroke", "#222222"),
                ]))
        children.append(
            SVGElement(
                "text",
                [
                    ("x", svgNumber(left)), ("y", svgNumber(bandTop + bandHeight + 16)), ("font-size", "11"),
                    ("fill", "#222222"),
                ], text: svgNumber(from)))
        children.append(
            SVGElement(
                "text",
                [
                    ("x", svgNumber(position(to + 1))), ("y", svgNumber(bandTop + bandHeight + 16)),
                    ("font-size", "11"), ("text-anchor", "end"), ("fill", "#222222"),
                ], text: "\(svgNumber(to)) pt \(axis.rawValue)"))
        for (index, mark) in marks.enumerated() where mark.at >= from && mark.at <= to {
            let x = position(mark.at)
            let rightHalf = x > pixelWidth / 2
            children.append(
                SVGElement(
                    "g", [("class", "mark"), ("data-at", svgNumber(mark.at))],
                    children: [
                        SVGElement(
                            "line",
                            [
                                ("x1", svgNumber(x)), ("y1", svgNumber(bandTop - 6)), ("x2", svgNumber(x)),
                                ("y2", svgNumber(bandTop + bandHeight + 30 + Double(index % 3) * 14)),
                                ("stroke", "#d92d20"), ("stroke-width", "1.5"), ("stroke-dasharray", "4 2"),
                            ]),
                        SVGElement(
                            "text",
                            [
                                ("x", svgNumber(rightHalf ? x - 3 : x + 3)),
                                ("y", svgNumber(bandTop + bandHeight + 40 + Double(index % 3) * 14)),
                                ("font-size", "11"),
                                ("text-anchor", rightHalf ? "end" : "start"), ("fill", "#d92d20"),
                            ], text: "\(mark.name) \(svgNumber(mark.at))"),
                    ]))
        }
        let height = labelTop + 6 * 16 + 10
        return SVGElement(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("viewBox", "0 0 \(svgNumber(pixelWidth)) \(svgNumber(height))"),
                ("width", svgNumber(pixelWidth)), ("height", svgNumber(height)),
                ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"), ("class", "sweep"),
            ], children: children
        ).document
    }

    /// Collapsed bands are warm; expanded ones cool, darker the more columns show.
    static func bandColour(_ summary: SweepSummary) -> String {
        if summary.collapsed { return "#f79009" }
        switch summary.visibleColumns.count {
        case 1: return "#84adff"
        case 2: return "#2e90fa"
        default: return "#1849a9"
        }
    }
}
