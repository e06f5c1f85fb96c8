// The decisions behind a scene's layout (WIRE.md "Explain and sweep"), read from the same
// resolution functions the engine lays scenes out with: each of them has a `decided...`
// form that returns its rule beside its value, and the engine's own form is that function
// with the rule dropped. So a trace and a layout cannot disagree.

/// A value a decision took or read.
public enum DecisionValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case strings([String])
}

/// One value a decision read, by name.
public struct DecisionInput: Hashable, Sendable {
    public var name: String
    public var value: DecisionValue

    public init(_ name: String, _ value: DecisionValue) {
        self.name = name
        self.value = value
    }
}

/// What was decided (`field`), its value, the stable name of the rule that decided it, the
/// values that rule read and one sentence saying why.
public struct Decision: Hashable, Sendable {
    public var field: String
    public var value: DecisionValue
    public var rule: String
    public var inputs: [DecisionInput]
    public var why: String

    public init(field: String, value: DecisionValue, rule: String, inputs: [DecisionInput], why: String) {
        self.field = field
        self.value = value
        self.rule = rule
        self.inputs = inputs
        self.why = why
    }
}

/// A scene's layout and the decisions behind it, in the order the engine takes them.
public struct Explanation: Hashable, Sendable {
    public var revision: Int
    public var layout: Layout
    public var decisions: [Decision]

    /// The decision about `field`, if there is one.
    public func decision(_ field: String) -> Decision? { decisions.first { $0.field == field } }
}

extension DecisionValue {
    init(_ sizeClass: SizeClass) { self = .string(sizeClass.rawValue) }
    init(_ number: Double) { self = .number(number) }
    init<Value: RawRepresentable>(raw value: Value?) where Value.RawValue == String {
        self = value.map { .string($0.rawValue) } ?? .null
    }
}

extension SplitEngine {
    /// The decisions behind `layout(of: state)`: size classes, collapsed, split behavior,
    /// display mode, column widths, the display-mode button, each presentation's style and
    /// what the collapse (while collapsed) or the expand whose collapsed navigation is kept
    /// moved. Reads `state` only.
    public func explain(_ state: SceneState) -> Explanation {
        let layout = layout(of: state)
        var decisions: [Decision] = []
        decisions.append(contentsOf: explainTraits(state))
        let compact = state.traits.horizontalSizeClass == .compact
        decisions.append(
            Decision(
                field: "collapsed", value: .bool(layout.collapsed),
                rule: compact ? "collapsed.horizontalCompact" : "collapsed.horizontalRegular",
                inputs: [DecisionInput("horizontalSizeClass", DecisionValue(state.traits.horizontalSizeClass))],
                why: compact
                    ? "A horizontally compact scene shows one stack."
                    : "A horizontally regular scene shows its columns."
            ))
        decisions.append(contentsOf: explainDisplay(state, layout: layout))
        decisions.append(explainButton(state))
        for (index, presentation) in state.navigation.presentations.enumerated() {
            let (style, rule) = presentation.decidedEffectiveStyle(in: state.traits)
            decisions.append(
                Decision(
                    field: "presentations.\(index).effectiveStyle", value: DecisionValue(raw: style), rule: rule,
                    inputs: [
                        DecisionInput("vc", .string(presentation.vc)),
                        DecisionInput("style", DecisionValue(raw: presentation.style)),
                        DecisionInput("anchor", presentation.anchor.map { .string($0) } ?? .null),
                        DecisionInput(
                            "prefersEdgeAttachedInCompactHeight",
                            .bool(presentation.prefersEdgeAttachedInCompactHeight ?? false)),
                        DecisionInput("horizontalSizeClass", DecisionValue(state.traits.horizontalSizeClass)),
                        DecisionInput("verticalSizeClass", DecisionValue(state.traits.verticalSizeClass)),
                    ],
                    why: "A presentation adapts to the size classes: \(rule).")
            )
        }
        if let decision = explainTransition(state) { decisions.append(decision) }
        return Explanation(revision: state.revision, layout: layout, decisions: decisions)
    }

    // MARK: size classes

