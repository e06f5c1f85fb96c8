import PropertyBased
import Testing
@testable import SplitCore

/// SEMANTICS 5: split behavior, display mode, widths and the not-enough-room rule.
@Suite struct DisplayModeTests {
    let landscape = Fixture.landscape  // 1366x1024
    let portrait = Fixture.portrait  // 1024x1366

    func resolved(
        _ size: Size, user: DisplayMode? = nil, _ build: (inout SplitConfig) -> Void = { _ in }
    )
        -> (SplitBehavior, DisplayMode)
    {
        let r = Fixture.resolve(Fixture.config(build), size, user: user)
        return (r.splitBehavior, r.displayMode)
    }

    /// Automatic behavior: landscape tile (classic, double) or displace (triple); portrait overlay.
    /// Automatic mode: landscape oneBesideSecondary, portrait secondaryOnly.
    @Test func automaticBehaviorAndMode() {
        #expect(resolved(landscape) { $0.style = .classic } == (.tile, .oneBesideSecondary))
        #expect(resolved(landscape) { $0.style = .doubleColumn } == (.tile, .oneBesideSecondary))
        #expect(resolved(landscape) { $0.style = .tripleColumn } == (.displace, .oneBesideSecondary))
        for style in SplitStyle.allCases {
            #expect(resolved(portrait) { $0.style = style } == (.overlay, .secondaryOnly), "\(style)")
        }
        // The window's shape decides: a 678x1024 half split is portrait-shaped.
        #expect(resolved(Size(width: 678, height: 1024)) == (.overlay, .secondaryOnly))
        #expect(resolved(Size(width: 700, height: 700)) == (.overlay, .secondaryOnly))
    }

