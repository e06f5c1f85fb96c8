import SplitCore

/// Microbenchmarks of the pure core: the reducer on resizes and intents, layout assembly,
/// and appSwitcher snapshot sessions (the goal: a session of about ten sizes and the round
/// trip in <= 50 µs, core only).
enum CoreBench {
    static let device = "ipad-pro-12.9"
    static let full = Size(width: 1366, height: 1024)
    static let third = Size(width: 375, height: 1024)

    /// The scene every benchmark starts from: what `SceneSetup` creates in the daemon.
    static func baseState(_ engine: SplitEngine) throws -> SceneState {
        var config = SplitConfigPatch()
        config.roots = ColumnRoots(primary: SceneSetup.primaryRoot, secondary: SceneSetup.secondaryRoot)
        return try engine.createScene(id: "bench-0", device: device, size: full, config: config)
    }

    static func run(_ harness: Microbench) throws -> [Microbench.Measurement] {
        let engine = SplitEngine()
        let base = try baseState(engine)
        var results: [Microbench.Measurement] = []

        var state = base
        var toThird = true
        results.append(
            try harness.measure("resize collapse/expand (apply)") {
                let transition = try engine.apply(.resize(toThird ? third : full), to: state)
                state = transition.state
                toThird.toggle()
                consume(transition.events)
            })

        state = base
        var wide = true
        results.append(
            try harness.measure("resize within a size class (apply)") {
                let transition = try engine.apply(.resize(Size(width: wide ? 1200 : 1180, height: 1024)), to: state)
                state = transition.state
                wide.toggle()
                consume(transition.layout)
            })

        state = base
        var push = true
        results.append(
            try harness.measure("intent push/pop (apply)") {
                let intent: Intent = push ? .push(column: .secondary, vc: "detail") : .pop(column: .secondary)
                let transition = try engine.apply(.intent(intent), to: state)
                state = transition.state
                push.toggle()
                consume(transition.layout)
            })

        results.append(
            harness.measure("layout of a scene") {
                consume(engine.layout(of: base))
            })

        let sizes = engine.catalog.presetSizes("appSwitcher", device: device, current: base.size) ?? []
        results.append(
            try harness.measure("appSwitcher snapshot session (\(sizes.count) sizes + round trip)") {
                consume(try engine.snapshot(base, preset: "appSwitcher"))
            })
        return results
    }
}
