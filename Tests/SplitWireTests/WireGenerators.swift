import PropertyBased
import SplitCore
import SplitWire

/// Random protocol values: layouts, events, config patches and requests.
enum WireGenerators {
    typealias RNG = any SeededRandomNumberGenerator

    static let layout = Generator<Layout, Shrink.None<Layout>>(run: { rng in makeLayout(using: &rng) })
    static let events = Generator<[SceneEvent], Shrink.None<[SceneEvent]>>(run: { rng in
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in makeEvent(using: &rng) }
    })
    static let patch = Generator<SplitConfigPatch, Shrink.None<SplitConfigPatch>>(run: { rng in
        makePatch(using: &rng)
    })
    static let request = Generator<Request, Shrink.None<Request>>(run: { rng in makeRequest(using: &rng) })

    static func pick<T: CaseIterable>(_ type: T.Type, using rng: inout RNG) -> T {
        Array(T.allCases).randomElement(using: &rng)!
    }

    static func chance(_ rng: inout RNG) -> Bool { Bool.random(using: &rng) }

    static func makeID(using rng: inout RNG) -> String {
        let names = ["inbox", "chat-1", "placeholder", "detail", "photo.42", "设置", "a\"b", "tab:2", "x\\y"]
        return names.randomElement(using: &rng)!
    }

    /// Sizes as the core produces them: whole points, halves, and odd fractions.
    static func makePoints(using rng: inout RNG) -> Double {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return Double(Int.random(in: 1...2000, using: &rng))
        case 1: return Double(Int.random(in: 1...4000, using: &rng)) / 2
        default: return Double.random(in: 0.5...2000, using: &rng)
        }
    }

    static func makeSize(using rng: inout RNG) -> Size {
        Size(width: makePoints(using: &rng), height: makePoints(using: &rng))
    }

    static func makeTraits(using rng: inout RNG) -> Traits {
        Traits(
            horizontalSizeClass: pick(SizeClass.self, using: &rng),
            verticalSizeClass: pick(SizeClass.self, using: &rng))
    }

    static func makeStack(using rng: inout RNG) -> [String] {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in makeID(using: &rng) }
    }

    static func makeLayout(using rng: inout RNG) -> Layout {
        let size = makeSize(using: &rng)
        let collapsed = chance(&rng)
        let columns: [ColumnLayout] = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            ColumnLayout(
                column: pick(Column.self, using: &rng), visible: chance(&rng),
                x: -makePoints(using: &rng) + 100,
                width: makePoints(using: &rng), overlay: chance(&rng), dimmed: chance(&rng),
                stack: makeStack(using: &rng))
        }
        let presentations: [PresentationLayout] = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
            PresentationLayout(
                vc: makeID(using: &rng), style: pick(PresentationStyle.self, using: &rng),
                effectiveStyle: pick(PresentationStyle.self, using: &rng))
        }
        return Layout(
            size: size, orientation: size.orientation, traits: makeTraits(using: &rng), collapsed: collapsed,
            displayMode: collapsed ? nil : pick(DisplayMode.self, using: &rng),
            splitBehavior: collapsed ? nil : pick(SplitBehavior.self, using: &rng),
            columns: columns, presentations: presentations,
            selectedTab: chance(&rng) ? Int.random(in: 0...5, using: &rng) : nil)
    }

    static func makeEvent(using rng: inout RNG) -> SceneEvent {
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: return .traitsChanged(from: makeTraits(using: &rng), to: makeTraits(using: &rng))
        case 1: return .viewWillTransition(to: makeSize(using: &rng))
        case 2: return .willCollapse(moved: makeStack(using: &rng))
        case 3: return .didCollapse(moved: makeStack(using: &rng))
        case 4: return .willExpand(moved: makeStack(using: &rng))
        case 5: return .didExpand(moved: makeStack(using: &rng))
        case 6:
            return .displayModeChanged(
                from: chance(&rng) ? pick(DisplayMode.self, using: &rng) : nil,
                to: chance(&rng) ? pick(DisplayMode.self, using: &rng) : nil)
        case 7: return .appear(vc: makeID(using: &rng), column: pick(Column.self, using: &rng))
        case 8: return .disappear(vc: makeID(using: &rng), column: pick(Column.self, using: &rng))
        case 9: return .presented(vc: makeID(using: &rng), style: pick(PresentationStyle.self, using: &rng))
        default: return .dismissed(vc: makeID(using: &rng))
        }
    }

    static func maybe<T>(_ rng: inout RNG, _ make: (inout RNG) -> T) -> T? {
        Int.random(in: 0..<3, using: &rng) == 0 ? make(&rng) : nil
    }

    /// Absent, reset (`.some(nil)`) or set.
    static func resettable(_ rng: inout RNG, _ make: (inout RNG) -> Double) -> Double?? {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .some(nil)
        case 1: return .some(make(&rng))
        default: return nil
        }
    }

    static func makePatch(using rng: inout RNG) -> SplitConfigPatch {
        var patch = SplitConfigPatch()
        patch.style = maybe(&rng) { pick(SplitStyle.self, using: &$0) }
        patch.preferredDisplayMode = maybe(&rng) { pick(DisplayMode.self, using: &$0) }
        patch.preferredSplitBehavior = maybe(&rng) { pick(SplitBehavior.self, using: &$0) }
        patch.preferredPrimaryColumnWidth = resettable(&rng) { makePoints(using: &$0) }
        patch.preferredPrimaryColumnWidthFraction = resettable(&rng) { Double.random(in: 0...1, using: &$0) }
        patch.minimumPrimaryColumnWidth = maybe(&rng) { makePoints(using: &$0) }
        patch.maximumPrimaryColumnWidth = maybe(&rng) { makePoints(using: &$0) }
        patch.preferredSupplementaryColumnWidth = resettable(&rng) { makePoints(using: &$0) }
        patch.preferredSupplementaryColumnWidthFraction = resettable(&rng) { Double.random(in: 0...1, using: &$0) }
        patch.minimumSupplementaryColumnWidth = maybe(&rng) { makePoints(using: &$0) }
        patch.maximumSupplementaryColumnWidth = maybe(&rng) { makePoints(using: &$0) }
        patch.primaryEdge = maybe(&rng) { pick(PrimaryEdge.self, using: &$0) }
        patch.layoutDirection = maybe(&rng) { pick(LayoutDirection.self, using: &$0) }
        patch.presentsWithGesture = maybe(&rng) { Bool.random(using: &$0) }
        patch.showsSecondaryOnlyButton = maybe(&rng) { Bool.random(using: &$0) }
        patch.roots = maybe(&rng) { rng in
            ColumnRoots(
                primary: maybe(&rng) { makeID(using: &$0) }, supplementary: maybe(&rng) { makeID(using: &$0) },
                secondary: maybe(&rng) { makeID(using: &$0) }, compact: maybe(&rng) { makeID(using: &$0) })
        }
        if chance(&rng) { patch.placeholder = .some(maybe(&rng) { makeID(using: &$0) }) }
        patch.tabs = maybe(&rng) { rng in
            (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                TabConfig(root: makeID(using: &rng), title: maybe(&rng) { makeID(using: &$0) })
            }
        }
        patch.collapsePolicy = maybe(&rng) { pick(CollapsePolicy.self, using: &$0) }
        patch.expandPolicy = maybe(&rng) { pick(ExpandPolicy.self, using: &$0) }
        patch.topColumnForCollapsing = maybe(&rng) { pick(TopColumnForCollapsing.self, using: &$0) }
        patch.detailRouting = maybe(&rng) { pick(DetailRouting.self, using: &$0) }
        patch.backBehavior = maybe(&rng) { pick(BackBehavior.self, using: &$0) }
        patch.sizePolicy = maybe(&rng) { pick(SizePolicy.self, using: &$0) }
        return patch
    }

    static func makeIntent(using rng: inout RNG) -> Intent {
        let column = pick(Column.self, using: &rng)
        switch Int.random(in: 0..<16, using: &rng) {
        case 0: return .push(column: column, vc: makeID(using: &rng))
        case 1: return .pop(column: column)
        case 2: return .popToRoot(column: column)
        case 3: return .show(vc: makeID(using: &rng), column: column)
        case 4: return .showDetail(vc: makeID(using: &rng))
        case 5: return .back
        case 6: return .selectTab(index: Int.random(in: -2...40, using: &rng))
        case 7: return .present(vc: makeID(using: &rng), style: pick(PresentationStyle.self, using: &rng))
        case 8: return .dismiss
        case 9: return .setPreferredDisplayMode(pick(DisplayMode.self, using: &rng))
        case 10: return .displayModeButton
        case 11: return .gesture
        case 12: return .tapDimmed
        case 13: return .showColumn(column)
        case 14: return .hideColumn(column)
        default: return .setConfig(makePatch(using: &rng))
        }
    }

    static func makeWindowSize(using rng: inout RNG) -> Size {
        Size(width: Double.random(in: 1...100_000, using: &rng).rounded(), height: makePoints(using: &rng))
    }

    static func makeOperation(using rng: inout RNG) -> Request.Operation {
        let scene = ["s1", "bench-7", "wechat.ipad:main", "A_b-9"].randomElement(using: &rng)!
        let baseRevision = maybe(&rng) { Int.random(in: 0...1_000_000, using: &$0) }
        switch Int.random(in: 0..<15, using: &rng) {
        case 0: return .hello(protocol: Int.random(in: 0...3, using: &rng), client: maybe(&rng) { makeID(using: &$0) })
        case 1:
            return .sceneCreate(
                scene: scene, device: ["ipad-pro-12.9", "material"].randomElement(using: &rng)!,
                size: maybe(&rng) { makeWindowSize(using: &$0) },
                config: maybe(&rng) { makePatch(using: &$0) })
        case 2: return .sceneGet(scene: scene)
        case 3: return .sceneList
        case 4: return .sceneDelete(scene: scene)
        case 5:
            return .sceneAttach(
                scene: scene, role: pick(ClientRole.self, using: &rng),
                size: maybe(&rng) { makeWindowSize(using: &$0) }, notices: chance(&rng) ? .deleted : [])
        case 6: return .sceneDetach(scene: scene)
        case 7: return .resize(scene: scene, size: makeWindowSize(using: &rng), baseRevision: baseRevision)
        case 8: return .intent(scene: scene, intent: makeIntent(using: &rng), baseRevision: baseRevision)
        case 9:
            if chance(&rng) { return .snapshot(scene: scene, target: .preset("appSwitcher")) }
            return .snapshot(
                scene: scene,
                target: .sizes(
                    (1...Int.random(in: 1...4, using: &rng)).map { _ in
                        makeWindowSize(using: &rng)
                    }))
        case 10: return .snapshotList(scene: scene)
        case 11: return .snapshotGet(session: ["17", "s-3f2a"].randomElement(using: &rng)!)
        case 12: return .stats
        case 13: return .ping
        default: return .devices
        }
    }

    static func makeRequest(using rng: inout RNG) -> Request {
        let id: RequestID =
            chance(&rng)
            ? .int(Int64.random(in: -5...Int64.max, using: &rng))
            : .string(makeID(using: &rng))
        return Request(id: id, op: makeOperation(using: &rng))
    }
}
