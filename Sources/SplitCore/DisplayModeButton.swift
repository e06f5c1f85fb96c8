// The display-mode button's visibility and target (SEMANTICS 5, revision 2).

/// What the layout reports about the display-mode button (WIRE.md `displayModeButton`).
public struct DisplayModeButtonLayout: Codable, Hashable, Sendable {
    public var visible: Bool
    /// The mode a tap leads to (the current one when a tap changes nothing); nil exactly
    /// when the button is not visible.
    public var target: DisplayMode?

    public init(visible: Bool, target: DisplayMode?) {
        self.visible = visible
        self.target = target
    }

    public static let hidden = DisplayModeButtonLayout(visible: false, target: nil)
}

extension DisplayResolver {
    /// Whether the button shows: never while collapsed; classic keeps revision 1's button
    /// (visible whenever expanded, `displayModeButtonVisibility` is ignored); column styles:
    /// `never` hidden, `always` visible, `automatic` visible iff `presentsWithGesture`
    /// ("setting presentsWithGesture to false hides the display mode button").
    public static func isButtonVisible(config: SplitConfig, collapsed: Bool) -> Bool {
        decidedButtonVisibility(config: config, collapsed: collapsed).visible
    }

    /// `isButtonVisible` with the rule that decided it (`explain`'s rule names).
    static func decidedButtonVisibility(config: SplitConfig, collapsed: Bool) -> (visible: Bool, rule: String) {
        guard !collapsed else { return (false, "button.collapsed") }
        guard config.style != .classic else { return (true, "button.classic") }
        switch config.displayModeButtonVisibility {
        case .never: return (false, "button.visibility.never")
        case .always: return (true, "button.visibility.always")
        case .automatic: return (config.presentsWithGesture, "button.presentsWithGesture")
        }
    }

    /// The button of a scene: hidden, or visible with the mode a tap leads to.
    public static func button(
        config: SplitConfig, size: Size, memory: DisplayMemory,
        collapsed: Bool
    ) -> DisplayModeButtonLayout {
        guard isButtonVisible(config: config, collapsed: collapsed) else { return .hidden }
        // `apply` cannot throw for the button (it throws only for show/hideColumn).
        let tapped = (try? apply(.displayModeButton, config: config, size: size, memory: memory)) ?? memory
        return DisplayModeButtonLayout(
            visible: true, target: resolveMode(config: config, size: size, memory: tapped).mode)
    }
}
