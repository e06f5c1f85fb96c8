import PropertyBased
import Testing
@testable import SplitCore

/// SEMANTICS 5, user actions: button, gesture, tap on dimmed, showColumn/hideColumn, expiry.
@Suite struct DisplayActionTests {
    let landscape = Fixture.landscape  // 1366x1024
    let portrait = Fixture.portrait  // 1024x1366

    /// The modes shown after pressing `action` repeatedly from the initial resolution.
    func sequence(
        _ action: DisplayAction, _ size: Size, times: Int = 4,
        _ build: (inout SplitConfig) -> Void = { _ in }
    ) throws -> [DisplayMode] {
        let config = Fixture.config(build)
        var memory = DisplayMemory()
        var modes = [DisplayResolver.resolve(config: config, size: size, memory: memory).displayMode]
        for _ in 0..<times {
            memory = try DisplayResolver.apply(action, config: config, size: size, memory: memory)
            modes.append(DisplayResolver.resolve(config: config, size: size, memory: memory).displayMode)
        }
        return modes
    }

    func after(
        _ action: DisplayAction, _ size: Size, user: DisplayMode? = nil,
        _ build: (inout SplitConfig) -> Void = { _ in }
    ) throws -> DisplayMemory {
        try DisplayResolver.apply(
            action, config: Fixture.config(build), size: size, memory: DisplayMemory(userDisplayMode: user))
    }

