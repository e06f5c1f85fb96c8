/// A navigation or display intent (WIRE.md `intent.kind`). Plain values; the reducer
/// validates them against a state and answers a typed `CoreError` when impossible.
public enum Intent: Hashable, Sendable {
    case push(column: Column, vc: String)
    case pop(column: Column)
    case popToRoot(column: Column)
    /// A push in the sender's column.
    case show(vc: String, column: Column)
    case showDetail(vc: String)
    case back
    case selectTab(index: Int)
    case present(vc: String, style: PresentationStyle)
    case dismiss
    case setPreferredDisplayMode(DisplayMode)
    case displayModeButton
    case gesture
    case tapDimmed
    case showColumn(Column)
    case hideColumn(Column)
    case setConfig(SplitConfigPatch)

    /// The wire name of the kind.
    public var kind: String {
        switch self {
        case .push: "push"
        case .pop: "pop"
        case .popToRoot: "popToRoot"
        case .show: "show"
        case .showDetail: "showDetail"
        case .back: "back"
        case .selectTab: "selectTab"
        case .present: "present"
        case .dismiss: "dismiss"
        case .setPreferredDisplayMode: "setPreferredDisplayMode"
        case .displayModeButton: "displayModeButton"
        case .gesture: "gesture"
        case .tapDimmed: "tapDimmed"
        case .showColumn: "showColumn"
        case .hideColumn: "hideColumn"
        case .setConfig: "setConfig"
        }
    }

    public static let allKinds: [String] = [
        "push", "pop", "popToRoot", "show", "showDetail", "back", "selectTab", "present",
        "dismiss", "setPreferredDisplayMode", "displayModeButton", "gesture", "tapDimmed",
        "showColumn", "hideColumn", "setConfig",
    ]
}

/// A change applied to a scene: a size change or an intent.
public enum SceneChange: Hashable, Sendable {
    case resize(Size)
    case intent(Intent)
    /// A `setConfig` whose new `sizePolicy` gives the scene another size (the aggregate of
    /// its attached windows, SEMANTICS 9), applied as one change: the configuration, then the
    /// resize, one revision (SEMANTICS 1: it grows by exactly 1 per accepted change).
    case reconfigure(SplitConfigPatch, size: Size)
}
