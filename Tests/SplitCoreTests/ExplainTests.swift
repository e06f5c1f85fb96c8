import Foundation
import Testing
@testable import SplitCore

/// `SplitEngine.explain` (WIRE.md "Explain and sweep"): for each kind of decision, the trace
/// names the rule that decided the field, its value is the layout's, and changing that
/// rule's input changes the field (and the rule named).
@Suite struct ExplainTests {
    let engine = SplitEngine()

    func patch(_ json: String) throws -> SplitConfigPatch {
        try JSONDecoder().decode(SplitConfigPatch.self, from: Data(json.utf8))
    }

    func scene(
        _ device: String, _ width: Double, _ height: Double, config: String = "{}", engine: SplitEngine? = nil
    ) throws -> SceneState {
        try (engine ?? self.engine).createScene(
            id: "s", device: device, size: Size(width: width, height: height), config: try patch(config))
    }

    func decision(_ state: SceneState, _ field: String, engine: SplitEngine? = nil) throws -> Decision {
        let explanation = (engine ?? self.engine).explain(state)
        return try #require(explanation.decision(field), "no decision for \(field): \(explanation.decisions)")
    }

    func string(_ value: DecisionValue) -> String? {
        if case .string(let text) = value { text } else { nil }
    }

    func number(_ value: DecisionValue) -> Double? {
        if case .number(let number) = value { number } else { nil }
    }

    func input(_ decision: Decision, _ name: String) -> DecisionValue? {
        decision.inputs.first { $0.name == name }?.value
    }

    // MARK: size classes

    @Test func iPadWindowClassesNameTheDeviceRow() throws {
        let full = try scene("ipad-pro-12.9", 1366, 1024)
        let regular = try scene("ipad-pro-12.9", 678, 1024)
        let compact = try scene("ipad-pro-12.9", 375, 1024)
        let rules = try [full, regular, compact].map { try decision($0, "horizontalSizeClass").rule }
        #expect(rules == ["device.padFullScreen", "device.windowedRegularMinWidth", "device.windowedCompact"])
        let values = try [full, regular, compact].map { try string(decision($0, "horizontalSizeClass").value) }
        #expect(values == ["regular", "regular", "compact"])
        #expect(values == [full, regular, compact].map { engine.layout(of: $0).traits.horizontalSizeClass.rawValue })
        #expect(try number(#require(input(decision(compact, "horizontalSizeClass"), "windowedRegularMinWidth"))) == 640)

        // The row's input: a catalog whose windowed minimum is above 678 makes the half split compact.
        let strict = SplitEngine(
            catalog: try DeviceCatalog(profiles: engine.catalog.profiles, ruleSets: [], windowedRegularMinWidth: 700))
        let half = try scene("ipad-pro-12.9", 678, 1024, engine: strict)
        let changed = try decision(half, "horizontalSizeClass", engine: strict)
        #expect(changed.rule == "device.windowedCompact" && string(changed.value) == "compact")
    }

    @Test func phoneClassesNameOrientationAndTheModelsLandscapeClass() throws {
        let portrait = try scene("iphone-16-pro-max", 440, 956)
        let landscape = try scene("iphone-16-pro-max", 956, 440)
        #expect(try decision(portrait, "horizontalSizeClass").rule == "device.phonePortrait")
        let wide = try decision(landscape, "horizontalSizeClass")
        #expect(wide.rule == "device.landscapeClass")
        #expect(string(wide.value) == engine.layout(of: landscape).traits.horizontalSizeClass.rawValue)
        #expect(input(wide, "landscapeHorizontalClass") == wide.value)
        #expect(try string(decision(landscape, "verticalSizeClass").value) == "compact")
        #expect(try string(decision(portrait, "verticalSizeClass").value) == "regular")
    }

    @Test func ruleSetClassesNameTheLastMatchingRuleOrTheDefaults() throws {
        let narrow = try scene("material", 500, 400)
        let wide = try scene("material", 900, 700)
        let horizontalNarrow = try decision(narrow, "horizontalSizeClass")
        let horizontalWide = try decision(wide, "horizontalSizeClass")
        #expect(horizontalNarrow.rule == "ruleset.material.defaults" && string(horizontalNarrow.value) == "compact")
        #expect(horizontalWide.rule == "ruleset.material.rule[0]" && string(horizontalWide.value) == "regular")
        #expect(try decision(wide, "verticalSizeClass").rule == "ruleset.material.rule[1]")
        #expect(try decision(narrow, "verticalSizeClass").rule == "ruleset.material.defaults")
    }

