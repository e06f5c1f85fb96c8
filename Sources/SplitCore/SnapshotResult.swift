/// One snapshot of a session: a size and the layout the scene would show there.
public struct SizedLayout: Codable, Hashable, Sendable {
    public var size: Size
    public var layout: Layout

    public init(size: Size, layout: Layout) {
        self.size = size
        self.layout = layout
    }
}

/// The sequential replay of a snapshot session (SEMANTICS 8.3).
public struct RoundTripReport: Codable, Hashable, Sendable {
    public var lossless: Bool
    /// Human-readable findings; empty when lossless.
    public var differences: [String]

    public init(lossless: Bool, differences: [String]) {
        self.lossless = lossless
        self.differences = differences
    }
}

/// The pure result of a snapshot session (SEMANTICS 8): nothing here is stored yet.
public struct SnapshotResult: Codable, Hashable, Sendable {
    public var baseRevision: Int
    public var snapshots: [SizedLayout]
    public var roundTrip: RoundTripReport

    public init(baseRevision: Int, snapshots: [SizedLayout], roundTrip: RoundTripReport) {
        self.baseRevision = baseRevision
        self.snapshots = snapshots
        self.roundTrip = roundTrip
    }
}