    /// The device's rule (profile row or rule-set rule), then the `traitOverrides` set's,
    /// with hysteresis evaluated from the scene's current classes, as a resize from them
    /// would (a class held by hysteresis is held again).
    func explainTraits(_ state: SceneState) -> [Decision] {
        let size = state.size
        let previous = state.traits
        var horizontal: Decision
        var vertical: Decision
        let base: Traits
        let sizeInputs = [
            DecisionInput("device", .string(state.device)), DecisionInput("width", .number(size.width)),
            DecisionInput("height", .number(size.height)),
            DecisionInput("orientation", DecisionValue(raw: size.orientation)),
        ]
        if let decided = catalog.decidedProfileTraits(device: state.device, size: size) {
            base = decided.traits
            var inputs = sizeInputs
            if let profile = catalog.profile(state.device) {
                switch decided.rule {
                case .phoneLandscape:
                    inputs.append(
                        DecisionInput("landscapeHorizontalClass", DecisionValue(profile.landscapeHorizontalClass)))
                case .padFullScreen, .padWindowedRegular, .padWindowedCompact:
                    inputs.append(DecisionInput("screenWidth", .number(profile.screen(in: size.orientation).width)))
                    inputs.append(DecisionInput("windowedRegularMinWidth", .number(decided.windowedRegularMinWidth)))
                case .mac, .phonePortrait: break
                }
            }
            let why = Self.deviceWhy(decided.rule)
            horizontal = Decision(
                field: "horizontalSizeClass", value: DecisionValue(base.horizontalSizeClass),
                rule: decided.rule.rawValue, inputs: inputs, why: why)
            vertical = Decision(
                field: "verticalSizeClass", value: DecisionValue(base.verticalSizeClass),
                rule: decided.rule.rawValue, inputs: inputs, why: why)
        } else if let ruleSet = catalog.ruleSet(state.device) {
            let decided = ruleSet.decidedTraits(for: size, previous: previous)
            base = decided.traits
            horizontal = Self.ruleSetDecision(
                "horizontalSizeClass", ruleSet, decided.horizontal, value: base.horizontalSizeClass,
                inputs: sizeInputs)
            vertical = Self.ruleSetDecision(
                "verticalSizeClass", ruleSet, decided.vertical, value: base.verticalSizeClass, inputs: sizeInputs)
        } else {
            // A state of a device the catalog no longer has: its classes as stored.
            let inputs = [DecisionInput("device", .string(state.device))]
            let why = "The device is not in the catalog: the classes are the ones stored."
            return [
                Decision(
                    field: "horizontalSizeClass", value: DecisionValue(previous.horizontalSizeClass),
                    rule: "device.unknown", inputs: inputs, why: why),
                Decision(
                    field: "verticalSizeClass", value: DecisionValue(previous.verticalSizeClass),
                    rule: "device.unknown", inputs: inputs, why: why),
            ]
        }
        if let name = state.config.traitOverrides, var overrides = catalog.ruleSet(name) {
            // `RuleSet.overriding`: the set's rules over the device's classes.
            overrides.defaults = base
            let decided = overrides.decidedTraits(for: size, previous: previous)
            let inputs = sizeInputs + [DecisionInput("traitOverrides", .string(name))]
            if decided.horizontal.rule >= 0 || decided.horizontal.held {
                horizontal = Self.ruleSetDecision(
                    "horizontalSizeClass", overrides, decided.horizontal, value: decided.traits.horizontalSizeClass,
                    inputs: inputs)
            }
            if decided.vertical.rule >= 0 || decided.vertical.held {
                vertical = Self.ruleSetDecision(
                    "verticalSizeClass", overrides, decided.vertical, value: decided.traits.verticalSizeClass,
                    inputs: inputs)
            }
        }
        return [horizontal, vertical]
    }

    static func deviceWhy(_ rule: DeviceTraitRule) -> String {
        switch rule {
        case .mac: "A Mac window is regular in both directions."
        case .phonePortrait: "A portrait phone is horizontally compact and vertically regular."
        case .phoneLandscape: "A landscape phone is vertically compact; its horizontal class is the model's."
        case .padFullScreen: "An iPad window as wide as the screen is regular in both directions."
        case .padWindowedRegular: "An iPad window at least windowedRegularMinWidth wide is horizontally regular."
        case .padWindowedCompact: "An iPad window narrower than windowedRegularMinWidth is horizontally compact."
        }
    }

