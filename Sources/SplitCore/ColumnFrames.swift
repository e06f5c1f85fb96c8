// Column widths and frames of an expanded scene (SEMANTICS 5).

/// The widths of the sidebars: preferred width, else fraction x window width, else 320;
/// clamped to [minimum, maximum]; a minimum above the maximum wins (as CSS's `min-width`
/// over `max-width`): setting only `minimumPrimaryColumnWidth: 350` under the default
/// maximum of 320 asks for a 350-pt column.
struct ColumnWidths: Hashable {
    static let automatic: Double = 320

    var primary: Double
    var supplementary: Double

    init(config: SplitConfig, windowWidth: Double) {
        primary = Self.width(
            preferred: config.preferredPrimaryColumnWidth,
            fraction: config.preferredPrimaryColumnWidthFraction,
            minimum: config.minimumPrimaryColumnWidth,
            maximum: config.maximumPrimaryColumnWidth, windowWidth: windowWidth)
        supplementary = Self.width(
            preferred: config.preferredSupplementaryColumnWidth,
            fraction: config.preferredSupplementaryColumnWidthFraction,
            minimum: config.minimumSupplementaryColumnWidth,
            maximum: config.maximumSupplementaryColumnWidth, windowWidth: windowWidth)
    }

    static func width(
        preferred: Double?, fraction: Double?, minimum: Double, maximum: Double,
        windowWidth: Double
    ) -> Double {
        decidedWidth(
            preferred: preferred, fraction: fraction, minimum: minimum, maximum: maximum, windowWidth: windowWidth
        ).width
    }

    /// `width(preferred:fraction:minimum:maximum:windowWidth:)` with where the width came
    /// from and the bound that clamped it (nil: none did): the one copy of the rule, which
    /// `explain` reads too.
    static func decidedWidth(
        preferred: Double?, fraction: Double?, minimum: Double, maximum: Double,
        windowWidth: Double
    ) -> (width: Double, source: WidthSource, preliminary: Double, clamp: WidthClamp?) {
        let source: WidthSource
        let preliminary: Double
        if let preferred {
            (source, preliminary) = (.preferred, preferred)
        } else if let fraction {
            (source, preliminary) = (.fraction, fraction * windowWidth)
        } else {
            (source, preliminary) = (.automatic, automatic)
        }
        let width = max(min(preliminary, maximum), minimum)
        let clamp: WidthClamp? =
            width == preliminary ? nil : preliminary > maximum && width == maximum ? .maximum : .minimum
        return (width, source, preliminary, clamp)
    }

    func width(of column: Column) -> Double {
        column == .supplementary ? supplementary : primary
    }
}

/// Where a sidebar's width before the clamp came from.
enum WidthSource: String, Hashable, Sendable {
    case preferred, fraction, automatic
}

/// The bound that clamped a sidebar's width.
enum WidthClamp: String, Hashable, Sendable {
    case minimum = "min", maximum = "max"
}

/// Frames of every column of the style, in order.
enum ColumnFrames {
    /// Laid out from the leading edge, then mirrored when the primary is on the physical
    /// right: `primaryEdge: trailing` in ltr, or `leading` in rtl (the two cancel out, as in
    /// UIKit where trailing in a right-to-left layout is the left).
    /// - tile: visible sidebars side by side, the secondary takes the rest.
    /// - overlay: the secondary fills the window, `dimmed` while a sidebar lies `overlay` on it.
    /// - displace: sidebars side by side; in `twoDisplaceSecondary` the secondary keeps its
    ///   `oneBesideSecondary` width, is pushed toward the trailing edge (partly off-window)
    ///   and `dimmed`.
    /// A hidden sidebar reports `visible: false` with its width and the x where showing it
    /// would put it: the leading edge.
    static func frames(
        config: SplitConfig, behavior: SplitBehavior, mode: DisplayMode,
        widths: ColumnWidths, windowWidth: Double
    ) -> [ColumnFrame] {
        frames(config: config, behavior: behavior, mode: mode, widths: widths, windowWidth: windowWidth) { $0 }
    }

    /// `frames` with each frame turned into an element by `make`, in the same order: the
    /// layout builds its columns straight from the frames (no array of frames to allocate).
    static func frames<Element>(
        config: SplitConfig, behavior: SplitBehavior, mode: DisplayMode,
        widths: ColumnWidths, windowWidth: Double,
        _ make: (ColumnFrame) -> Element
    ) -> [Element] {
        let style = config.style
        let shown = DisplayResolver.visibleSidebars(mode, style: style)
        let mirrored = (config.primaryEdge == .trailing) != (config.layoutDirection == .rtl)
        var elements: [Element] = []
        // One allocation: appended one by one, the elements grew the array twice.
        elements.reserveCapacity(3)
        func append(_ frame: ColumnFrame) {
            elements.append(make(mirrored ? mirror(frame, windowWidth: windowWidth) : frame))
        }
        var x: Double = 0
        for column in style.columns where column != .secondary {
            let width = widths.width(of: column)
            guard shown.contains(column) else {
                append(ColumnFrame(column: column, visible: false, x: 0, width: width, overlay: false, dimmed: false))
                continue
            }
            append(
                ColumnFrame(
                    column: column, visible: true, x: x, width: width,
                    overlay: behavior == .overlay, dimmed: false))
            x += width
        }
        append(
            secondaryFrame(
                style: style, behavior: behavior, mode: mode, sidebarsEnd: x,
                widths: widths, windowWidth: windowWidth))
        return elements
    }

    private static func secondaryFrame(
        style: SplitStyle, behavior: SplitBehavior, mode: DisplayMode,
        sidebarsEnd: Double, widths: ColumnWidths, windowWidth: Double
    ) -> ColumnFrame {
        switch (behavior, mode) {
        case (.overlay, _):
            return ColumnFrame(
                column: .secondary, visible: true, x: 0, width: windowWidth,
                overlay: false, dimmed: mode != .secondaryOnly)
        case (_, .twoDisplaceSecondary):
            let besideWidth =
                windowWidth - widths.width(of: DisplayResolver.visibleSidebars(.oneBesideSecondary, style: style)[0])
            return ColumnFrame(
                column: .secondary, visible: true, x: sidebarsEnd, width: besideWidth,
                overlay: false, dimmed: true)
        default:
            return ColumnFrame(
                column: .secondary, visible: true, x: sidebarsEnd, width: windowWidth - sidebarsEnd,
                overlay: false, dimmed: false)
        }
    }

    private static func mirror(_ frame: ColumnFrame, windowWidth: Double) -> ColumnFrame {
        var mirrored = frame
        mirrored.x = windowWidth - frame.x - frame.width
        return mirrored
    }
}
