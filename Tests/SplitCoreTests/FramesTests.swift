import PropertyBased
import Testing
@testable import SplitCore

/// SEMANTICS 5: column frames for tile / overlay / displace, mirrored for trailing and rtl.
@Suite struct FramesTests {
    let landscape = Fixture.landscape  // 1366x1024

    func frames(_ size: Size, user: DisplayMode? = nil, _ build: (inout SplitConfig) -> Void) -> [ColumnFrame] {
        Fixture.resolve(Fixture.config(build), size, user: user).frames
    }

    func frame(
        _ column: Column, _ visible: Bool, _ x: Double, _ width: Double,
        overlay: Bool = false, dimmed: Bool = false
    ) -> ColumnFrame {
        ColumnFrame(column: column, visible: visible, x: x, width: width, overlay: overlay, dimmed: dimmed)
    }

    /// The WIRE.md example layout.
    @Test func tileTwoColumns() {
        #expect(frames(landscape) { _ in } == [frame(.primary, true, 0, 320), frame(.secondary, true, 320, 1046)])
        #expect(
            frames(landscape, user: .secondaryOnly) { $0.style = .doubleColumn }
                == [frame(.primary, false, 0, 320), frame(.secondary, true, 0, 1366)])
    }

    @Test func tileThreeColumns() {
        let tile = { (c: inout SplitConfig) in
            c.style = .tripleColumn; c.preferredSplitBehavior = .tile; c.preferredSupplementaryColumnWidth = 300
        }
        #expect(
            frames(landscape, user: .twoBesideSecondary, tile)
                == [
                    frame(.primary, true, 0, 320), frame(.supplementary, true, 320, 300),
                    frame(.secondary, true, 620, 746),
                ])
        // one* shows the supplementary in tripleColumn; the hidden primary keeps its width at the leading edge.
        #expect(
            frames(landscape, user: .oneBesideSecondary, tile)
                == [
                    frame(.primary, false, 0, 320), frame(.supplementary, true, 0, 300),
                    frame(.secondary, true, 300, 1066),
                ])
    }

    @Test func overlay() {
        let portrait = Fixture.portrait
        #expect(
            frames(portrait, user: .oneOverSecondary) { _ in }
                == [frame(.primary, true, 0, 320, overlay: true), frame(.secondary, true, 0, 1024, dimmed: true)])
        #expect(frames(portrait) { _ in } == [frame(.primary, false, 0, 320), frame(.secondary, true, 0, 1024)])
        #expect(
            frames(portrait, user: .twoOverSecondary) { $0.style = .tripleColumn }
                == [
                    frame(.primary, true, 0, 320, overlay: true), frame(.supplementary, true, 320, 320, overlay: true),
                    frame(.secondary, true, 0, 1024, dimmed: true),
                ])
        #expect(
            frames(portrait, user: .oneOverSecondary) { $0.style = .tripleColumn }
                == [
                    frame(.primary, false, 0, 320), frame(.supplementary, true, 0, 320, overlay: true),
                    frame(.secondary, true, 0, 1024, dimmed: true),
                ])
    }

    /// The displaced secondary keeps its oneBeside width (1366 - 320) and is pushed off-window.
    @Test func displace() {
        #expect(
            frames(landscape, user: .twoDisplaceSecondary) { $0.style = .tripleColumn }
                == [
                    frame(.primary, true, 0, 320), frame(.supplementary, true, 320, 320),
                    frame(.secondary, true, 640, 1046, dimmed: true),
                ])
        #expect(
            frames(landscape) { $0.style = .tripleColumn }
                == [
                    frame(.primary, false, 0, 320), frame(.supplementary, true, 0, 320),
                    frame(.secondary, true, 320, 1046),
                ])
        #expect(
            frames(landscape, user: .secondaryOnly) { $0.style = .tripleColumn }
                == [
                    frame(.primary, false, 0, 320), frame(.supplementary, false, 0, 320),
                    frame(.secondary, true, 0, 1366),
                ])
        let narrow = frames(landscape, user: .twoDisplaceSecondary) {
            $0.style = .tripleColumn; $0.preferredSupplementaryColumnWidth = 200
        }
        #expect(narrow[2] == frame(.secondary, true, 520, 1166, dimmed: true))
    }

    /// Mirroring: x' = W - x - width when the primary is on the physical right, i.e.
    /// trailing in ltr or leading in rtl; trailing in rtl is the left again.
    @Test(arguments: [
        (PrimaryEdge.leading, LayoutDirection.ltr, false), (.trailing, .ltr, true),
        (.leading, .rtl, true), (.trailing, .rtl, false),
    ])
    func mirroring(edge: PrimaryEdge, direction: LayoutDirection, mirrored: Bool) {
        let cases: [(DisplayMode, (inout SplitConfig) -> Void, Size)] = [
            (.oneBesideSecondary, { $0.style = .doubleColumn }, landscape),
            (
                .twoBesideSecondary,
                {
                    $0.style = .tripleColumn; $0.preferredSplitBehavior = .tile
                }, landscape
            ),
            (.twoOverSecondary, { $0.style = .tripleColumn }, Fixture.portrait),
            (.twoDisplaceSecondary, { $0.style = .tripleColumn }, landscape),
            (.secondaryOnly, { $0.style = .tripleColumn }, landscape),
        ]
        for (mode, style, size) in cases {
            let plain = frames(size, user: mode, style)
            let turned = frames(size, user: mode) {
                style(&$0); $0.primaryEdge = edge; $0.layoutDirection = direction
            }
            let expected =
                mirrored
                ? plain.map { f in
                    var m = f
                    m.x = size.width - f.x - f.width
                    return m
                } : plain
            #expect(turned == expected, "\(mode)")
        }
        // Concretely: a trailing primary sits at the right edge.
        let trailing = frames(landscape) {
            $0.primaryEdge = edge; $0.layoutDirection = direction
        }
        #expect(trailing[0].x == (mirrored ? 1046 : 0))
        #expect(trailing[1].x == (mirrored ? 0 : 320))
    }

    /// For random sizes x every profile x random configurations (SEMANTICS 5 invariants).
    @Test func frameInvariants() async {
        // A zero-width supplementary beside a trailing primary, which a tie in x put after it.
        var zeroWidth = SplitConfig()
        zeroWidth.style = .tripleColumn
        zeroWidth.preferredDisplayMode = .twoOverSecondary
        zeroWidth.preferredSplitBehavior = .tile
        zeroWidth.preferredPrimaryColumnWidthFraction = 0.45299141308926005
        zeroWidth.minimumPrimaryColumnWidth = 118
        zeroWidth.maximumPrimaryColumnWidth = 438
        zeroWidth.preferredSupplementaryColumnWidth = 719.5059408453751
        zeroWidth.minimumSupplementaryColumnWidth = 0
        zeroWidth.maximumSupplementaryColumnWidth = 0
        zeroWidth.primaryEdge = .trailing
        let narrow = Size(width: 1133 * 0.5163282941981273, height: 744 * 0.3)
        FrameProperties.check(Fixture.resolve(zeroWidth, narrow), config: zeroWidth, size: narrow)

        let profiles = Fixture.catalog.profiles
        await propertyCheck(
            count: 1000, input: FrameProperties.configs, Gen.element(of: profiles),
            Gen.double(in: 0...1), Gen.double(in: 0.3...1.5)
        ) { config, profile, scale, shape in
            guard let profile else { return }
            // Sizes around the profile's screen, in both orientations and any split in between.
            let screen = profile.screen(in: .landscape)
            let size = Size(width: max(1, screen.width * scale), height: max(1, screen.height * shape))
            let r = Fixture.resolve(config, size)
            FrameProperties.check(r, config: config, size: size)
        }
    }
}