    @Test func traitOverridesNameTheOverridingRule() throws {
        let below = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"traitOverrides":"compact-below-1000"}"#)
        let above = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"traitOverrides":"regular-above-414"}"#)
        #expect(try decision(below, "horizontalSizeClass").rule == "device.padFullScreen")
        let overridden = try decision(above, "horizontalSizeClass")
        #expect(overridden.rule == "ruleset.regular-above-414.rule[0]")
        let narrow = try scene("ipad-pro-12.9", 900, 1024, config: #"{"traitOverrides":"compact-below-1000"}"#)
        let compact = try decision(narrow, "horizontalSizeClass")
        #expect(compact.rule == "ruleset.compact-below-1000.rule[0]" && string(compact.value) == "compact")
        #expect(engine.layout(of: narrow).collapsed)
    }

    @Test func hysteresisHoldsThePreviousClassAndSaysSo() throws {
        let set = RuleSet(
            name: "h16", defaults: .regularRegular, hysteresis: 16,
            rules: [SizeClassRule(when: .bound(RuleBound(.maximum, .width, 400)), horizontal: .compact)])
        let custom = SplitEngine(catalog: try DeviceCatalog(profiles: [], ruleSets: [set]))
        let start = try scene("h16", 380, 800, engine: custom)
        // 410 is past the breakpoint but within 16 pt of it: compact holds.
        let held = try custom.apply(.resize(Size(width: 410, height: 800)), to: start).state
        let heldDecision = try decision(held, "horizontalSizeClass", engine: custom)
        #expect(heldDecision.rule == "ruleset.h16.hysteresis")
        #expect(string(heldDecision.value) == "compact" && held.traits.horizontalSizeClass == .compact)
        #expect(input(heldDecision, "exactValue") == .string("regular"))
        // The input the rule reads: 420 is 16 pt past it, and the class flips.
        let flipped = try custom.apply(.resize(Size(width: 420, height: 800)), to: start).state
        let flippedDecision = try decision(flipped, "horizontalSizeClass", engine: custom)
        #expect(flippedDecision.rule == "ruleset.h16.defaults" && string(flippedDecision.value) == "regular")
    }

    // MARK: collapsed, behavior, display mode

    @Test func collapsedFollowsTheHorizontalClass() throws {
        let compact = try decision(try scene("ipad-pro-12.9", 375, 1024), "collapsed")
        let regular = try decision(try scene("ipad-pro-12.9", 1366, 1024), "collapsed")
        #expect(compact.rule == "collapsed.horizontalCompact" && compact.value == .bool(true))
        #expect(regular.rule == "collapsed.horizontalRegular" && regular.value == .bool(false))
    }

    @Test func splitBehaviorNamesExplicitModeOrShape() throws {
        let explicit = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"preferredSplitBehavior":"overlay"}"#)
        let byMode = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"preferredDisplayMode":"oneOverSecondary"}"#)
        let landscape = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"style":"tripleColumn"}"#)
        let portrait = try scene("ipad-pro-12.9", 1024, 1366, config: #"{"style":"tripleColumn"}"#)
        let strict = try scene(
            "ipad-pro-12.9", 1366, 1024,
            config:
                #"{"preferredSplitBehavior":"tile","preferredDisplayMode":"oneOverSecondary","presentsWithGesture":false}"#
        )
        let cases: [(SceneState, String, String)] = [
            (explicit, "behavior.explicit", "overlay"), (byMode, "behavior.preferredDisplayMode", "overlay"),
            (landscape, "behavior.automaticLandscape", "displace"), (portrait, "behavior.automaticPortrait", "overlay"),
            (strict, "behavior.strictPreferredDisplayMode", "overlay"),
        ]
        for (state, rule, value) in cases {
            let made = try decision(state, "splitBehavior")
            #expect(made.rule == rule && string(made.value) == value)
            #expect(engine.layout(of: state).splitBehavior?.rawValue == value)
        }
        // Changing the explicit preference's input changes the behavior.
        let tile = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"preferredSplitBehavior":"tile"}"#)
        #expect(try string(decision(tile, "splitBehavior").value) == "tile")
    }

    @Test func displayModeNamesPreferredAutomaticUserAndDegradation() throws {
        let automatic = try scene("ipad-pro-12.9", 1366, 1024)
        let made = try decision(automatic, "displayMode")
        #expect(made.rule == "displayMode.automatic" && string(made.value) == "oneBesideSecondary")

        let preferred = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"preferredDisplayMode":"secondaryOnly"}"#)
        let preferredMade = try decision(preferred, "displayMode")
        #expect(preferredMade.rule == "displayMode.preferred" && string(preferredMade.value) == "secondaryOnly")

        // A user action: the button's mode, named as the user's until orientation or classes change.
        let tapped = try engine.apply(.intent(.displayModeButton), to: automatic).state
        let user = try decision(tapped, "displayMode")
        #expect(user.rule == "displayMode.userAction")
        #expect(string(user.value) == engine.layout(of: tapped).displayMode?.rawValue)
        #expect(user.value != made.value)
        #expect(user.why.contains("orientation or a size class changes"))
        let rotated = try engine.apply(.resize(Size(width: 1024, height: 1366)), to: tapped).state
        #expect(try decision(rotated, "displayMode").rule == "displayMode.automatic")

        // Degradation for room: a 600-pt Mac window cannot tile a 320-pt sidebar beside a
        // 320-pt secondary; a wider one can.
        let narrow = try scene("mac", 600, 800, config: #"{"preferredDisplayMode":"oneBesideSecondary"}"#)
        let degraded = try decision(narrow, "displayMode")
        #expect(degraded.rule == "displayMode.degradedForRoom" && string(degraded.value) == "secondaryOnly")
        #expect(input(degraded, "requested") == .string("oneBesideSecondary"))
        #expect(engine.layout(of: narrow).displayMode == .secondaryOnly)
        let wide = try scene("mac", 640, 800, config: #"{"preferredDisplayMode":"oneBesideSecondary"}"#)
        let fits = try decision(wide, "displayMode")
        #expect(fits.rule == "displayMode.preferred" && string(fits.value) == "oneBesideSecondary")
    }

    // MARK: widths

    @Test func columnWidthsNameSourceAndClamp() throws {
        let cases: [(String, String, Double)] = [
            ("{}", "width.automatic", 320),
            (#"{"preferredPrimaryColumnWidth":300}"#, "width.preferred", 300),
            (#"{"preferredPrimaryColumnWidthFraction":0.2}"#, "width.fraction", 273.2),
            (#"{"preferredPrimaryColumnWidth":500}"#, "width.clamp.max", 320),
            (#"{"preferredPrimaryColumnWidth":500,"maximumPrimaryColumnWidth":600}"#, "width.preferred", 500),
            (#"{"preferredPrimaryColumnWidth":100,"minimumPrimaryColumnWidth":150}"#, "width.clamp.min", 150),
            (#"{"minimumPrimaryColumnWidth":350}"#, "width.clamp.min", 350),
        ]
        for (config, rule, width) in cases {
            let state = try scene("ipad-pro-12.9", 1366, 1024, config: config)
            let made = try decision(state, "columns.primary.width")
            #expect(made.rule == rule, "\(config)")
            #expect(number(made.value) == width, "\(config)")
            #expect(engine.layout(of: state).columns.first { $0.column == .primary }?.width == width)
            let secondary = try decision(state, "columns.secondary.width")
            #expect(secondary.rule == "width.secondary.remainder")
            #expect(number(secondary.value) == 1366 - width)
        }
        let overlay = try scene("ipad-pro-12.9", 1024, 1366)
        #expect(try decision(overlay, "columns.secondary.width").rule == "width.secondary.window")
        let collapsed = try scene("ipad-pro-12.9", 375, 1024)
        let one = try decision(collapsed, "columns.compact.width")
        #expect(one.rule == "width.window" && number(one.value) == 375)
    }

    // MARK: button, presentations

    @Test func displayModeButtonNamesItsVisibilityRule() throws {
        let classic = try decision(try scene("ipad-pro-12.9", 1366, 1024), "displayModeButton")
        #expect(classic.rule == "button.classic" && classic.value == .bool(true))
        let never = try decision(
            try scene(
                "ipad-pro-12.9", 1366, 1024, config: #"{"style":"doubleColumn","displayModeButtonVisibility":"never"}"#),
            "displayModeButton")
        #expect(never.rule == "button.visibility.never" && never.value == .bool(false))
        let gesture = try decision(
            try scene("ipad-pro-12.9", 1366, 1024, config: #"{"style":"doubleColumn","presentsWithGesture":false}"#),
            "displayModeButton")
        #expect(gesture.rule == "button.presentsWithGesture" && gesture.value == .bool(false))
        let state = try scene("ipad-pro-12.9", 1366, 1024, config: #"{"style":"doubleColumn"}"#)
        let shown = try decision(state, "displayModeButton")
        #expect(shown.rule == "button.presentsWithGesture" && shown.value == .bool(true))
        #expect(engine.revision2Layout(of: state).displayModeButton.visible)
        #expect(try decision(try scene("ipad-pro-12.9", 375, 1024), "displayModeButton").rule == "button.collapsed")
    }

    @Test func presentationStyleNamesItsAdaptation() throws {
        let regular = try scene("ipad-pro-12.9", 1366, 1024)
        let presented = try engine.apply(.intent(.present(vc: "compose", style: .formSheet)), to: regular).state
        let asRequested = try decision(presented, "presentations.0.effectiveStyle")
        #expect(asRequested.rule == "presentation.asRequested" && string(asRequested.value) == "formSheet")
        let narrow = try engine.apply(.resize(Size(width: 375, height: 1024)), to: presented).state
        let card = try decision(narrow, "presentations.0.effectiveStyle")
        #expect(card.rule == "presentation.compactWidth" && string(card.value) == "pageSheet")
        #expect(engine.layout(of: narrow).presentations.first?.effectiveStyle == .pageSheet)
    }

    // MARK: collapse and expand

    @Test func collapseNamesThePolicyAndWhatMoved() throws {
        let config = #"{"style":"doubleColumn","roots":{"primary":"inbox","secondary":"detail"}}"#
        var uikit = try scene("ipad-pro-12.9", 1366, 1024, config: config)
        uikit = try engine.apply(.intent(.push(column: .secondary, vc: "message")), to: uikit).state
        let collapsed = try engine.apply(.resize(Size(width: 375, height: 1024)), to: uikit).state
        let made = try decision(collapsed, "collapse")
        #expect(made.rule == "policy.uikit" && made.value == .strings(["detail", "message"]))

        let keeping = try engine.apply(
            .intent(.setConfig(try patch(#"{"collapsePolicy":"moveDetailExceptRoot"}"#))), to: uikit
        )
        .state
        let collapsedKeeping = try engine.apply(.resize(Size(width: 375, height: 1024)), to: keeping).state
        let other = try decision(collapsedKeeping, "collapse")
        #expect(other.rule == "policy.moveDetailExceptRoot" && other.value == .strings(["message"]))
        #expect(engine.layout(of: collapsedKeeping).columns[0].stack == ["inbox", "message"])

        // Expanded with nothing kept: no collapse or expand decision.
        #expect(engine.explain(uikit).decision("collapse") == nil)
        #expect(engine.explain(uikit).decision("expand") == nil)
    }

    @Test func expandAfterNavigationNamesThePolicy() throws {
        let config = #"{"style":"doubleColumn","roots":{"primary":"inbox","secondary":"detail"}}"#
        let regular = try scene("ipad-pro-12.9", 1366, 1024, config: config)
        let collapsed = try engine.apply(.resize(Size(width: 375, height: 1024)), to: regular).state
        let navigated = try engine.apply(.intent(.showDetail(vc: "thread")), to: collapsed).state
        let expanded = try engine.apply(.resize(Size(width: 1366, height: 1024)), to: navigated).state
        let made = try decision(expanded, "expand")
        #expect(made.rule == "policy.uikit")
        guard case .strings(let moved) = made.value else { Issue.record("expand value \(made.value)"); return }
        #expect(moved.contains("thread"))
        #expect(engine.layout(of: expanded).columns.last?.stack.last == "thread")
    }

    // MARK: agreement

    /// Over every device × style × a range of widths, each decided value is the layout's.
    @Test func everyDecidedValueIsTheLayouts() throws {
        let styles = [#"{}"#, #"{"style":"doubleColumn"}"#, #"{"style":"tripleColumn"}"#]
        for device in engine.catalog.deviceNames {
            for config in styles {
                for width in stride(from: 300.0, through: 1500, by: 97) {
                    let state = try scene(device, width, 900, config: config)
                    let layout = engine.layout(of: state)
                    let explanation = engine.explain(state)
                    #expect(explanation.layout == layout)
                    let values: [String: DecisionValue] = Dictionary(
                        explanation.decisions.map { ($0.field, $0.value) }, uniquingKeysWith: { a, _ in a })
                    #expect(values["horizontalSizeClass"] == .string(layout.traits.horizontalSizeClass.rawValue))
                    #expect(values["verticalSizeClass"] == .string(layout.traits.verticalSizeClass.rawValue))
                    #expect(values["collapsed"] == .bool(layout.collapsed))
                    #expect(values["displayMode"] == (layout.displayMode.map { .string($0.rawValue) } ?? .null))
                    #expect(values["splitBehavior"] == (layout.splitBehavior.map { .string($0.rawValue) } ?? .null))
                    for column in layout.columns {
                        #expect(values["columns.\(column.column.rawValue).width"] == .number(column.width))
                    }
                    #expect(
                        values["displayModeButton"]
                            == .bool(engine.revision2Layout(of: state).displayModeButton.visible))
                }
            }
        }
    }
}
