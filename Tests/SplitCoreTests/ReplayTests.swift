import PropertyBased
import Testing
@testable import SplitCore

/// `SplitEngine.replay` (journal replay at start) must reach exactly what `apply` reached
/// when the change was accepted: same state, layout, revision and no-op verdict; only the
/// events are skipped.
@Suite struct ReplayTests {
    @Test func replayMatchesApplyOverRandomHistories() async {
        await propertyCheck(count: 200, input: PropertyTests.seeds, PropertyTests.steps) { seed, steps in
            var state = try RandomScene.scene(seed)
            for step in steps {
                var dice = Dice(step)
                let change = RandomScene.change(state, &dice)
                let applied: Result<Transition, CoreError>
                do throws(CoreError) { applied = .success(try engine.apply(change, to: state)) } catch {
                    applied = .failure(error)
                }
                let replayed: Result<Transition, CoreError>
                do throws(CoreError) { replayed = .success(try engine.replay(change, to: state)) } catch {
                    replayed = .failure(error)
                }
                switch (applied, replayed) {
                case let (.success(a), .success(r)):
                    #expect(r.state == a.state)
                    #expect(r.layout == a.layout)
                    #expect(r.changed == a.changed)
                    #expect(r.events.isEmpty)
                    state = a.state
                case let (.failure(a), .failure(r)):
                    #expect(a == r)
                default:
                    Issue.record("apply and replay disagree on \(change): \(applied) vs \(replayed)")
                }
            }
        }
    }
}