/// Random configurations and the invariants every resolution satisfies.
enum FrameProperties {
    static let configs = Generator<SplitConfig, Shrink.None<SplitConfig>> { rng in
        var c = SplitConfig()
        c.style = SplitStyle.allCases.randomElement(using: &rng)!
        c.preferredDisplayMode = DisplayMode.allCases.randomElement(using: &rng)!
        c.preferredSplitBehavior = SplitBehavior.allCases.randomElement(using: &rng)!
        c.primaryEdge = PrimaryEdge.allCases.randomElement(using: &rng)!
        c.layoutDirection = LayoutDirection.allCases.randomElement(using: &rng)!
        c.presentsWithGesture = Bool.random(using: &rng)
        c.showsSecondaryOnlyButton = Bool.random(using: &rng)
        func widths(_ rng: inout any SeededRandomNumberGenerator) -> (Double?, Double?, Double, Double) {
            let minimum = Bool.random(using: &rng) ? 0 : Double.random(in: 0...400, using: &rng).rounded()
            // Now and then a maximum below the minimum (the minimum wins).
            let maximum =
                Int.random(in: 0..<8, using: &rng) == 0
                ? Double.random(in: 0...400, using: &rng).rounded()
                : minimum + (Bool.random(using: &rng) ? 320 : Double.random(in: 0...600, using: &rng).rounded())
            let preferred = Bool.random(using: &rng) ? nil : Double.random(in: 0...800, using: &rng)
            let fraction = Bool.random(using: &rng) ? nil : Double.random(in: 0...1, using: &rng)
            return (preferred, fraction, minimum, maximum)
        }
        (
            c.preferredPrimaryColumnWidth, c.preferredPrimaryColumnWidthFraction,
            c.minimumPrimaryColumnWidth, c.maximumPrimaryColumnWidth
        ) = widths(&rng)
        (
            c.preferredSupplementaryColumnWidth, c.preferredSupplementaryColumnWidthFraction,
            c.minimumSupplementaryColumnWidth, c.maximumSupplementaryColumnWidth
        ) = widths(&rng)
        return c
    }

