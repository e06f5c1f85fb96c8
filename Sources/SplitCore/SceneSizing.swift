/// How a client attached to a scene counts for the scene's size (SEMANTICS 9; WIRE.md
/// `scene.attach` roles).
public enum AttachRole: String, Sendable, CaseIterable {
    /// Its size counts for the scene's `sizePolicy`.
    case window
    /// Sees every revision; its size never counts.
    case viewer
}

/// Decides a scene's size from its attached windows (SEMANTICS 9, after tmux's resize.c and
/// its `window-size` option). Pure.
public enum SceneSizing {
    /// One attached window as sizing sees it.
    public struct Window: Equatable, Sendable {
        public var size: Size
        /// Loop-wide order of the report; larger is more recent.
        public var reportedAt: UInt64

        public init(size: Size, reportedAt: UInt64) {
            self.size = size
            self.reportedAt = reportedAt
        }
    }

    /// The component-wise maximum (`largest`) or minimum (`smallest`) of the windows' sizes;
    /// nil for the other policies or when no window reported a size.
    public static func aggregate(_ policy: SizePolicy, windows: [Window]) -> Size? {
        guard let first = windows.first else { return nil }
        switch policy {
        case .largest:
            return windows.dropFirst().reduce(first.size) {
                Size(width: max($0.width, $1.size.width), height: max($0.height, $1.size.height))
            }
        case .smallest:
            return windows.dropFirst().reduce(first.size) {
                Size(width: min($0.width, $1.size.width), height: min($0.height, $1.size.height))
            }
        case .latest, .manual:
            return nil
        }
    }

    /// The size the scene takes after the window that provided its size left: under `latest`,
    /// the most recent report among the remaining windows; under `largest`/`smallest`, the
    /// aggregate of the remaining ones; nil (keep the size) otherwise.
    public static func afterWindowLeft(_ policy: SizePolicy, remaining: [Window], leaverWasLatest: Bool) -> Size? {
        switch policy {
        case .latest:
            guard leaverWasLatest else { return nil }
            return remaining.max { $0.reportedAt < $1.reportedAt }?.size
        case .largest, .smallest:
            return aggregate(policy, windows: remaining)
        case .manual:
            return nil
        }
    }

    /// Whether a `resize` from a client attached with `role` (nil: not attached) is accepted.
    public static func acceptsResize(_ policy: SizePolicy, from role: AttachRole?) -> Bool {
        switch policy {
        case .largest, .smallest: role == .window
        case .latest, .manual: true
        }
    }
}
