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
    /// The parts of the base state the live replay lost, by name (`displayMode`,
    /// `visibleStack`, `secondaryStack`, ...; WIRE.md revision 2), in the order of
    /// `differences`; empty when lossless.
    public var lost: [String]

    public init(lossless: Bool, differences: [String], lost: [String] = []) {
        self.lossless = lossless
        self.differences = differences
        self.lost = lost
    }

    enum CodingKeys: String, CodingKey { case lossless, differences, lost }

    /// `lost` only when not empty: a lossless report encodes as before revision 2, so the
    /// content hash of a recorded session (and golden files) stays the same.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lossless, forKey: .lossless)
        try c.encode(differences, forKey: .differences)
        if !lost.isEmpty { try c.encode(lost, forKey: .lost) }
    }

    /// A report stored before `lost` existed reads back with none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lossless = try c.decode(Bool.self, forKey: .lossless)
        differences = try c.decode([String].self, forKey: .differences)
        lost = try c.decodeIfPresent([String].self, forKey: .lost) ?? []
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
