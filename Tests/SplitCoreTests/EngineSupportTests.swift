// Shared fixtures of core-navigation's suites (named *Tests.swift to stay in its files).
@testable import SplitCore

let engine = SplitEngine()

/// 12.9" iPad sizes of SEMANTICS 2: full landscape/portrait, 1/2 (regular), 1/3 (compact).
let padLandscape = Size(width: 1366, height: 1024)
let padPortrait = Size(width: 1024, height: 1366)
let padHalf = Size(width: 678, height: 1024)
let padThird = Size(width: 375, height: 1024)
let phonePortrait = Size(width: 390, height: 844)

/// A patch built in place.
func patch(_ build: (inout SplitConfigPatch) -> Void) -> SplitConfigPatch {
    var p = SplitConfigPatch()
    build(&p)
    return p
}

/// Roots primary "list", secondary "detail-root" unless told otherwise.
func makeScene(
    _ device: String = "ipad-pro-12.9", size: Size? = padLandscape,
    _ build: (inout SplitConfigPatch) -> Void = { _ in }
) throws -> SceneState {
    try engine.createScene(id: "s1", device: device, size: size, config: patch(build))
}

/// Applies intents in order, answering the last state.
func run(_ intents: [Intent], on state: SceneState) throws -> SceneState {
    var s = state
    for i in intents { s = try engine.apply(.intent(i), to: s).state }
    return s
}

func resized(_ state: SceneState, _ size: Size) throws -> Transition {
    try engine.apply(.resize(size), to: state)
}

extension SceneState {
    var layout: Layout { engine.layout(of: self) }
    /// The stack a client sees in `column` (the compact column when collapsed).
    func visibleStack(_ column: Column) -> [String]? {
        layout.columns.first { $0.column == column }?.stack
    }
    var collapsedStack: [String]? { collapsed ? visibleStack(.compact) : nil }
}

/// The error code thrown by `body`, nil if it did not throw.
func errorCode(_ body: () throws -> Void) -> CoreError.Code? {
    do {
        try body()
        return nil
    } catch let error as CoreError {
        return error.code
    } catch {
        return nil
    }
}

extension SceneEvent {
    var isAppear: Bool { if case .appear = self { true } else { false } }
    var isDisappear: Bool { if case .disappear = self { true } else { false } }
}

func appeared(_ events: [SceneEvent]) -> [String] {
    events.compactMap { if case let .appear(vc, _) = $0 { vc } else { nil } }
}

func disappeared(_ events: [SceneEvent]) -> [String] {
    events.compactMap { if case let .disappear(vc, _) = $0 { vc } else { nil } }
}