    static func ruleSetDecision(
        _ field: String, _ ruleSet: RuleSet, _ decided: RuleSetDecision, value: SizeClass, inputs: [DecisionInput]
    ) -> Decision {
        let ruleName =
            decided.rule >= 0 ? "ruleset.\(ruleSet.name).rule[\(decided.rule)]" : "ruleset.\(ruleSet.name).defaults"
        var inputs = inputs
        inputs.append(DecisionInput("hysteresis", .number(ruleSet.hysteresis)))
        guard decided.held else {
            return Decision(
                field: field, value: DecisionValue(value), rule: ruleName, inputs: inputs,
                why: decided.rule >= 0
                    ? "The last matching rule of \(ruleSet.name) that sets the class."
                    : "No rule of \(ruleSet.name) that sets the class matches: its default.")
        }
        inputs.append(DecisionInput("exactRule", .string(ruleName)))
        inputs.append(DecisionInput("exactValue", DecisionValue(value == .compact ? SizeClass.regular : .compact)))
        return Decision(
            field: field, value: DecisionValue(value), rule: "ruleset.\(ruleSet.name).hysteresis", inputs: inputs,
            why: "Within hysteresis points of a breakpoint the class keeps its previous value.")
    }

    // MARK: display

    /// Behavior, mode and column widths; while collapsed, the one column's width.
    func explainDisplay(_ state: SceneState, layout: Layout) -> [Decision] {
        let config = state.config
        let size = state.size
        guard !state.collapsed else {
            let inputs = [DecisionInput("collapsed", .bool(true))]
            return [
                Decision(
                    field: "splitBehavior", value: .null, rule: "collapsed", inputs: inputs,
                    why: "A collapsed scene has no split behavior."),
                Decision(
                    field: "displayMode", value: .null, rule: "collapsed", inputs: inputs,
                    why: "A collapsed scene has no display mode."),
                Decision(
                    field: "columns.compact.width", value: .number(size.width), rule: "width.window",
                    inputs: [DecisionInput("windowWidth", .number(size.width))],
                    why: "The collapsed stack fills the window."),
            ]
        }
        let (widths, decided) = DisplayResolver.decidedMode(config: config, size: size, memory: state.display)
        var decisions: [Decision] = []
        decisions.append(
            Decision(
                field: "splitBehavior", value: DecisionValue(raw: decided.behavior),
                rule: decided.behaviorRule.rawValue,
                inputs: [
                    DecisionInput("preferredSplitBehavior", DecisionValue(raw: config.preferredSplitBehavior)),
                    DecisionInput("preferredDisplayMode", DecisionValue(raw: config.preferredDisplayMode)),
                    DecisionInput("presentsWithGesture", .bool(config.presentsWithGesture)),
                    DecisionInput("style", DecisionValue(raw: config.style)),
                    DecisionInput("orientation", DecisionValue(raw: size.orientation)),
                ],
                why: Self.behaviorWhy(decided.behaviorRule)))
        var modeInputs = [
            DecisionInput("preferredDisplayMode", DecisionValue(raw: config.preferredDisplayMode)),
            DecisionInput("userDisplayMode", DecisionValue(raw: state.display.userDisplayMode)),
            DecisionInput("splitBehavior", DecisionValue(raw: decided.behavior)),
            DecisionInput("style", DecisionValue(raw: config.style)),
            DecisionInput("orientation", DecisionValue(raw: size.orientation)),
        ]
        let requested = decided.requested ?? decided.mode
        if requested != decided.mode {
            modeInputs.append(DecisionInput("requested", DecisionValue(raw: requested)))
            modeInputs.append(DecisionInput("requestedBy", .string(decided.modeRule.rawValue)))
            modeInputs.append(DecisionInput("windowWidth", .number(size.width)))
            modeInputs.append(DecisionInput("minimumSecondaryWidth", .number(DisplayResolver.minimumSecondaryWidth)))
            decisions.append(
                Decision(
                    field: "displayMode", value: DecisionValue(raw: decided.mode), rule: "displayMode.degradedForRoom",
                    inputs: modeInputs,
                    why: "The sidebars of \(requested.rawValue) would leave the secondary less than "
                        + "\(formatPoints(DisplayResolver.minimumSecondaryWidth)) pt: sidebars are dropped until it fits."
                ))
        } else {
            let why: String =
                switch decided.modeRule {
                case .userAction:
                    "A user action chose this mode; it holds until the orientation or a size class changes."
                case .preferred: "The app's preferredDisplayMode, read under the split behavior."
                case .automaticByOrientation:
                    "preferredDisplayMode is automatic: the orientation's mode, read under the split behavior."
                }
            decisions.append(
                Decision(
                    field: "displayMode", value: DecisionValue(raw: decided.mode), rule: decided.modeRule.rawValue,
                    inputs: modeInputs, why: why))
        }
        for column in layout.columns {
            decisions.append(
                explainWidth(column, state, widths: widths, behavior: decided.behavior, mode: decided.mode))
        }
        return decisions
    }