    /// An explicit preferred mode picks the behavior that allows it, in both orientations.
    @Test func preferredModeChoosesTheBehavior() {
        let triple: [(DisplayMode, SplitBehavior)] = [
            (.oneBesideSecondary, .tile), (.twoBesideSecondary, .tile), (.oneOverSecondary, .overlay),
            (.twoOverSecondary, .overlay), (.twoDisplaceSecondary, .displace),
        ]
        for size in [landscape, portrait] {
            for (mode, behavior) in triple {
                #expect(
                    resolved(size) {
                        $0.style = .tripleColumn; $0.preferredDisplayMode = mode
                    } == (behavior, mode), "\(mode) \(size)")
            }
        }
        // secondaryOnly: behavior as for automatic.
        #expect(
            resolved(landscape) {
                $0.style = .tripleColumn; $0.preferredDisplayMode = .secondaryOnly
            } == (.displace, .secondaryOnly))
        #expect(resolved(landscape) { $0.preferredDisplayMode = .secondaryOnly } == (.tile, .secondaryOnly))
        #expect(resolved(portrait) { $0.preferredDisplayMode = .secondaryOnly } == (.overlay, .secondaryOnly))
    }

    /// Why UIKit's allVisible shows both columns in portrait.
    @Test func allVisibleInPortrait() {
        let (behavior, mode) = resolved(portrait) { $0.preferredDisplayMode = DisplayMode(wireName: "allVisible")! }
        #expect(behavior == .tile)
        #expect(mode == .oneBesideSecondary)
    }

    /// `two*` modes exist only for tripleColumn; two-column styles read them as `one*`.
    @Test func twoModesInTwoColumnStyles() {
        for style in [SplitStyle.classic, .doubleColumn] {
            #expect(
                resolved(landscape) {
                    $0.style = style; $0.preferredDisplayMode = .twoBesideSecondary
                } == (.tile, .oneBesideSecondary))
            #expect(
                resolved(landscape) {
                    $0.style = style; $0.preferredDisplayMode = .twoOverSecondary
                } == (.overlay, .oneOverSecondary))
            #expect(
                resolved(portrait) {
                    $0.style = style; $0.preferredDisplayMode = .twoDisplaceSecondary
                } == (.displace, .oneBesideSecondary))
        }
    }

    /// An explicit behavior wins and the preferred mode is read under it.
    @Test func explicitBehaviorInterpretsThePreferredMode() {
        func mode(
            _ behavior: SplitBehavior, _ preferred: DisplayMode, _ style: SplitStyle = .tripleColumn
        ) -> (SplitBehavior, DisplayMode) {
            resolved(landscape) {
                $0.style = style; $0.preferredSplitBehavior = behavior; $0.preferredDisplayMode = preferred
            }
        }
        #expect(mode(.overlay, .twoBesideSecondary) == (.overlay, .twoOverSecondary))
        #expect(mode(.displace, .twoBesideSecondary) == (.displace, .twoDisplaceSecondary))
        #expect(mode(.tile, .twoOverSecondary) == (.tile, .twoBesideSecondary))
        #expect(mode(.tile, .twoDisplaceSecondary) == (.tile, .twoBesideSecondary))
        #expect(mode(.overlay, .oneBesideSecondary) == (.overlay, .oneOverSecondary))
        #expect(mode(.tile, .oneOverSecondary) == (.tile, .oneBesideSecondary))
        #expect(mode(.displace, .oneOverSecondary) == (.displace, .oneBesideSecondary))
        #expect(mode(.overlay, .twoDisplaceSecondary, .doubleColumn) == (.overlay, .oneOverSecondary))
        // Automatic mode under an explicit behavior: landscape's oneBeside becomes oneOver.
        #expect(mode(.overlay, .automatic) == (.overlay, .oneOverSecondary))
        #expect(resolved(portrait) { $0.preferredSplitBehavior = .tile } == (.tile, .secondaryOnly))
    }

    @Test func allowedModesPerBehavior() {
        #expect(
            DisplayResolver.allowedModes(behavior: .tile, style: .tripleColumn) == [
                .secondaryOnly, .oneBesideSecondary, .twoBesideSecondary,
            ])
        #expect(
            DisplayResolver.allowedModes(behavior: .overlay, style: .tripleColumn) == [
                .secondaryOnly, .oneOverSecondary, .twoOverSecondary,
            ])
        #expect(
            DisplayResolver.allowedModes(behavior: .displace, style: .tripleColumn) == [
                .secondaryOnly, .oneBesideSecondary, .twoDisplaceSecondary,
            ])
        #expect(
            DisplayResolver.allowedModes(behavior: .tile, style: .doubleColumn) == [
                .secondaryOnly, .oneBesideSecondary,
            ])
        #expect(
            DisplayResolver.allowedModes(behavior: .overlay, style: .classic) == [.secondaryOnly, .oneOverSecondary])
        #expect(
            DisplayResolver.allowedModes(behavior: .displace, style: .doubleColumn) == [
                .secondaryOnly, .oneBesideSecondary,
            ])
    }

    /// presentsWithGesture false: the preferred mode is kept even when the explicit behavior
    /// does not allow it (the behavior follows the mode instead).
    @Test func presentsWithGestureFalseIsStrict() {
        #expect(
            resolved(landscape) {
                $0.preferredSplitBehavior = .tile; $0.preferredDisplayMode = .oneOverSecondary
            } == (.tile, .oneBesideSecondary))
        #expect(
            resolved(landscape) {
                $0.preferredSplitBehavior = .tile; $0.preferredDisplayMode = .oneOverSecondary;
                $0.presentsWithGesture = false
            } == (.overlay, .oneOverSecondary))
        #expect(
            resolved(landscape) {
                $0.style = .tripleColumn; $0.preferredSplitBehavior = .overlay;
                $0.preferredDisplayMode = .twoDisplaceSecondary
                $0.presentsWithGesture = false
            } == (.displace, .twoDisplaceSecondary))
        // Allowed by the behavior: nothing changes.
        #expect(
            resolved(landscape) {
                $0.preferredSplitBehavior = .overlay; $0.preferredDisplayMode = .secondaryOnly;
                $0.presentsWithGesture = false
            } == (.overlay, .secondaryOnly))
        // Automatic preferred mode: not strict.
        #expect(resolved(portrait) { $0.presentsWithGesture = false } == (.overlay, .secondaryOnly))
    }

    /// Tiled or displacing sidebars leave the secondary at least 320: two -> one -> none.
    @Test func notEnoughRoomDegrades() {
        func mode(
            _ width: Double, _ preferred: DisplayMode, _ build: (inout SplitConfig) -> Void = { _ in }
        ) -> DisplayMode {
            resolved(Size(width: width, height: 600)) {
                $0.style = .tripleColumn; $0.preferredDisplayMode = preferred; build(&$0)
            }.1
        }
        // 320 + 320 sidebars: two fit from 960, one from 640.
        #expect(mode(960, .twoBesideSecondary) == .twoBesideSecondary)
        #expect(mode(959, .twoBesideSecondary) == .oneBesideSecondary)
        #expect(mode(640, .twoBesideSecondary) == .oneBesideSecondary)
        #expect(mode(639, .twoBesideSecondary) == .secondaryOnly)
        #expect(mode(959, .twoDisplaceSecondary) == .oneBesideSecondary)
        #expect(mode(960, .twoDisplaceSecondary) == .twoDisplaceSecondary)
        #expect(mode(639, .oneBesideSecondary) == .secondaryOnly)
        // One sidebar is the supplementary in tripleColumn: its width counts.
        #expect(
            mode(700, .oneBesideSecondary) {
                $0.maximumSupplementaryColumnWidth = 400; $0.preferredSupplementaryColumnWidth = 400
            } == .secondaryOnly)
        #expect(
            mode(720, .oneBesideSecondary) {
                $0.maximumSupplementaryColumnWidth = 400; $0.preferredSupplementaryColumnWidth = 400
            } == .oneBesideSecondary)
        // Overlaid sidebars take no room from the secondary: never degraded, even when the
        // 640 of sidebars reach past a 500-pt window (SEMANTICS 5: tiled or displacing only).
        #expect(mode(500, .twoOverSecondary) == .twoOverSecondary)
        #expect(mode(300, .oneOverSecondary) == .oneOverSecondary)
        #expect(mode(640, .twoOverSecondary) == .twoOverSecondary)
        // Two-column styles: the primary.
        #expect(
            resolved(Size(width: 639, height: 600)) { $0.preferredDisplayMode = .oneBesideSecondary }.1
                == .secondaryOnly)
        #expect(
            resolved(Size(width: 640, height: 600)) { $0.preferredDisplayMode = .oneBesideSecondary }.1
                == .oneBesideSecondary)
        // Automatic landscape mode degrades too.
        #expect(resolved(Size(width: 600, height: 500)) == (.tile, .secondaryOnly))
    }

    /// A user mode overrides automatic resolution when the behavior allows it.
    @Test func userModeOverrides() {
        #expect(resolved(landscape, user: .secondaryOnly) == (.tile, .secondaryOnly))
        #expect(
            resolved(landscape, user: .twoDisplaceSecondary) { $0.style = .tripleColumn } == (
                .displace, .twoDisplaceSecondary
            ))
        #expect(resolved(portrait, user: .oneOverSecondary) == (.overlay, .oneOverSecondary))
        // Not allowed by the behavior: ignored.
        #expect(resolved(portrait, user: .oneBesideSecondary) == (.overlay, .secondaryOnly))
        #expect(
            resolved(landscape, user: .twoBesideSecondary) { $0.style = .doubleColumn } == (.tile, .oneBesideSecondary))
        // It beats an explicit preferred mode, but still has to fit.
        #expect(
            resolved(landscape, user: .secondaryOnly) { $0.preferredDisplayMode = .oneBesideSecondary } == (
                .tile, .secondaryOnly
            ))
        #expect(
            resolved(Size(width: 900, height: 600), user: .twoBesideSecondary) {
                $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
            }
                == (.tile, .oneBesideSecondary))
    }

    /// Widths: preferred, else fraction x window, else 320; clamped to [min, max].
    @Test func columnWidths() {
        func primary(_ build: (inout SplitConfig) -> Void) -> Double? {
            Fixture.resolve(Fixture.config(build), landscape).frame(.primary)?.width
        }
        #expect(primary { _ in } == 320)
        #expect(primary { $0.preferredPrimaryColumnWidth = 250 } == 250)
        #expect(primary { $0.preferredPrimaryColumnWidth = 500 } == 320)
        #expect(
            primary {
                $0.preferredPrimaryColumnWidth = 500; $0.maximumPrimaryColumnWidth = 600
            } == 500)
        #expect(
            primary {
                $0.preferredPrimaryColumnWidth = 100; $0.minimumPrimaryColumnWidth = 200
            } == 200)
        #expect(primary { $0.preferredPrimaryColumnWidthFraction = 0.2 } == 0.2 * 1366)
        #expect(primary { $0.preferredPrimaryColumnWidthFraction = 0.5 } == 320)
        #expect(
            primary {
                $0.preferredPrimaryColumnWidthFraction = 0.5; $0.maximumPrimaryColumnWidth = 1000
            } == 683)
        // The width wins over the fraction.
        #expect(
            primary {
                $0.preferredPrimaryColumnWidth = 260; $0.preferredPrimaryColumnWidthFraction = 0.1
            } == 260)
        #expect(
            primary {
                $0.minimumPrimaryColumnWidth = 330; $0.maximumPrimaryColumnWidth = 400
            } == 330)
        let supplementary = Fixture.resolve(
            Fixture.config {
                $0.style = .tripleColumn; $0.preferredSupplementaryColumnWidthFraction = 0.1;
                $0.minimumSupplementaryColumnWidth = 150
            }, landscape
        ).frame(.supplementary)?.width
        #expect(supplementary == 150)
    }

    /// For any size, style and configuration: never automatic, and an allowed mode.
    @Test func modeIsNeverAutomatic() async {
        await propertyCheck(
            count: 500, input: FrameProperties.configs, Gen.double(in: 50...3000), Gen.double(in: 50...3000)
        ) { config, w, h in
            let r = Fixture.resolve(config, Size(width: w, height: h))
            #expect(r.displayMode != .automatic)
            #expect(r.splitBehavior != .automatic)
            #expect(
                DisplayResolver.allowedModes(behavior: r.splitBehavior, style: config.style).contains(r.displayMode))
            #expect(r.frames.map(\.column) == config.style.columns)
        }
    }
}
