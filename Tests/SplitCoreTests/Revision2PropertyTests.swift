import PropertyBased
import Testing
@testable import SplitCore

/// SEMANTICS revision 2 rules over random histories: column identity while collapsed, the
/// display-mode button, presentation adaptation, isolation of the app-switcher session.
@Suite struct Revision2PropertyTests {
    static let seeds = Gen.int(in: 0...Int(Int32.max))
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 1...25)

    /// A collapsed column-style scene with at least one column the collapsed stack does not
    /// show (topColumnForCollapsing below the top, or a compact column).
    static func collapsedWithHiddenColumns(_ dice: inout Dice) throws -> SceneState {
        let style = dice.pick([SplitStyle.doubleColumn, .tripleColumn])
        let s = try makeScene(size: padLandscape) {
            $0.style = style
            $0.roots = ColumnRoots(
                primary: "p", supplementary: "m", secondary: "s", compact: dice.chance(30) ? "c" : nil)
            $0.topColumnForCollapsing = style == .tripleColumn ? dice.pick([.primary, .supplementary]) : .primary
            $0.collapsePolicy = dice.pick(CollapsePolicy.allCases)
            $0.expandPolicy = dice.pick(ExpandPolicy.allCases)
        }
        return try resized(s, padThird).state
    }

    @Test func intentsNamingAHiddenColumnLandInItAndChangeNothingVisible() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            var dice = Dice(seed)
            var state = try Self.collapsedWithHiddenColumns(&dice)
            let navigator = Navigator(config: state.config, limits: engine.limits)
            let hidden = state.config.style.columns.filter { navigator.isHiddenWhileCollapsed($0, state.navigation) }
            #expect(!hidden.isEmpty)
            var model = Dictionary(uniqueKeysWithValues: hidden.map { ($0, state.navigation.stack($0)) })
            let visible = state.layout.columns
            for step in steps {
                var d = Dice(step)
                let column = d.pick(hidden)
                let vc = d.pick(RandomScene.ids)
                let intent = d.pick([
                    Intent.push(column: column, vc: vc), .show(vc: vc, column: column),
                    .pop(column: column), .popToRoot(column: column),
                ])
                let before = state
                do {
                    let t = try engine.apply(.intent(intent), to: state)
                    state = t.state
                    // Nothing visible: the collapsed stack, and no appear/disappear.
                    #expect(t.layout.columns == visible, "\(intent)")
                    #expect(!t.events.contains { $0.isAppear || $0.isDisappear }, "\(intent)")
                    switch intent {
                    case .push, .show: model[column]!.append(vc)
                    case .pop: model[column]!.removeLast()
                    case .popToRoot: model[column] = Array(model[column]!.prefix(1))
                    default: break
                    }
                } catch let error as CoreError {
                    // Only a pop at the column's root is refused, and it changes nothing.
                    #expect(error.code == .invalidIntent)
                    #expect(intent == .pop(column: column) && model[column]!.count <= 1, "\(intent)")
                    #expect(state == before)
                }
            }
            let expanded = try resized(state, padLandscape).state
            for column in hidden {
                #expect(expanded.navigation.stack(column) == model[column], "\(column)")
                #expect(expanded.visibleStack(column) == model[column], "\(column)")
            }
        }
    }

    @Test func columnsTheCollapsedStackShowsBehaveAsInRevisionOne() throws {
        // Default topColumnForCollapsing (secondary): every column is on the stack; a push
        // naming the primary goes onto the visible stack.
        let s = try resized(
            try makeScene {
                $0.style = .doubleColumn; $0.roots = ColumnRoots(primary: "p", secondary: "s")
            }, padThird
        ).state
        let pushed = try run([.push(column: .primary, vc: "x")], on: s)
        #expect(pushed.collapsedStack == ["p", "s", "x"])
        // With topColumnForCollapsing primary, the secondary is hidden: the push is invisible
        // and shows on expand.
        let top = try resized(
            try makeScene {
                $0.style = .doubleColumn; $0.roots = ColumnRoots(primary: "p", secondary: "s");
                $0.topColumnForCollapsing = .primary
            }, padThird
        ).state
        #expect(top.collapsedStack == ["p"])
        let hidden = try engine.apply(.intent(.push(column: .secondary, vc: "x")), to: top)
        #expect(hidden.changed && hidden.events.isEmpty && hidden.state.collapsedStack == ["p"])
        #expect(try resized(hidden.state, padLandscape).state.visibleStack(.secondary) == ["s", "x"])
        #expect(errorCode { _ = try engine.apply(.intent(.pop(column: .secondary)), to: top) } == .invalidIntent)
        // showColumn brings it onto the stack; from then on it is a shown column.
        let shown = try run([.showColumn(.secondary), .push(column: .secondary, vc: "y")], on: hidden.state)
        #expect(shown.collapsedStack == ["p", "s", "x", "y"])
    }

    /// The button never offers a target while hidden, and a visible button's target is what
    /// a tap shows.
    @Test func buttonNeverOffersAHiddenTarget() async {
        await propertyCheck(count: 150, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            for step in steps {
                var dice = Dice(step)
                if case let .success(t) = transitionOutcome({ () throws(CoreError) in
                    try engine.apply(RandomScene.change(state, &dice), to: state)
                }) {
                    state = t.state
                }
                let button = engine.revision2Layout(of: state).displayModeButton
                #expect(
                    button.visible == DisplayResolver.isButtonVisible(config: state.config, collapsed: state.collapsed))
                #expect((button.target == nil) == !button.visible)
                if state.collapsed { #expect(!button.visible) }
                let tap = transitionOutcome { () throws(CoreError) in
                    try engine.apply(.intent(.displayModeButton), to: state)
                }
                switch tap {
                case .success(let t):
                    if button.visible { #expect(t.layout.displayMode == button.target) }
                case .failure(let error):
                    #expect(!button.visible && error.code == .invalidIntent)
                }
            }
        }
    }

    /// Every size recomputes adaptation: the effective style is a function of the request
    /// and the traits of the size, whatever the path.
    @Test func adaptationIsAFunctionOfTheCurrentTraits() async {
        await propertyCheck(count: 100, input: Self.seeds, Self.steps) { seed, steps in
            var dice = Dice(seed)
            var state = try makeScene(
                dice.pick(["iphone-14", "iphone-14-plus", "ipad-pro-12.9", "iphone-16-pro-max"]),
                size: Size(width: 375, height: 667))
            let request = PresentationRequest(
                vc: "sheet", style: dice.pick([nil, .pageSheet, .formSheet, .fullScreen]),
                prefersEdgeAttachedInCompactHeight: dice.chance(50))
            state = try engine.apply(.present(request), to: state).state
            for step in steps {
                var d = Dice(step)
                state = try engine.apply(.resize(RandomScene.size(device: state.device, &d)), to: state).state
                let effective = try #require(state.layout.presentations.first?.effectiveStyle)
                let style = request.style ?? .pageSheet
                let expected: PresentationStyle =
                    if style == .fullScreen { .fullScreen } else if state.traits.verticalSizeClass == .compact {
                        request.prefersEdgeAttachedInCompactHeight ? .pageSheet : .fullScreen
                    } else if state.traits.horizontalSizeClass == .compact { .pageSheet } else { style }
                #expect(effective == expected)
            }
        }
    }

    /// SEMANTICS 10: entering background changes the live scene by its activation and
    /// revision only, and emits no event besides the change's own.
    @Test func theAutomaticSessionIsIsolated() async {
        await propertyCheck(count: 100, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            for step in steps {
                var dice = Dice(step)
                if case let .success(t) = transitionOutcome({ () throws(CoreError) in
                    try engine.apply(RandomScene.change(state, &dice), to: state)
                }) {
                    state = t.state
                }
            }
            guard state.activation != .background else { return }
            let t = try engine.apply(.activation(.background, backgroundSession: "auto"), to: state)
            var expected = state
            expected.activationState = .background
            expected.revision = state.revision + 1
            #expect(t.state == expected)
            // The layout differs by its activation only.
            var before = engine.layout(of: state)
            before.revision2?.activation = .background
            #expect(t.layout == before)
            #expect(t.layout == engine.layout(of: expected))
            #expect(t.events.isEmpty)
            #expect(
                t.timeline == [
                    .activationChanged(from: state.activation, to: .background), .snapshotTaken(session: "auto"),
                ])
            let session = try #require(t.backgroundSnapshot)
            #expect(session == (try engine.snapshot(t.state, preset: "appSwitcher")))
        }
    }
}