    static func behaviorWhy(_ rule: BehaviorRule) -> String {
        switch rule {
        case .explicit: "The app asked for this preferredSplitBehavior."
        case .preferredMode: "The app's explicit preferredDisplayMode needs this behavior."
        case .strictPreferredMode:
            "presentsWithGesture is false: the preferred mode is respected strictly, with the behavior allowing it."
        case .automaticLandscape: "Automatic in landscape: tile for two columns, displace for three."
        case .automaticPortrait: "Automatic in portrait: overlay."
        }
    }

    func explainWidth(
        _ column: ColumnLayout, _ state: SceneState, widths: ColumnWidths, behavior: SplitBehavior, mode: DisplayMode
    ) -> Decision {
        let config = state.config
        let windowWidth = state.size.width
        let field = "columns.\(column.column.rawValue).width"
        guard column.column == .secondary else {
            let primary = column.column == .primary
            let decided = ColumnWidths.decidedWidth(
                preferred: primary ? config.preferredPrimaryColumnWidth : config.preferredSupplementaryColumnWidth,
                fraction: primary
                    ? config.preferredPrimaryColumnWidthFraction : config.preferredSupplementaryColumnWidthFraction,
                minimum: primary ? config.minimumPrimaryColumnWidth : config.minimumSupplementaryColumnWidth,
                maximum: primary ? config.maximumPrimaryColumnWidth : config.maximumSupplementaryColumnWidth,
                windowWidth: windowWidth)
            let prefix = primary ? "Primary" : "Supplementary"
            let inputs = [
                DecisionInput("source", .string(decided.source.rawValue)),
                DecisionInput(
                    "preferred\(prefix)ColumnWidth",
                    (primary ? config.preferredPrimaryColumnWidth : config.preferredSupplementaryColumnWidth)
                        .map { .number($0) } ?? .null),
                DecisionInput(
                    "preferred\(prefix)ColumnWidthFraction",
                    (primary
                        ? config.preferredPrimaryColumnWidthFraction : config.preferredSupplementaryColumnWidthFraction)
                        .map { .number($0) } ?? .null),
                DecisionInput("windowWidth", .number(windowWidth)),
                DecisionInput("preliminary", .number(decided.preliminary)),
                DecisionInput(
                    "minimum\(prefix)ColumnWidth",
                    .number(primary ? config.minimumPrimaryColumnWidth : config.minimumSupplementaryColumnWidth)),
                DecisionInput(
                    "maximum\(prefix)ColumnWidth",
                    .number(primary ? config.maximumPrimaryColumnWidth : config.maximumSupplementaryColumnWidth)),
            ]
            if let clamp = decided.clamp {
                return Decision(
                    field: field, value: .number(decided.width), rule: "width.clamp.\(clamp.rawValue)", inputs: inputs,
                    why:
                        "The \(decided.source.rawValue) width \(formatPoints(decided.preliminary)) pt is clamped to the "
                        + (clamp == .maximum ? "maximum." : "minimum."))
            }
            let why: String =
                switch decided.source {
                case .preferred: "The app's preferred width, within the bounds."
                case .fraction: "The preferred fraction of the window's width, within the bounds."
                case .automatic: "No preferred width or fraction: the automatic width, within the bounds."
                }
            return Decision(
                field: field, value: .number(decided.width), rule: "width.\(decided.source.rawValue)", inputs: inputs,
                why: why)
        }
        // The secondary: its frame as `ColumnFrames` lays it out, unless a tiled inspector
        // took part of it (`LayoutAssembly`).
        let frames = ColumnFrames.frames(
            config: config, behavior: behavior, mode: mode, widths: widths, windowWidth: windowWidth)
        let framed = frames.first { $0.column == .secondary }?.width ?? windowWidth
        let sidebars = frames.filter { $0.column != .secondary && $0.visible }.reduce(0) { $0 + $1.width }
        let inputs = [
            DecisionInput("windowWidth", .number(windowWidth)),
            DecisionInput("splitBehavior", DecisionValue(raw: behavior)),
            DecisionInput("displayMode", DecisionValue(raw: mode)),
            DecisionInput("visibleSidebarsWidth", .number(sidebars)),
        ]
        if column.width != framed {
            return Decision(
                field: field, value: .number(column.width), rule: "width.secondary.inspector",
                inputs: inputs + [DecisionInput("framedWidth", .number(framed))],
                why: "A tiled inspector takes its width from the secondary.")
        }
        switch (behavior, mode) {
        case (.overlay, _):
            return Decision(
                field: field, value: .number(column.width), rule: "width.secondary.window", inputs: inputs,
                why: "Under overlay the secondary fills the window; sidebars lie over it.")
        case (_, .twoDisplaceSecondary):
            return Decision(
                field: field, value: .number(column.width), rule: "width.secondary.displaced", inputs: inputs,
                why: "Displaced, the secondary keeps its oneBesideSecondary width and is pushed toward the edge.")
        default:
            return Decision(
                field: field, value: .number(column.width), rule: "width.secondary.remainder", inputs: inputs,
                why: "The secondary takes the width the visible sidebars leave.")
        }
    }

