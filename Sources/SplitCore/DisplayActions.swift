// User display actions on an expanded scene (SEMANTICS 5).

extension DisplayResolver {
    /// Applies a user display action to an expanded scene and answers the new memory (its
    /// `userDisplayMode` set to the mode now shown); answers `memory` unchanged when the
    /// action is ignored, including when the chosen mode does not fit and would leave the
    /// displayed mode as it is. Throws `invalid_intent` for `showColumn`/`hideColumn` of the
    /// `compact` column or of a column the style does not have.
    ///
    /// - `displayModeButton`: the cycle of the behavior (`nextButtonMode`), skipping steps
    ///   that do not fit.
    /// - `gesture`: like the button; ignored when `presentsWithGesture` is false.
    /// - `tapDimmed`: overlay -> `secondaryOnly`, `twoDisplaceSecondary` ->
    ///   `oneBesideSecondary`; ignored when the secondary is not dimmed.
    /// - `showColumn` / `hideColumn`: ignored for a column already visible / hidden; else the
    ///   nearest mode of the behavior where the column is visible / hidden, and ignored when
    ///   that mode does not fit (what it degrades to would not show or hide the column).
    ///   Classic style accepts them like doubleColumn (ours: its one sidebar is the primary).
    /// - `showColumn(secondary)` (revision 2) brings the secondary fully on screen and
    ///   undimmed: overlay -> `secondaryOnly`, displace -> `oneBesideSecondary`, ignored when
    ///   it is not dimmed (tile). `hideColumn(secondary)` is refused (`invalid_intent`):
    ///   UIKit does not support hiding the secondary of an expanded split.
    public static func apply(
        _ action: DisplayAction, config: SplitConfig, size: Size,
        memory: DisplayMemory
    ) throws(CoreError) -> DisplayMemory {
        let current = resolve(config: config, size: size, memory: memory)
        switch action {
        case .displayModeButton:
            return cycle(config: config, size: size, memory: memory, from: current)
        case .gesture:
            return config.presentsWithGesture
                ? cycle(config: config, size: size, memory: memory, from: current) : memory
        case .tapDimmed:
            return choose(tapTarget(current), config: config, size: size, memory: memory, current: current)
        case .showColumn(.secondary):
            return choose(tapTarget(current), config: config, size: size, memory: memory, current: current)
        case .hideColumn(.secondary):
            throw .invalidIntent("hideColumn: the secondary column of an expanded split cannot be hidden")
        case .showColumn(let column), .hideColumn(let column):
            try checkColumn(column, style: config.style)
            let show = action == .showColumn(column)
            let target = columnTarget(column, show: show, style: config.style, current: current)
            let chosen = choose(target, config: config, size: size, memory: memory, current: current)
            // The target may not fit and degrade to a mode that shows another column instead
            // (twoBeside -> oneBeside shows the supplementary, not the primary): ignored.
            guard let shown = chosen.userDisplayMode,
                visibleSidebars(shown, style: config.style).contains(column) == show
            else { return memory }
            return chosen
        }
    }

    /// Drops a user-chosen mode when orientation or a size class changed (SEMANTICS 5).
    public static func expire(
        _ memory: DisplayMemory, from oldSize: Size, to newSize: Size,
        oldTraits: Traits, newTraits: Traits
    ) -> DisplayMemory {
        guard oldSize.orientation != newSize.orientation || oldTraits != newTraits else { return memory }
        var expired = memory
        expired.userDisplayMode = nil
        return expired
    }

    /// The memory showing `target`, or `memory` when there is no target or it changes nothing.
    private static func choose(
        _ target: DisplayMode?, config: SplitConfig, size: Size,
        memory: DisplayMemory, current: ExpandedResolution
    ) -> DisplayMemory {
        guard let target else { return memory }
        var chosen = memory
        chosen.userDisplayMode = target
        let shown = resolve(config: config, size: size, memory: chosen).displayMode
        guard shown != current.displayMode else { return memory }
        chosen.userDisplayMode = shown
        return chosen
    }

    /// Steps through the button cycle until the displayed mode changes (a step that does not
    /// fit is skipped); unchanged memory if no step changes it.
    private static func cycle(
        config: SplitConfig, size: Size, memory: DisplayMemory,
        from current: ExpandedResolution
    ) -> DisplayMemory {
        var mode = current.displayMode
        for _ in 0..<3 {
            mode = nextButtonMode(after: mode, behavior: current.splitBehavior, config: config, size: size)
            let chosen = choose(mode, config: config, size: size, memory: memory, current: current)
            if chosen != memory { return chosen }
        }
        return memory
    }

    /// The display-mode button's next mode:
    /// - tile: two-column styles toggle secondaryOnly <-> oneBeside; tripleColumn toggles
    ///   oneBeside <-> twoBeside (secondaryOnly -> oneBeside).
    /// - overlay: secondaryOnly -> oneOver -> twoOver (tripleColumn) -> secondaryOnly.
    /// - displace: tripleColumn oneBeside <-> twoDisplace (secondaryOnly -> oneBeside);
    ///   two-column styles toggle secondaryOnly <-> oneBeside.
    /// - `showsSecondaryOnlyButton` (tripleColumn): any mode -> secondaryOnly, and
    ///   secondaryOnly -> the mode resolved without user choice, or one sidebar if that is
    ///   secondaryOnly too.
    static func nextButtonMode(
        after mode: DisplayMode, behavior: SplitBehavior,
        config: SplitConfig, size: Size
    ) -> DisplayMode {
        let allowed = allowedModes(behavior: behavior, style: config.style)
        let index = allowed.firstIndex(of: mode) ?? 0
        if config.showsSecondaryOnlyButton, config.style == .tripleColumn {
            guard mode == .secondaryOnly else { return .secondaryOnly }
            let base = resolve(config: config, size: size, memory: DisplayMemory()).displayMode
            return base == .secondaryOnly ? allowed[1] : base
        }
        switch (behavior, config.style) {
        case (.overlay, _):
            return allowed[(index + 1) % allowed.count]
        case (_, .tripleColumn):
            return index == 1 ? allowed[2] : allowed[1]
        default:
            return index == 0 ? allowed[1] : allowed[0]
        }
    }

    static func tapTarget(_ current: ExpandedResolution) -> DisplayMode? {
        guard current.frames.contains(where: { $0.column == .secondary && $0.dimmed }) else { return nil }
        return current.splitBehavior == .overlay ? .secondaryOnly : .oneBesideSecondary
    }

    private static func checkColumn(_ column: Column, style: SplitStyle) throws(CoreError) {
        guard column != .compact else {
            throw .invalidIntent("the compact column exists only while the scene is collapsed")
        }
        guard style.columns.contains(column) else {
            throw .invalidIntent("no \(column.rawValue) column in the \(style.rawValue) style")
        }
    }

    /// The nearest mode of the behavior (fewest steps along secondaryOnly, one, two) where
    /// `column` is visible (`show`) or hidden; nil when ignored.
    private static func columnTarget(
        _ column: Column, show: Bool, style: SplitStyle,
        current: ExpandedResolution
    ) -> DisplayMode? {
        guard column != .secondary else { return nil }
        let isVisible = { (mode: DisplayMode) in visibleSidebars(mode, style: style).contains(column) }
        guard isVisible(current.displayMode) != show else { return nil }
        let allowed = allowedModes(behavior: current.splitBehavior, style: style)
        let index = allowed.firstIndex(of: current.displayMode) ?? 0
        return allowed.indices.filter { isVisible(allowed[$0]) == show }
            .min { abs($0 - index) < abs($1 - index) }
            .map { allowed[$0] }
    }
}
