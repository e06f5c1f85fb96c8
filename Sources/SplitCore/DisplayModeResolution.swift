// Split behavior and display mode of an expanded scene (SEMANTICS 5).

/// Display mode / split behavior / frames of expanded scenes, and the user display actions.
public enum DisplayResolver {
    /// Smallest width tiled or displacing sidebars must leave to the secondary (ours).
    public static let minimumSecondaryWidth: Double = 320

    /// SEMANTICS 5 for an expanded scene: behavior, mode (never automatic) and the frame of
    /// every column of the style.
    public static func resolve(config: SplitConfig, size: Size, memory: DisplayMemory) -> ExpandedResolution {
        let (widths, behavior, mode) = resolveMode(config: config, size: size, memory: memory)
        let frames = ColumnFrames.frames(
            config: config, behavior: behavior, mode: mode,
            widths: widths, windowWidth: size.width)
        return ExpandedResolution(displayMode: mode, splitBehavior: behavior, frames: frames)
    }

    /// `resolve` without the frames: the sidebar widths, the behavior and the mode.
    static func resolveMode(
        config: SplitConfig, size: Size,
        memory: DisplayMemory
    ) -> (widths: ColumnWidths, behavior: SplitBehavior, mode: DisplayMode) {
        let (widths, decision) = decidedMode(config: config, size: size, memory: memory)
        return (widths, decision.behavior, decision.mode)
    }

    /// `resolveMode` with the rule behind the behavior and the mode: the one copy of the
    /// rules, which `explain` reads too.
    static func decidedMode(
        config: SplitConfig, size: Size, memory: DisplayMemory
    ) -> (widths: ColumnWidths, decision: ModeDecision) {
        let widths = ColumnWidths(config: config, windowWidth: size.width)
        var decision = decidedRequestedMode(config: config, size: size, memory: memory)
        decision.requested = decision.mode
        decision.mode = degrade(
            decision.mode, behavior: decision.behavior, style: config.style, widths: widths, windowWidth: size.width)
        return (widths, decision)
    }

    /// Behavior and mode before the room check. A user mode the behavior allows wins; then
    /// an explicit preferred mode; then the automatic mode of the orientation.
    ///
    /// `presentsWithGesture == false` with an explicit preferred mode ("respected strictly",
    /// ours): the mode is never reinterpreted for the behavior; if an explicit
    /// `preferredSplitBehavior` does not allow it, the behavior that allows it is used
    /// instead. Two-column styles still read `two*` as `one*`, and room still degrades it.
    static func requestedMode(config: SplitConfig, size: Size, memory: DisplayMemory) -> (SplitBehavior, DisplayMode) {
        let decision = decidedRequestedMode(config: config, size: size, memory: memory)
        return (decision.behavior, decision.mode)
    }

    /// `requestedMode` with the rule behind the behavior and the mode (`mode` is the
    /// requested mode, before the room check).
    static func decidedRequestedMode(config: SplitConfig, size: Size, memory: DisplayMemory) -> ModeDecision {
        let style = config.style
        let preferred = oneSidebarEquivalent(config.preferredDisplayMode, style: style)
        var (behavior, behaviorRule) = decidedSplitBehavior(config: config, orientation: size.orientation)
        let strict = !config.presentsWithGesture && preferred != .automatic
        if strict, !allowedModes(behavior: behavior, style: style).contains(preferred),
            let allowing = behaviorAllowing(preferred)
        {
            (behavior, behaviorRule) = (allowing, .strictPreferredMode)
        }
        if let user = memory.userDisplayMode, allowedModes(behavior: behavior, style: style).contains(user) {
            return ModeDecision(behavior: behavior, behaviorRule: behaviorRule, mode: user, modeRule: .userAction)
        }
        let automatic = preferred == .automatic
        let mode = automatic ? automaticDisplayMode(orientation: size.orientation) : preferred
        return ModeDecision(
            behavior: behavior, behaviorRule: behaviorRule, mode: interpret(mode, behavior: behavior, style: style),
            modeRule: automatic ? .automaticByOrientation : .preferred)
    }

    /// The split behavior: an explicit preference wins; else the behavior allowing an
    /// explicit preferred mode; else `tile` (classic, doubleColumn) or `displace`
    /// (tripleColumn) for a landscape window and `overlay` for a portrait one.
    public static func splitBehavior(config: SplitConfig, orientation: Orientation) -> SplitBehavior {
        decidedSplitBehavior(config: config, orientation: orientation).behavior
    }

