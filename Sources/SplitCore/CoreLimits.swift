/// Limits the reducer enforces (`limit_exceeded`). The daemon sets them from its config.
public struct CoreLimits: Codable, Hashable, Sendable {
    /// Most entries in one stack (a column's, or the collapsed stack when pushing onto it).
    public var maxStackDepth: Int = 64
    /// Longest view-controller id, in characters (pushes, roots, tabs, presentations).
    public var maxIdLength: Int = 128
    /// Most modal presentations stacked at once.
    public var maxPresentations: Int = 16
    /// Most tabs in a configuration.
    public var maxTabs: Int = 32
    /// Most sizes in one snapshot session.
    public var maxSnapshotSizes: Int = 64

    public init() {}
}
