// Sweep (WIRE.md "Explain and sweep"): the widths (or heights) at which a scene's layout
// changes kind, found by resolving every point of a range in 1-pt steps.

/// What a sweep compares between two sizes: the layout's kind, not its exact frames.
public struct SweepSummary: Codable, Hashable, Sendable {
    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass
    public var collapsed: Bool
    /// nil exactly when collapsed (as in the layout).
    public var displayMode: DisplayMode?
    public var splitBehavior: SplitBehavior?
    /// The visible columns in layout order (`compact` alone when collapsed).
    public var visibleColumns: [Column]

    public init(_ layout: Layout) {
        horizontalSizeClass = layout.traits.horizontalSizeClass
        verticalSizeClass = layout.traits.verticalSizeClass
        collapsed = layout.collapsed
        displayMode = layout.displayMode
        splitBehavior = layout.splitBehavior
        visibleColumns = layout.columns.filter(\.visible).map(\.column)
    }

    public init(
        horizontalSizeClass: SizeClass, verticalSizeClass: SizeClass, collapsed: Bool, displayMode: DisplayMode?,
        splitBehavior: SplitBehavior?, visibleColumns: [Column]
    ) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.collapsed = collapsed
        self.displayMode = displayMode
        self.splitBehavior = splitBehavior
        self.visibleColumns = visibleColumns
    }

    enum CodingKeys: String, CodingKey {
        case horizontalSizeClass, verticalSizeClass, collapsed, displayMode, splitBehavior, visibleColumns
    }

    // displayMode/splitBehavior are explicit nulls when collapsed, as in a layout.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(horizontalSizeClass, forKey: .horizontalSizeClass)
        try c.encode(verticalSizeClass, forKey: .verticalSizeClass)
        try c.encode(collapsed, forKey: .collapsed)
        try c.encode(displayMode, forKey: .displayMode)
        try c.encode(splitBehavior, forKey: .splitBehavior)
        try c.encode(visibleColumns, forKey: .visibleColumns)
    }
}

/// The closed range [from, to] of points over which the summary holds at every 1-pt step.
public struct SweepInterval: Codable, Hashable, Sendable {
    public var from: Double
    public var to: Double
    public var summary: SweepSummary

    public init(from: Double, to: Double, summary: SweepSummary) {
        self.from = from
        self.to = to
        self.summary = summary
    }
}

public enum SweepAxis: String, Codable, Hashable, Sendable, CaseIterable {
    case width, height
}

extension SplitEngine {
    /// The most points one sweep resolves (WIRE.md: `bad_request` beyond).
    public static let maximumSweepPoints = 100_000

    /// The intervals of [from, to] (1-pt steps from `from`; `to` is included as the last
    /// point even when `to - from` is not whole) over which resizing `state` gives the same
    /// summary. Each point is resolved as a resize of `state` itself (not of the previous
    /// point), so a rule set's hysteresis reads `state`'s traits, as a resize of the scene
    /// would. Intervals are contiguous, cover the range, and adjacent ones differ.
    /// `fixed`: the other dimension; nil keeps `state`'s. Reads only.
    public func sweep(
        _ state: SceneState, axis: SweepAxis = .width, from: Double, to: Double,
        fixed: Double? = nil
    ) throws(CoreError) -> [SweepInterval] {
        let other = fixed ?? (axis == .width ? state.size.height : state.size.width)
        guard from.isFinite, to.isFinite, from > 0, to >= from, to <= Size.maximumSide else {
            throw .badRequest("sweep range must satisfy 0 < from <= to <= \(formatPoints(Size.maximumSide))")
        }
        guard other.isFinite, other > 0, other <= Size.maximumSide else {
            throw .badRequest("invalid fixed \(axis == .width ? "height" : "width") \(other)")
        }
        guard (to - from).rounded(.down) + 1 <= Double(Self.maximumSweepPoints) else {
            throw .badRequest(
                "sweep of \(formatPoints(to - from + 1)) points: at most \(Self.maximumSweepPoints) per request")
        }
        var points: [Double] = []
        var point = from
        while point < to {
            points.append(point)
            point += 1
        }
        points.append(to)
        var intervals: [SweepInterval] = []
        for point in points {
            let size = axis == .width ? Size(width: point, height: other) : Size(width: other, height: point)
            let summary = SweepSummary(try replay(.resize(size), to: state).layout)
            if let last = intervals.last, last.summary == summary {
                intervals[intervals.count - 1].to = point
            } else {
                intervals.append(SweepInterval(from: point, to: point, summary: summary))
            }
        }
        return intervals
    }

    /// `sweep` of a new scene of `device` and `config` (created at the range's first point,
    /// so no earlier size or user choice colours it). `fixed` nil: the device's landscape
    /// screen's other side (required for rule sets, which have no screen).
    public func sweep(
        device: String, config: SplitConfigPatch?, axis: SweepAxis = .width, from: Double, to: Double,
        fixed: Double? = nil
    ) throws(CoreError) -> [SweepInterval] {
        guard let other = fixed ?? catalog.defaultSize(device: device).map({ axis == .width ? $0.height : $0.width })
        else {
            if !catalog.contains(device: device) { throw CoreError(.unknownDevice, "unknown device '\(device)'") }
            throw .badRequest("device '\(device)' is a rule set: give the fixed \(axis == .width ? "height" : "width")")
        }
        guard from.isFinite, from > 0, from <= Size.maximumSide else {
            throw .badRequest("invalid sweep start \(from)")
        }
        let start = axis == .width ? Size(width: from, height: other) : Size(width: other, height: from)
        let state = try createScene(id: "sweep", device: device, size: start, config: config)
        return try sweep(state, axis: axis, from: from, to: to, fixed: other)
    }
}
