import PropertyBased
import Testing
@testable import SplitCore

/// Few allocations per request: the allowed modes are stored arrays, an expanded
/// layout makes its columns straight from the frames, and the ids a collapse or expand moves
/// reuse the secondary's array when they are exactly it. Results must be those of the former
/// code, kept here as the reference.
@Suite struct SharedArraysTests {
    static let seeds = Gen.int(in: 0...Int(Int32.max))
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 1...30)

    /// `allowedModes` as first written: a literal per behavior, cut to two for two-column styles.
    static func referenceAllowedModes(behavior: SplitBehavior, style: SplitStyle) -> [DisplayMode] {
        let modes: [DisplayMode] =
            switch behavior {
            case .tile, .automatic: [.secondaryOnly, .oneBesideSecondary, .twoBesideSecondary]
            case .overlay: [.secondaryOnly, .oneOverSecondary, .twoOverSecondary]
            case .displace: [.secondaryOnly, .oneBesideSecondary, .twoDisplaceSecondary]
            }
        return style == .tripleColumn ? modes : Array(modes.prefix(2))
    }

    /// `LayoutAssembly.layout(of:)` as first written: the resolution's frames mapped to columns.
    static func referenceLayout(of state: SceneState) -> Layout {
        let presentations = state.navigation.presentations.map {
            PresentationLayout(vc: $0.vc, style: $0.style, effectiveStyle: $0.effectiveStyle(in: state.traits))
        }
        let selectedTab = state.navigation.tabs.isEmpty ? nil : state.navigation.selectedTab
        if let collapsed = state.navigation.collapsed {
            let column = ColumnLayout(
                column: .compact, visible: true, x: 0, width: state.size.width,
                stack: collapsed.entries.map(\.vc))
            return Layout(
                size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: true,
                displayMode: nil, splitBehavior: nil, columns: [column],
                presentations: presentations, selectedTab: selectedTab)
        }
        let resolution = DisplayResolver.resolve(config: state.config, size: state.size, memory: state.display)
        let columns = resolution.frames.map { frame in
            ColumnLayout(
                column: frame.column, visible: frame.visible, x: frame.x, width: frame.width,
                overlay: frame.overlay, dimmed: frame.dimmed, stack: state.navigation.stack(frame.column))
        }
        return Layout(
            size: state.size, orientation: state.size.orientation, traits: state.traits, collapsed: false,
            displayMode: resolution.displayMode, splitBehavior: resolution.splitBehavior,
            columns: columns, presentations: presentations, selectedTab: selectedTab)
    }

    /// The moved ids as first written: a filter of the entries.
    static func referenceIds(_ entries: [StackEntry], where included: (EntryOrigin) -> Bool) -> [String] {
        entries.filter { included($0.origin) }.map(\.vc)
    }

    static func sharesStorage(_ a: [String], _ b: [String]) -> Bool {
        a.withUnsafeBufferPointer { $0.baseAddress } == b.withUnsafeBufferPointer { $0.baseAddress }
    }

    @Test func allowedModesAreTheFormerOnes() {
        for style in SplitStyle.allCases {
            for behavior in SplitBehavior.allCases {
                #expect(
                    DisplayResolver.allowedModes(behavior: behavior, style: style)
                        == Self.referenceAllowedModes(behavior: behavior, style: style), "\(behavior) in \(style)")
            }
        }
    }

    /// The frames mirror one by one as they are made; formerly the whole array was mapped
    /// afterwards. Every style, behavior, mode and edge, at widths that fit and that do not.
    @Test func mirroredFramesAreTheUnmirroredOnesMirrored() {
        for style in SplitStyle.allCases {
            for behavior in SplitBehavior.allCases where behavior != .automatic {
                for mode in DisplayMode.allCases where mode != .automatic {
                    for windowWidth in [500.0, 1024, 1366] {
                        var config = Fixture.config {
                            $0.style = style; $0.preferredPrimaryColumnWidth = 300
                        }
                        let widths = ColumnWidths(config: config, windowWidth: windowWidth)
                        let plain = ColumnFrames.frames(
                            config: config, behavior: behavior, mode: mode,
                            widths: widths, windowWidth: windowWidth)
                        for (edge, direction) in [(PrimaryEdge.trailing, LayoutDirection.ltr), (.leading, .rtl)] {
                            config.primaryEdge = edge
                            config.layoutDirection = direction
                            let mirrored = ColumnFrames.frames(
                                config: config, behavior: behavior, mode: mode,
                                widths: widths, windowWidth: windowWidth)
                            let expected = plain.map { frame in
                                var f = frame
                                f.x = windowWidth - frame.x - frame.width
                                return f
                            }
                            #expect(
                                mirrored == expected, "\(style) \(behavior) \(mode) \(windowWidth) \(edge) \(direction)"
                            )
                        }
                        config.primaryEdge = .trailing
                        config.layoutDirection = .rtl
                        #expect(
                            ColumnFrames.frames(
                                config: config, behavior: behavior, mode: mode,
                                widths: widths, windowWidth: windowWidth) == plain)
                    }
                }
            }
        }
    }

    @Test func layoutIsTheFormerAssemblyOverRandomHistories() async {
        await propertyCheck(count: 200, input: Self.seeds, Self.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            // The former assembly knew protocol 1's members only (random scenes configure no
            // inspector, which would take room from the secondary).
            func protocol1(_ layout: Layout) -> Layout {
                var layout = layout
                layout.revision2 = nil
                return layout
            }
            #expect(protocol1(engine.layout(of: state)) == Self.referenceLayout(of: state))
            for step in steps {
                var dice = Dice(step)
                if case let .success(t) = transitionOutcome({ () throws(CoreError) in
                    try engine.apply(RandomScene.change(state, &dice), to: state)
                }) {
                    state = t.state
                    #expect(protocol1(t.layout) == Self.referenceLayout(of: state))
                }
            }
        }
    }

    @Test func idsReuseTheCandidateOnlyWhenTheyAreIt() {
        func entries(_ pairs: [(String, EntryOrigin)]) -> [StackEntry] {
            pairs.map { StackEntry(vc: $0.0, origin: $0.1) }
        }
        let moved: (EntryOrigin) -> Bool = { $0 != .primary }
        let stack = entries([("p", .primary), ("s", .secondary), ("d1", .secondary), ("d2", .pushed)])
        let cases: [(candidate: [String], shared: Bool)] = [
            (["s", "d1", "d2"], true),
            (["s", "d1"], false),  // the candidate is shorter
            (["s", "d1", "d2", "d3"], false),  // the candidate is longer
            (["s", "x", "d2"], false),  // differs in the middle
            (["d1", "s", "d2"], false),  // another order
            ([], false),
        ]
        for (candidate, shared) in cases {
            let ids = Collapse.ids(of: stack, where: moved, reusing: candidate)
            #expect(ids == ["s", "d1", "d2"], "\(candidate)")
            #expect(Self.sharesStorage(ids, candidate) == shared, "\(candidate)")
        }
        let primaryOnly = entries([("p", .primary), ("q", .primary)])
        #expect(Collapse.ids(of: primaryOnly, where: moved, reusing: ["s"]) == [])
        #expect(Collapse.ids(of: primaryOnly, where: moved, reusing: []) == [])
        #expect(Collapse.ids(of: [], where: moved, reusing: ["s"]) == [])
    }

    @Test func idsAreTheFilteredEntriesForRandomStacks() async {
        let origins = EntryOrigin.allCases
        await propertyCheck(count: 300, input: Self.seeds) { seed in
            var dice = Dice(seed)
            let entries = (0..<dice.below(7)).map { _ in
                StackEntry(vc: dice.pick(["a", "b", "c"]), origin: dice.pick(origins))
            }
            let filters: [(EntryOrigin) -> Bool] = [{ $0 != .primary }, { $0 == .supplementary || $0 == .secondary }]
            for included in filters {
                let expected = Self.referenceIds(entries, where: included)
                let candidate =
                    dice.chance(50) ? expected : (0..<dice.below(4)).map { _ in dice.pick(["a", "b", "c"]) }
                #expect(Collapse.ids(of: entries, where: included, reusing: candidate) == expected)
            }
        }
    }

    /// The daemon's resize workload: a classic scene whose secondary moves whole onto the
    /// collapsed stack and back. The moved ids of both transitions are the secondary's array.
    @Test func aClassicResizeMovesTheSecondaryArrayItself() throws {
        let scene = try run(
            [.push(column: .secondary, vc: "d1")],
            on: makeScene { $0.roots = ColumnRoots(primary: "inbox", secondary: "thread") })
        var navigation = scene.navigation
        let collapsedMoved = Collapse.collapse(&navigation, config: scene.config)
        #expect(collapsedMoved == ["thread", "d1"])
        #expect(Self.sharesStorage(collapsedMoved, navigation.secondary))
        let expandedMoved = Expand.expand(&navigation, config: scene.config)
        #expect(expandedMoved == ["thread", "d1"])
        #expect(Self.sharesStorage(expandedMoved, navigation.secondary))
        #expect(navigation == scene.navigation)
    }
}