    /// The preliminary width of SEMANTICS 5, recomputed here from the spec.
    static func expectedWidth(_ column: Column, _ c: SplitConfig, windowWidth: Double) -> Double {
        let (preferred, fraction, minimum, maximum) =
            column == .primary
            ? (
                c.preferredPrimaryColumnWidth, c.preferredPrimaryColumnWidthFraction, c.minimumPrimaryColumnWidth,
                c.maximumPrimaryColumnWidth
            )
            : (
                c.preferredSupplementaryColumnWidth, c.preferredSupplementaryColumnWidthFraction,
                c.minimumSupplementaryColumnWidth, c.maximumSupplementaryColumnWidth
            )
        let preliminary = preferred ?? fraction.map { $0 * windowWidth } ?? 320
        // Clamped to [min, max]; a minimum above the maximum wins.
        return max(min(preliminary, maximum), minimum)
    }

    static func check(
        _ r: ExpandedResolution, config: SplitConfig, size: Size,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let w = size.width
        let tolerance = 1e-6 * max(1, w)
        #expect(r.displayMode != .automatic, sourceLocation: sourceLocation)
        #expect(r.splitBehavior != .automatic, sourceLocation: sourceLocation)
        #expect(r.frames.map(\.column) == config.style.columns, sourceLocation: sourceLocation)
        let displaced = r.displayMode == .twoDisplaceSecondary
        for f in r.frames {
            if f.column != .secondary {
                // Sidebars: widths within [min, max], the preliminary width clamped.
                #expect(
                    abs(f.width - expectedWidth(f.column, config, windowWidth: w)) <= tolerance, "\(f.column)",
                    sourceLocation: sourceLocation)
                #expect(!f.dimmed, sourceLocation: sourceLocation)
            }
            guard f.visible else { continue }
            #expect(f.width >= 0, sourceLocation: sourceLocation)
            if f.column == .secondary && displaced {
                #expect(f.width <= w + tolerance && f.dimmed, sourceLocation: sourceLocation)
                continue
            }
            // Overlaid sidebars lie from the leading edge and may reach past the trailing one
            // in a narrow window (SEMANTICS 5 degrades only tiled and displacing sidebars).
            if f.column != .secondary && r.splitBehavior == .overlay { continue }
            #expect(f.x >= -tolerance && f.x + f.width <= w + tolerance, "\(f) in \(w)", sourceLocation: sourceLocation)
        }
        let secondary = r.frames.last!
        #expect(secondary.column == .secondary && secondary.visible, sourceLocation: sourceLocation)
        let visibleSidebars = r.frames.filter { $0.visible && $0.column != .secondary }
        if r.splitBehavior != .overlay && r.displayMode != .secondaryOnly {
            // Tiled/displacing sidebars leave the secondary at least 320 on screen.
            #expect(w - visibleSidebars.reduce(0) { $0 + $1.width } >= 320 - tolerance, sourceLocation: sourceLocation)
        }
        if !displaced && r.splitBehavior != .overlay {
            // Tiled visible columns do not overlap and cover the window exactly.
            // A zero-width column (a maximum of 0) shares its x with its neighbour: it comes first.
            let tiled = r.frames.filter(\.visible).sorted { ($0.x, $0.width) < ($1.x, $1.width) }
            #expect(abs(tiled.reduce(0) { $0 + $1.width } - w) <= tolerance, sourceLocation: sourceLocation)
            for (a, b) in zip(tiled, tiled.dropFirst()) {
                #expect(abs(a.x + a.width - b.x) <= tolerance, "\(a) then \(b)", sourceLocation: sourceLocation)
            }
            #expect(r.frames.allSatisfy { !$0.dimmed && !$0.overlay }, sourceLocation: sourceLocation)
        }
        if r.splitBehavior == .overlay {
            // Side by side from the leading edge (the physical right when mirrored).
            let mirrored = (config.primaryEdge == .trailing) != (config.layoutDirection == .rtl)
            let sorted = visibleSidebars.sorted { ($0.x, $0.width) < ($1.x, $1.width) }
            if let first = sorted.first, let last = sorted.last {
                #expect(
                    mirrored ? abs(last.x + last.width - w) <= tolerance : abs(first.x) <= tolerance,
                    sourceLocation: sourceLocation)
            }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(abs(a.x + a.width - b.x) <= tolerance, "\(a) then \(b)", sourceLocation: sourceLocation)
            }
            #expect(secondary.x == 0 && secondary.width == w, sourceLocation: sourceLocation)
            #expect(secondary.dimmed == !visibleSidebars.isEmpty, sourceLocation: sourceLocation)
            #expect(visibleSidebars.allSatisfy { $0.overlay }, sourceLocation: sourceLocation)
        }
    }
}