    /// `splitBehavior` with the rule that gave it.
    static func decidedSplitBehavior(
        config: SplitConfig, orientation: Orientation
    ) -> (behavior: SplitBehavior, rule: BehaviorRule) {
        if config.preferredSplitBehavior != .automatic { return (config.preferredSplitBehavior, .explicit) }
        if let behavior = behaviorAllowing(config.preferredDisplayMode) { return (behavior, .preferredMode) }
        guard orientation == .landscape else { return (.overlay, .automaticPortrait) }
        return config.style == .tripleColumn ? (.displace, .automaticLandscape) : (.tile, .automaticLandscape)
    }

    /// The behavior an explicit mode needs; nil for `automatic` and `secondaryOnly`, which
    /// every behavior allows.
    static func behaviorAllowing(_ mode: DisplayMode) -> SplitBehavior? {
        switch mode {
        case .automatic, .secondaryOnly: nil
        case .oneBesideSecondary, .twoBesideSecondary: .tile
        case .oneOverSecondary, .twoOverSecondary: .overlay
        case .twoDisplaceSecondary: .displace
        }
    }

    /// Landscape: `oneBesideSecondary`; portrait: `secondaryOnly`.
    public static func automaticDisplayMode(orientation: Orientation) -> DisplayMode {
        orientation == .landscape ? .oneBesideSecondary : .secondaryOnly
    }

    /// The modes `behavior` allows for `style`, fewest sidebars first.
    public static func allowedModes(behavior: SplitBehavior, style: SplitStyle) -> [DisplayMode] {
        // Stored arrays: cutting a literal to two modes allocated on every expanded layout.
        let twoColumn = style != .tripleColumn
        return switch behavior {
        case .tile, .automatic: twoColumn ? AllowedModes.tileTwoColumn : AllowedModes.tile
        case .overlay: twoColumn ? AllowedModes.overlayTwoColumn : AllowedModes.overlay
        case .displace: twoColumn ? AllowedModes.displaceTwoColumn : AllowedModes.displace
        }
    }

    /// What `allowedModes(behavior:style:)` returns: tripleColumn's three modes per behavior,
    /// and the first two of them for the two-column styles.
    private enum AllowedModes {
        static let tile: [DisplayMode] = [.secondaryOnly, .oneBesideSecondary, .twoBesideSecondary]
        static let overlay: [DisplayMode] = [.secondaryOnly, .oneOverSecondary, .twoOverSecondary]
        static let displace: [DisplayMode] = [.secondaryOnly, .oneBesideSecondary, .twoDisplaceSecondary]
        static let tileTwoColumn = Array(tile.prefix(2))
        static let overlayTwoColumn = Array(overlay.prefix(2))
        static let displaceTwoColumn = Array(displace.prefix(2))
    }

    /// `mode` read under `behavior`: first `two*` becomes `one*` for two-column styles, then
    /// the mode becomes the one of the behavior with as many sidebars (twoBeside -> twoOver
    /// under overlay, oneOver -> oneBeside under tile or displace...).
    public static func interpret(_ mode: DisplayMode, behavior: SplitBehavior, style: SplitStyle) -> DisplayMode {
        // `allowedModes(behavior:style:)[sidebars]` without building the array (an
        // allocation per layout resolved on the daemon's hot path).
        let allowedCount = style == .tripleColumn ? 3 : 2
        let sidebars = min(sidebarCount(oneSidebarEquivalent(mode, style: style)), allowedCount - 1)
        return allowedMode(sidebars: sidebars, behavior: behavior)
    }

    /// The mode of `allowedModes(behavior:style:)` with this many sidebars (0-2).
    static func allowedMode(sidebars: Int, behavior: SplitBehavior) -> DisplayMode {
        switch (sidebars, behavior) {
        case (0, _): .secondaryOnly
        case (1, .overlay): .oneOverSecondary
        case (1, _): .oneBesideSecondary
        case (_, .overlay): .twoOverSecondary
        case (_, .displace): .twoDisplaceSecondary
        default: .twoBesideSecondary
        }
    }