    @Test func buttonCycles() throws {
        // tile + two columns: secondaryOnly <-> oneBeside (classic: targetDisplayModeForAction).
        for style in [SplitStyle.classic, .doubleColumn] {
            #expect(
                try sequence(.displayModeButton, landscape) { $0.style = style }
                    == [.oneBesideSecondary, .secondaryOnly, .oneBesideSecondary, .secondaryOnly, .oneBesideSecondary])
        }
        // tile + triple: oneBeside <-> twoBeside.
        #expect(
            try sequence(.displayModeButton, landscape) {
                $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
            }
                == [
                    .oneBesideSecondary, .twoBesideSecondary, .oneBesideSecondary, .twoBesideSecondary,
                    .oneBesideSecondary,
                ])
        // overlay: secondaryOnly -> oneOver -> twoOver (triple) -> secondaryOnly.
        #expect(
            try sequence(.displayModeButton, portrait) { $0.style = .tripleColumn }
                == [.secondaryOnly, .oneOverSecondary, .twoOverSecondary, .secondaryOnly, .oneOverSecondary])
        #expect(
            try sequence(.displayModeButton, portrait) { $0.style = .doubleColumn }
                == [.secondaryOnly, .oneOverSecondary, .secondaryOnly, .oneOverSecondary, .secondaryOnly])
        // displace: oneBeside -> twoDisplace and back.
        #expect(
            try sequence(.displayModeButton, landscape) { $0.style = .tripleColumn }
                == [
                    .oneBesideSecondary, .twoDisplaceSecondary, .oneBesideSecondary, .twoDisplaceSecondary,
                    .oneBesideSecondary,
                ])
    }

    @Test func buttonSetsTheUserMode() throws {
        let memory = try after(.displayModeButton, landscape)
        #expect(memory == DisplayMemory(userDisplayMode: .secondaryOnly))
        var traits = DisplayMemory(lastTraits: .regularRegular)
        traits = try DisplayResolver.apply(.displayModeButton, config: SplitConfig(), size: landscape, memory: traits)
        #expect(traits == DisplayMemory(userDisplayMode: .secondaryOnly, lastTraits: .regularRegular))
    }

    /// showsSecondaryOnlyButton (triple) toggles to and from secondaryOnly.
    @Test func secondaryOnlyButton() throws {
        #expect(
            try sequence(.displayModeButton, landscape) {
                $0.style = .tripleColumn; $0.showsSecondaryOnlyButton = true
            }
                == [.oneBesideSecondary, .secondaryOnly, .oneBesideSecondary, .secondaryOnly, .oneBesideSecondary])
        #expect(
            try sequence(.displayModeButton, landscape, user: .twoDisplaceSecondary) {
                $0.style = .tripleColumn; $0.showsSecondaryOnlyButton = true
            }
                == [.twoDisplaceSecondary, .secondaryOnly, .oneBesideSecondary])
        // From an automatic secondaryOnly, it shows one sidebar.
        #expect(
            try sequence(.displayModeButton, portrait) {
                $0.style = .tripleColumn; $0.showsSecondaryOnlyButton = true
            }
                == [.secondaryOnly, .oneOverSecondary, .secondaryOnly, .oneOverSecondary, .secondaryOnly])
        // Two-column styles ignore the flag.
        #expect(
            try sequence(.displayModeButton, portrait, times: 2) {
                $0.style = .doubleColumn; $0.showsSecondaryOnlyButton = true
            }
                == [.secondaryOnly, .oneOverSecondary, .secondaryOnly])
    }

    func sequence(
        _ action: DisplayAction, _ size: Size, user: DisplayMode, _ build: (inout SplitConfig) -> Void
    ) throws -> [DisplayMode] {
        let config = Fixture.config(build)
        var memory = DisplayMemory(userDisplayMode: user)
        var modes = [DisplayResolver.resolve(config: config, size: size, memory: memory).displayMode]
        for _ in 0..<2 {
            memory = try DisplayResolver.apply(action, config: config, size: size, memory: memory)
            modes.append(DisplayResolver.resolve(config: config, size: size, memory: memory).displayMode)
        }
        return modes
    }

    /// A step that does not fit is skipped; when no step changes anything the press is ignored.
    @Test func buttonSkipsStepsThatDoNotFit() throws {
        let narrow = Size(width: 900, height: 600)  // one 320 sidebar fits, two do not
        let memory = DisplayMemory()
        let tile = Fixture.config {
            $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
        }
        #expect(try DisplayResolver.apply(.displayModeButton, config: tile, size: narrow, memory: memory) == memory)
        // Overlay skips nothing: its sidebars need no room, even 640 of them in 500.
        let small = Size(width: 500, height: 600)
        #expect(
            try sequence(.displayModeButton, small) { $0.style = .tripleColumn }
                == [.secondaryOnly, .oneOverSecondary, .twoOverSecondary, .secondaryOnly, .oneOverSecondary])
    }

    @Test func gesture() throws {
        for size in [landscape, portrait] {
            for style in SplitStyle.allCases {
                #expect(
                    try sequence(.gesture, size) { $0.style = style }
                        == sequence(.displayModeButton, size) { $0.style = style })
            }
        }
        let ignored = try after(.gesture, landscape, user: .oneBesideSecondary) { $0.presentsWithGesture = false }
        #expect(ignored == DisplayMemory(userDisplayMode: .oneBesideSecondary))
        #expect(try after(.gesture, portrait) { $0.presentsWithGesture = false } == DisplayMemory())
        // The button still works without the gesture.
        #expect(
            try after(.displayModeButton, portrait) { $0.presentsWithGesture = false }
                == DisplayMemory(userDisplayMode: .oneOverSecondary))
    }

    @Test func tapDimmed() throws {
        #expect(try after(.tapDimmed, portrait, user: .oneOverSecondary).userDisplayMode == .secondaryOnly)
        #expect(
            try after(.tapDimmed, portrait, user: .twoOverSecondary) { $0.style = .tripleColumn }.userDisplayMode
                == .secondaryOnly)
        #expect(
            try after(.tapDimmed, landscape, user: .twoDisplaceSecondary) { $0.style = .tripleColumn }.userDisplayMode
                == .oneBesideSecondary)
        // Nothing dimmed: ignored.
        #expect(try after(.tapDimmed, portrait) == DisplayMemory())
        #expect(try after(.tapDimmed, landscape) == DisplayMemory())
        #expect(try after(.tapDimmed, landscape) { $0.style = .tripleColumn } == DisplayMemory())
        #expect(
            try after(.tapDimmed, landscape, user: .twoBesideSecondary) {
                $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
            }
                == DisplayMemory(userDisplayMode: .twoBesideSecondary))
    }

    @Test func showColumn() throws {
        func shown(
            _ column: Column, _ size: Size, user: DisplayMode? = nil, _ build: (inout SplitConfig) -> Void
        ) throws -> DisplayMode? {
            try after(.showColumn(column), size, user: user, build).userDisplayMode
        }
        // Two columns: the primary appears beside (tile) or over (overlay) the secondary.
        #expect(try shown(.primary, portrait) { $0.style = .doubleColumn } == .oneOverSecondary)
        #expect(
            try shown(.primary, landscape, user: .secondaryOnly) { $0.style = .doubleColumn } == .oneBesideSecondary)
        // Triple: the primary needs both sidebars; the supplementary one.
        #expect(try shown(.primary, portrait) { $0.style = .tripleColumn } == .twoOverSecondary)
        #expect(try shown(.supplementary, portrait) { $0.style = .tripleColumn } == .oneOverSecondary)
        #expect(try shown(.primary, landscape) { $0.style = .tripleColumn } == .twoDisplaceSecondary)
        #expect(
            try shown(.primary, landscape) {
                $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
            } == .twoBesideSecondary)
        #expect(
            try shown(.supplementary, landscape, user: .secondaryOnly) { $0.style = .tripleColumn }
                == .oneBesideSecondary)
        // Already visible, or the secondary: ignored.
        #expect(try shown(.primary, landscape) { $0.style = .doubleColumn } == nil)
        #expect(try shown(.supplementary, landscape) { $0.style = .tripleColumn } == nil)
        #expect(try shown(.secondary, portrait) { $0.style = .tripleColumn } == nil)
        // Classic accepts it like doubleColumn (ours).
        #expect(try shown(.primary, portrait) { $0.style = .classic } == .oneOverSecondary)
        // Not enough room for the target mode: ignored.
        #expect(try shown(.primary, Size(width: 900, height: 600)) { $0.style = .tripleColumn } == nil)
        // Also from secondaryOnly, where the target (twoBeside) degrades to oneBeside, which
        // would show the supplementary instead of the primary: ignored, not half done.
        let narrowTile: (inout SplitConfig) -> Void = {
            $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
        }
        #expect(
            try after(.showColumn(.primary), Size(width: 900, height: 600), user: .secondaryOnly, narrowTile)
                == DisplayMemory(userDisplayMode: .secondaryOnly))
        #expect(
            try shown(.supplementary, Size(width: 900, height: 600), user: .secondaryOnly, narrowTile)
                == .oneBesideSecondary)
        // Overlay needs no room: the primary comes over a 500-pt window with the supplementary.
        #expect(try shown(.primary, Size(width: 500, height: 900)) { $0.style = .tripleColumn } == .twoOverSecondary)
    }

    @Test func hideColumn() throws {
        func hidden(
            _ column: Column, _ size: Size, user: DisplayMode? = nil, _ build: (inout SplitConfig) -> Void
        ) throws -> DisplayMode? {
            try after(.hideColumn(column), size, user: user, build).userDisplayMode
        }
        #expect(try hidden(.primary, landscape) { $0.style = .doubleColumn } == .secondaryOnly)
        #expect(try hidden(.primary, portrait, user: .oneOverSecondary) { $0.style = .doubleColumn } == .secondaryOnly)
        // Triple: hiding the primary keeps the supplementary; hiding the supplementary hides both.
        #expect(
            try hidden(.primary, landscape, user: .twoDisplaceSecondary) { $0.style = .tripleColumn }
                == .oneBesideSecondary)
        #expect(
            try hidden(.primary, portrait, user: .twoOverSecondary) { $0.style = .tripleColumn } == .oneOverSecondary)
        #expect(try hidden(.supplementary, landscape) { $0.style = .tripleColumn } == .secondaryOnly)
        #expect(
            try hidden(.supplementary, portrait, user: .twoOverSecondary) { $0.style = .tripleColumn } == .secondaryOnly
        )
        // Already hidden: ignored. The secondary (revision 2): refused.
        #expect(try hidden(.primary, portrait) { $0.style = .doubleColumn } == nil)
        #expect(try hidden(.primary, landscape) { $0.style = .tripleColumn } == nil)
        #expect(Fixture.code { _ = try hidden(.secondary, landscape) { $0.style = .doubleColumn } } == .invalidIntent)
    }

    @Test func invalidColumns() {
        for action in [DisplayAction.showColumn(.compact), .hideColumn(.compact)] {
            #expect(Fixture.code { _ = try after(action, landscape) { $0.style = .tripleColumn } } == .invalidIntent)
        }
        for style in [SplitStyle.classic, .doubleColumn] {
            #expect(
                Fixture.code { _ = try after(.showColumn(.supplementary), landscape) { $0.style = style } }
                    == .invalidIntent)
            #expect(
                Fixture.code { _ = try after(.hideColumn(.supplementary), landscape) { $0.style = style } }
                    == .invalidIntent)
        }
    }

    /// A user mode holds until orientation or a size class changes.
    @Test func expiry() {
        let chosen = DisplayMemory(userDisplayMode: .secondaryOnly, lastTraits: .regularRegular)
        let kept = DisplayResolver.expire(
            chosen, from: landscape, to: Size(width: 1200, height: 1000),
            oldTraits: .regularRegular, newTraits: .regularRegular)
        #expect(kept == chosen)
        let rotated = DisplayResolver.expire(
            chosen, from: landscape, to: portrait, oldTraits: .regularRegular, newTraits: .regularRegular)
        #expect(rotated.userDisplayMode == nil)
        #expect(rotated.lastTraits == .regularRegular)
        let vertical = DisplayResolver.expire(
            chosen, from: Size(width: 900, height: 500), to: Size(width: 900, height: 400),
            oldTraits: .regularRegular, newTraits: .regularCompact)
        #expect(vertical.userDisplayMode == nil)
        let horizontal = DisplayResolver.expire(
            chosen, from: landscape, to: Size(width: 1000, height: 800),
            oldTraits: .regularRegular, newTraits: .compactRegular)
        #expect(horizontal.userDisplayMode == nil)
    }

    /// Through the engine: a user mode outlives a resize that keeps the orientation and the
    /// size classes, and expires on a rotation or a size-class change (then automatic applies).
    @Test func userModeOutlivesOnlyASameClassResize() throws {
        let s = try makeScene { $0.roots = ColumnRoots(primary: "list", secondary: "detail") }
        let hidden = try run([.displayModeButton], on: s)
        #expect(hidden.layout.displayMode == .secondaryOnly)
        let smaller = try resized(hidden, Size(width: 1200, height: 1000))  // still landscape, still regular
        #expect(smaller.state.traits == hidden.traits)
        #expect(smaller.layout.displayMode == .secondaryOnly)
        #expect(smaller.state.display.userDisplayMode == .secondaryOnly)
        let rotated = try resized(smaller.state, Size(width: 1000, height: 1200))
        #expect(rotated.state.display.userDisplayMode == nil)
        #expect(rotated.layout.displayMode == .secondaryOnly)  // portrait's automatic mode
        let back = try resized(rotated.state, padLandscape)
        #expect(back.layout.displayMode == .oneBesideSecondary)
        // Same orientation, new size class (a landscape-shaped pad window under 640 pt): expired too.
        let compact = try resized(hidden, Size(width: 600, height: 500))
        #expect(compact.state.traits.horizontalSizeClass == .compact && compact.state.display.userDisplayMode == nil)
    }

    /// Any action on any scene answers a memory whose resolution is a mode the behavior
    /// allows; an answer that differs from the input changes the displayed mode.
    @Test func actionsChangeTheDisplayOrNothing() async throws {
        let actions: [DisplayAction] = [
            .displayModeButton, .gesture, .tapDimmed, .showColumn(.primary), .hideColumn(.primary),
            .showColumn(.supplementary), .hideColumn(.supplementary), .showColumn(.secondary),
        ]
        await propertyCheck(
            count: 500, input: FrameProperties.configs, Gen.element(of: actions),
            Gen.double(in: 300...2000), Gen.double(in: 300...2000)
        ) { config, action, w, h in
            guard let action else { return }
            let size = Size(width: w, height: h)
            let before = DisplayResolver.resolve(config: config, size: size, memory: DisplayMemory())
            guard let memory = try? DisplayResolver.apply(action, config: config, size: size, memory: DisplayMemory())
            else {
                #expect(config.style != .tripleColumn)  // only a missing supplementary is refused here
                return
            }
            let now = DisplayResolver.resolve(config: config, size: size, memory: memory)
            #expect((memory == DisplayMemory()) == (now.displayMode == before.displayMode))
            #expect(memory.userDisplayMode == nil || memory.userDisplayMode == now.displayMode)
            FrameProperties.check(now, config: config, size: size)
        }
    }
}
