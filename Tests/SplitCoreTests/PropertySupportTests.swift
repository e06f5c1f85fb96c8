// Random scenes and histories for the property suites (named *Tests.swift to stay in
// core-navigation's files). Everything is derived from integers PropertyBased generates,
// so failures shrink and replay with a fixed seed.
@testable import SplitCore
import SplitTestSupport

/// SplitMix64: a tiny deterministic stream seeded from one generated integer.
struct Dice {
    var generator: SplitMix64

    init(_ seed: Int) { generator = SplitMix64(seed: UInt64(bitPattern: Int64(seed)) &+ 0x9E37_79B9_7F4A_7C15) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func number(_ range: ClosedRange<Int>) -> Double { Double(range.lowerBound + below(range.count)) }
}

enum RandomScene {
    static let ids = ["a", "b", "c", "d", "e"]

    /// A random configuration: every style and policy, sometimes tabs, a placeholder, a
    /// compact column, preferred widths and fractions.
    static func config(_ dice: inout Dice) -> SplitConfigPatch {
        var p = SplitConfigPatch()
        p.style = dice.pick(SplitStyle.allCases)
        p.preferredDisplayMode = dice.chance(60) ? .automatic : dice.pick(DisplayMode.allCases)
        p.preferredSplitBehavior = dice.chance(60) ? .automatic : dice.pick(SplitBehavior.allCases)
        if dice.chance(30) { p.preferredPrimaryColumnWidth = .some(dice.number(100...400)) }
        if dice.chance(30) { p.preferredPrimaryColumnWidthFraction = .some(Double(dice.below(101)) / 100) }
        if dice.chance(30) {
            let minimum = dice.number(0...200)
            p.minimumPrimaryColumnWidth = minimum
            p.maximumPrimaryColumnWidth = minimum + dice.number(0...200)
        }
        if dice.chance(30) { p.preferredSupplementaryColumnWidthFraction = .some(Double(dice.below(101)) / 100) }
        p.primaryEdge = dice.pick(PrimaryEdge.allCases)
        p.layoutDirection = dice.pick(LayoutDirection.allCases)
        p.presentsWithGesture = dice.chance(80)
        p.showsSecondaryOnlyButton = dice.chance(30)
        p.roots = ColumnRoots(
            primary: dice.chance(90) ? "p" : nil, supplementary: dice.chance(80) ? "m" : nil,
            secondary: dice.chance(50) ? "s" : nil, compact: dice.chance(10) ? "c" : nil)
        p.placeholder = .some(dice.chance(60) ? "ph" : nil)
        p.tabs = dice.chance(40) ? (0..<(2 + dice.below(3))).map { TabConfig(root: "t\($0)") } : []
        p.collapsePolicy = dice.pick(CollapsePolicy.allCases)
        p.expandPolicy = dice.pick(ExpandPolicy.allCases)
        p.topColumnForCollapsing = dice.pick(TopColumnForCollapsing.allCases)
        p.detailRouting = dice.pick(DetailRouting.allCases)
        p.backBehavior = dice.pick(BackBehavior.allCases)
        return p
    }

    /// Sizes worth visiting on a device: its presets, its default, and random windows.
    static func sizes(device: String) -> [Size] {
        var sizes = engine.catalog.presets(device: device).map(\.size)
        if let full = engine.catalog.defaultSize(device: device) {
            sizes += [full, Size(width: full.height, height: full.width)]
        }
        return sizes + [Size(width: 320, height: 700), Size(width: 700, height: 320), Size(width: 1000, height: 800)]
    }

    static func size(device: String, _ dice: inout Dice) -> Size {
        dice.chance(70)
            ? dice.pick(sizes(device: device))
            : Size(width: dice.number(200...1600), height: dice.number(200...1600))
    }

    /// A scene on a random device at a random size.
    static func scene(_ seed: Int) throws -> SceneState {
        var dice = Dice(seed)
        let device = dice.pick(engine.catalog.deviceNames.sorted())
        let config = config(&dice)
        return try engine.createScene(id: "prop", device: device, size: size(device: device, &dice), config: config)
    }

    /// One random change, valid or not (unknown columns, tabs out of range, empty ids...).
    static func change(_ state: SceneState, _ dice: inout Dice) -> SceneChange {
        if dice.chance(35) { return .resize(size(device: state.device, &dice)) }
        // A setConfig resizing to its windows in the same change (a sizePolicy switch).
        if dice.chance(5) { return .reconfigure(smallPatch(&dice), size: size(device: state.device, &dice)) }
        let column = dice.pick(Column.allCases)
        let vc = dice.chance(3) ? "" : dice.pick(ids)
        let intents: [Intent] = [
            .push(column: column, vc: vc), .push(column: .primary, vc: vc), .push(column: .secondary, vc: vc),
            .pop(column: column), .popToRoot(column: column), .show(vc: vc, column: column),
            .showDetail(vc: vc), .showDetail(vc: vc), .back, .back,
            .selectTab(index: dice.below(5) - 1), .present(vc: vc, style: dice.pick(PresentationStyle.allCases)),
            .dismiss, .setPreferredDisplayMode(dice.pick(DisplayMode.allCases)), .displayModeButton, .gesture,
            .tapDimmed, .showColumn(column), .hideColumn(column), .setConfig(smallPatch(&dice)),
        ]
        return .intent(dice.pick(intents))
    }

    static func smallPatch(_ dice: inout Dice) -> SplitConfigPatch {
        var p = SplitConfigPatch()
        switch dice.below(6) {
        case 0: p.style = dice.pick(SplitStyle.allCases)
        case 1: p.collapsePolicy = dice.pick(CollapsePolicy.allCases)
        case 2: p.roots = ColumnRoots(primary: dice.pick(["p", "q"]), secondary: dice.chance(50) ? "s" : nil)
        case 3: p.tabs = dice.chance(50) ? [] : [TabConfig(root: "t0"), TabConfig(root: dice.pick(["t1", "u1"]))]
        case 4: p.placeholder = .some(dice.chance(50) ? "ph" : nil)
        default: p.preferredDisplayMode = dice.pick(DisplayMode.allCases)
        }
        return p
    }

    /// True when the state is expanded, or collapsed exactly as its current configuration
    /// would collapse its expanded form: no navigation since, and no policy changed since
    /// (policies apply at the next transition). The round-trip guarantee covers these.
    static func isFresh(_ state: SceneState) -> Bool {
        guard let collapsed = state.navigation.collapsed else { return true }
        let expanded = Expand.expand(state.navigation, config: state.config).0
        return collapsed.entries == collapsed.built && Collapse.buildStack(expanded, config: state.config) == collapsed
    }

    /// A size at which `state`'s device is horizontally compact, if there is one.
    static func compactSize(for state: SceneState) -> Size? {
        let candidates = [
            Size(width: 300, height: 1000), Size(width: 320, height: 1024), Size(width: 375, height: 667),
        ]
        return candidates.first {
            (try? engine.catalog.traits(device: state.device, size: $0, previous: state.traits))?.horizontalSizeClass
                == .compact
        }
    }

    /// A size at which `state`'s device is horizontally regular, if there is one.
    static func regularSize(for state: SceneState) -> Size? {
        let candidates = [
            Size(width: 1366, height: 1024), Size(width: 1600, height: 1000), Size(width: 956, height: 440),
        ]
        return candidates.first {
            (try? engine.catalog.traits(device: state.device, size: $0, previous: state.traits))?.horizontalSizeClass
                == .regular
        }
    }
}