    /// Two-column styles have one sidebar: their `two*` modes are the `one*` equivalents.
    static func oneSidebarEquivalent(_ mode: DisplayMode, style: SplitStyle) -> DisplayMode {
        guard style != .tripleColumn else { return mode }
        switch mode {
        case .twoBesideSecondary, .twoDisplaceSecondary: return .oneBesideSecondary
        case .twoOverSecondary: return .oneOverSecondary
        default: return mode
        }
    }

    /// How many sidebars a mode shows (automatic counts as none).
    static func sidebarCount(_ mode: DisplayMode) -> Int {
        switch mode {
        case .automatic, .secondaryOnly: 0
        case .oneBesideSecondary, .oneOverSecondary: 1
        case .twoBesideSecondary, .twoOverSecondary, .twoDisplaceSecondary: 2
        }
    }

    /// The sidebars a mode shows: `one*` the primary (two-column styles) or the
    /// supplementary (tripleColumn); `two*` both.
    public static func visibleSidebars(_ mode: DisplayMode, style: SplitStyle) -> [Column] {
        switch sidebarCount(mode) {
        case 0: []
        case 1: style == .tripleColumn ? [.supplementary] : [.primary]
        default: [.primary, .supplementary]
        }
    }

    /// Not enough room (ours): tiled or displacing sidebars must leave the secondary at
    /// least `minimumSecondaryWidth`; otherwise the mode loses sidebars within its behavior
    /// (two -> one -> secondaryOnly) until it fits. Overlaid sidebars take no room from the
    /// secondary (it fills the window under them), so SEMANTICS 5 never degrades them, even
    /// when they reach past the trailing edge of a narrow window.
    static func degrade(
        _ mode: DisplayMode, behavior: SplitBehavior, style: SplitStyle,
        widths: ColumnWidths, windowWidth: Double
    ) -> DisplayMode {
        let allowed = allowedModes(behavior: behavior, style: style)
        var index = allowed.firstIndex(of: mode) ?? 0
        while index > 0,
            !fits(allowed[index], behavior: behavior, style: style, widths: widths, windowWidth: windowWidth)
        {
            index -= 1
        }
        return allowed[index]
    }

    static func fits(
        _ mode: DisplayMode, behavior: SplitBehavior, style: SplitStyle,
        widths: ColumnWidths, windowWidth: Double
    ) -> Bool {
        if behavior == .overlay { return true }
        let sidebars = visibleSidebars(mode, style: style).reduce(0) { $0 + widths.width(of: $1) }
        return windowWidth - sidebars >= minimumSecondaryWidth
    }
}

/// Which rule gave an expanded scene's split behavior (`explain`'s rule names).
enum BehaviorRule: String, Hashable, Sendable {
    /// `preferredSplitBehavior` other than automatic.
    case explicit = "behavior.explicit"
    /// The behavior an explicit `preferredDisplayMode` needs.
    case preferredMode = "behavior.preferredDisplayMode"
    /// Strict (`presentsWithGesture` false): the behavior allowing the preferred mode.
    case strictPreferredMode = "behavior.strictPreferredDisplayMode"
    /// Automatic, landscape: tile (classic, doubleColumn) or displace (tripleColumn).
    case automaticLandscape = "behavior.automaticLandscape"
    /// Automatic, portrait: overlay.
    case automaticPortrait = "behavior.automaticPortrait"
}

/// Which rule gave the requested display mode (`explain`'s rule names).
enum ModeRule: String, Hashable, Sendable {
    /// A mode a user action chose, allowed by the behavior.
    case userAction = "displayMode.userAction"
    /// The explicit `preferredDisplayMode`, read under the behavior.
    case preferred = "displayMode.preferred"
    /// `preferredDisplayMode` automatic: the orientation's mode, read under the behavior.
    case automaticByOrientation = "displayMode.automatic"
}

/// The behavior and display mode of an expanded scene with the rule behind each.
/// `requested` is the mode before the room check, `mode` after it.
struct ModeDecision: Hashable, Sendable {
    var behavior: SplitBehavior
    var behaviorRule: BehaviorRule
    var mode: DisplayMode
    var modeRule: ModeRule
    var requested: DisplayMode?

    init(behavior: SplitBehavior, behaviorRule: BehaviorRule, mode: DisplayMode, modeRule: ModeRule) {
        self.behavior = behavior
        self.behaviorRule = behaviorRule
        self.mode = mode
        self.modeRule = modeRule
    }
}
