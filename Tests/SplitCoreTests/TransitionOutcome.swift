import Testing
@testable import SplitCore

/// What `SplitEngine.apply` gave: its transition or its error, for comparing two
/// implementations step by step (HotPathEquivalenceTests, InPlaceResizeTests).
func transitionOutcome(_ body: () throws(CoreError) -> Transition) -> Result<Transition, CoreError> {
    do throws(CoreError) { return .success(try body()) } catch { return .failure(error) }
}

/// Records an issue unless both outcomes are the same transition or the same error.
func expectSameOutcome(
    _ actual: Result<Transition, CoreError>, as expected: Result<Transition, CoreError>,
    for change: SceneChange, sourceLocation: SourceLocation = #_sourceLocation
) {
    switch (expected, actual) {
    case let (.success(e), .success(a)):
        #expect(a.state == e.state, sourceLocation: sourceLocation)
        #expect(a.layout == e.layout, sourceLocation: sourceLocation)
        #expect(a.events == e.events, sourceLocation: sourceLocation)
        #expect(a.changed == e.changed, sourceLocation: sourceLocation)
    case let (.failure(e), .failure(a)):
        #expect(a == e, sourceLocation: sourceLocation)
    default:
        Issue.record("\(change): expected \(expected), got \(actual)", sourceLocation: sourceLocation)
    }
}
