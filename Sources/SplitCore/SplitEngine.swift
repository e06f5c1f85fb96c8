// OWNER: core-navigation. STUB written by the lead so that everyone compiles; replace the bodies.

/// The whole state of one scene. Plain value; the engine is the only thing that changes it.
public struct SceneState: Codable, Hashable, Sendable {
    public var id: String
    public var device: String
    public var size: Size
    public var config: SplitConfig
    public var revision: Int
    // navigation, display memory, collapse bookkeeping: added by core-navigation.
}

/// The result of applying one change.
public struct Transition: Sendable {
    public var state: SceneState
    public var layout: Layout
    public var events: [SceneEvent]
    /// False for a no-op: `state` is the input, revision kept, `events` empty.
    public var changed: Bool
}

/// One snapshot of a session: a size and the layout the scene would show there.
public struct SizedLayout: Codable, Hashable, Sendable {
    public var size: Size
    public var layout: Layout
}

/// The sequential replay of a snapshot session (SEMANTICS 8.3).
public struct RoundTripReport: Codable, Hashable, Sendable {
    public var lossless: Bool
    /// Human-readable findings; empty when lossless.
    public var differences: [String]
}

/// The pure result of a snapshot session (SEMANTICS 8): nothing here is stored yet.
public struct SnapshotResult: Codable, Hashable, Sendable {
    public var baseRevision: Int
    public var snapshots: [SizedLayout]
    public var roundTrip: RoundTripReport
}

/// The reducer: scene state + change -> new state + layout + events. No I/O.
public struct SplitEngine: Sendable {
    public var catalog: DeviceCatalog
    public var limits: CoreLimits

    public init(catalog: DeviceCatalog = .builtIn, limits: CoreLimits = CoreLimits()) {
        self.catalog = catalog
        self.limits = limits
    }

    /// A new scene at revision 1. `size` nil: the device's default size (required for rule sets).
    public func createScene(id: String, device: String, size: Size?, config: SplitConfigPatch?) throws(CoreError) -> SceneState {
        fatalError("stub")
    }

    public func layout(of state: SceneState) -> Layout { fatalError("stub") }

    /// Applies a change. Throws (state untouched) for invalid input.
    public func apply(_ change: SceneChange, to state: SceneState) throws(CoreError) -> Transition {
        fatalError("stub")
    }

    /// SEMANTICS 8 on explicit sizes. Never mutates `state`.
    public func snapshot(_ state: SceneState, sizes: [Size]) throws(CoreError) -> SnapshotResult {
        fatalError("stub")
    }

    /// SEMANTICS 8 on a preset such as `appSwitcher`.
    public func snapshot(_ state: SceneState, preset: String) throws(CoreError) -> SnapshotResult {
        fatalError("stub")
    }
}