    func explainButton(_ state: SceneState) -> Decision {
        let (visible, rule) = DisplayResolver.decidedButtonVisibility(config: state.config, collapsed: state.collapsed)
        let button = DisplayResolver.button(
            config: state.config, size: state.size, memory: state.display, collapsed: state.collapsed)
        return Decision(
            field: "displayModeButton", value: .bool(visible), rule: rule,
            inputs: [
                DecisionInput("collapsed", .bool(state.collapsed)),
                DecisionInput("style", DecisionValue(raw: state.config.style)),
                DecisionInput(
                    "displayModeButtonVisibility", DecisionValue(raw: state.config.displayModeButtonVisibility)),
                DecisionInput("presentsWithGesture", .bool(state.config.presentsWithGesture)),
                DecisionInput("target", DecisionValue(raw: button.target)),
            ],
            why: visible
                ? "The button shows (\(rule)); a tap leads to \(button.target?.rawValue ?? "nothing")."
                : "The button is hidden (\(rule)).")
    }

    // MARK: collapse and expand

    /// While collapsed: what the collapse put on the stack, under which policy. While an
    /// expand's collapsed navigation is kept (navigation happened while collapsed): what that
    /// expand moved out, under which policy. Otherwise nil: an expand that gave the column
    /// stacks back verbatim leaves nothing in the state to explain.
    func explainTransition(_ state: SceneState) -> Decision? {
        let config = state.config
        let nav = state.navigation
        if let collapsed = nav.collapsed {
            let moved = Collapse.ids(of: collapsed.built, where: { $0 == .supplementary || $0 == .secondary })
            let rebuilt = Collapse.buildStack(nav, config: config).built == collapsed.built
            let rule = config.hasCompactColumn ? "policy.compactColumn" : "policy.\(config.collapsePolicy.rawValue)"
            return Decision(
                field: "collapse", value: .strings(moved), rule: rule,
                inputs: [
                    DecisionInput("collapsePolicy", DecisionValue(raw: config.collapsePolicy)),
                    DecisionInput("topColumnForCollapsing", DecisionValue(raw: config.topColumnForCollapsing)),
                    DecisionInput("topColumn", DecisionValue(raw: Collapse.topColumn(nav, config: config))),
                    DecisionInput("stack", .strings(collapsed.built.map(\.vc))),
                    DecisionInput("rebuildsUnderCurrentConfig", .bool(rebuilt)),
                ],
                why: config.hasCompactColumn
                    ? "A compact column replaces the stacked columns."
                    : "The columns from the primary up to the top column were stacked; \(config.collapsePolicy.rawValue) "
                        + "decides what the secondary contributes.")
        }
        guard let memory = nav.expandedFrom, let collapsed = memory.navigation.collapsed else { return nil }
        let moved = Expand.expand(memory.navigation, config: config).moved
        let exact = collapsed.entries == collapsed.built
        let rule =
            config.hasCompactColumn
            ? "policy.compactColumn" : exact ? "expand.exact" : "policy.\(config.expandPolicy.rawValue)"
        return Decision(
            field: "expand", value: .strings(moved), rule: rule,
            inputs: [
                DecisionInput("expandPolicy", DecisionValue(raw: config.expandPolicy)),
                DecisionInput("collapsedStack", .strings(collapsed.vcs)),
            ],
            why: exact
                ? "The collapsed stack was as collapse built it: the column stacks came back as they were."
                : "The collapsed stack was navigated: \(config.expandPolicy.rawValue) gave its entries to the columns.")
    }
}
