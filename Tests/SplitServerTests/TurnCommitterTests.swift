import PropertyBased
import SplitStore
import Testing
@testable import SplitServer

/// `TurnCommitter` alone, without a loop or a store: which turns are answered when, in what
/// order, and what the loop is told to do for them.
@Suite("Turn committer")
struct TurnCommitterTests {
    /// A committer driven by the tests (a class, so that `#expect` may call its events).
    final class Run {
        var committer: TurnCommitter

        init(flushesAfterCommit: Bool) { committer = TurnCommitter(flushesAfterCommit: flushesAfterCommit) }

        /// Ends turn `number` (see `turn`), returning the batch to commit.
        func turnEnded(_ number: Int, operations: Int) -> StoreBatch {
            committer.turnEnded(TurnCommitterTests.turn(number, operations: operations))
        }

        func commitEnded(_ result: TurnCommitter.CommitResult, othersMayJoin: Bool = true) -> TurnCommitter.Action {
            committer.commitEnded(result, othersMayJoin: othersMayJoin)
        }

        /// Ends turn `number` and commits it with `result`.
        func end(
            _ number: Int, operations: Int, result: TurnCommitter.CommitResult = .committed,
            othersMayJoin: Bool = true
        ) -> TurnCommitter.Action {
            _ = turnEnded(number, operations: operations)
            return commitEnded(result, othersMayJoin: othersMayJoin)
        }

        /// The numbers of the turns the committer releases once flushed through `generation`.
        func answered(flushedThrough generation: Int) -> [Int] {
            var numbers: [Int] = []
            while let settled = committer.nextTurnToAnswer(flushedThrough: generation) {
                numbers.append(settled.work.connectionOrder[0])
            }
            return numbers
        }

        func recycle(_ work: Turn) -> Bool {
            var work = work
            return committer.recycle(&work)
        }
    }

    /// A turn numbered `number` (its one reply goes to connection `number`) that stages
    /// `operations` store operations.
    static func turn(_ number: Int, operations: Int) -> Turn {
        var turn = Turn()
        turn.stage(.fixed([UInt8(truncatingIfNeeded: number)]), for: number)
        for index in 0..<operations { turn.batch.setMeta(key: "k\(index)", value: "\(number)") }
        return turn
    }

    @Test func withoutFlushThreadAnEndedTurnIsAnsweredAtOnce() {
        let run = Run(flushesAfterCommit: false)
        let batch = run.turnEnded(1, operations: 3)
        #expect(batch.count == 3, "a turn alone commits its own batch")
        #expect(!run.committer.isSettled)
        #expect(run.commitEnded(.committed, othersMayJoin: true) == .answer)
        #expect(run.answered(flushedThrough: 0) == [1])
        #expect(run.committer.isSettled)
    }

    @Test func aCommittedTurnWaitsForItsFlush() {
        let run = Run(flushesAfterCommit: true)
        #expect(run.end(1, operations: 5) == .requestFlush(generation: 1, operations: 5, firstHeld: true))
        #expect(run.committer.holdsTurns)
        #expect(run.answered(flushedThrough: 0).isEmpty, "not before its flush")
        #expect(run.end(2, operations: 6) == .requestFlush(generation: 2, operations: 6, firstHeld: false))
        #expect(run.answered(flushedThrough: 1) == [1], "a flush answers only the turns it covers")
        #expect(run.answered(flushedThrough: 2) == [2])
        #expect(run.committer.isSettled)
        #expect(run.committer.flushesRequested == 2)
    }

    @Test func aSmallTurnFlushesInlineOnlyWhenNobodyMayJoinAndNothingIsHeld() {
        let run = Run(flushesAfterCommit: true)
        #expect(run.end(1, operations: 1, othersMayJoin: false) == .flushInlineThenAnswer)
        #expect(run.answered(flushedThrough: 0) == [1])
        #expect(
            run.end(2, operations: 1, othersMayJoin: true)
                == .requestFlush(generation: 1, operations: 1, firstHeld: true))
        #expect(
            run.end(3, operations: 1, othersMayJoin: false)
                == .requestFlush(generation: 2, operations: 1, firstHeld: false),
            "behind a held turn a flush of its own keeps the order")
        #expect(
            run.end(4, operations: TurnCommitter.inlineFlushOperations, othersMayJoin: false)
                == .requestFlush(generation: 3, operations: TurnCommitter.inlineFlushOperations, firstHeld: false))
        #expect(run.answered(flushedThrough: 3) == [2, 3, 4])
    }

    @Test func aTurnWithNothingToFlushWaitsBehindHeldTurns() {
        let run = Run(flushesAfterCommit: true)
        #expect(run.end(1, operations: 0) == .answer, "nothing held, nothing to flush")
        #expect(run.answered(flushedThrough: 0) == [1])
        #expect(run.end(2, operations: 8) == .requestFlush(generation: 1, operations: 8, firstHeld: true))
        // A read may show turn 2's state: it is answered only once turn 2 is.
        #expect(run.end(3, operations: 0) == .waitBehindHeld)
        #expect(run.end(4, operations: 2, result: .refused) == .waitBehindHeld, "a refused commit flushes nothing")
        #expect(run.answered(flushedThrough: 0).isEmpty)
        #expect(run.answered(flushedThrough: 1) == [2, 3, 4])
    }

    @Test func aRefusedTurnNamesTheScenesItChangedVisibly() {
        let run = Run(flushesAfterCommit: false)
        var work = Self.turn(1, operations: 1)
        work.remember(scene: "created", before: nil)
        _ = run.committer.turnEnded(work)
        #expect(run.committer.uncommittedVisibleChanges == ["created"])
        #expect(run.commitEnded(.refused, othersMayJoin: false) == .answer)
        let settled = run.committer.nextTurnToAnswer(flushedThrough: 0)
        #expect(settled?.committed == false)
        #expect(settled?.rolledBack == ["created"])
    }

    @Test func heldBackTurnsCommitTogetherBeforeLaterOnes() {
        let run = Run(flushesAfterCommit: true)
        #expect(run.committer.batchToRetry() == nil)
        #expect(run.end(1, operations: 2, result: .heldBack, othersMayJoin: false) == .retryLater)
        #expect(run.committer.hasHeldBackCommits)
        #expect(run.committer.batchToRetry()?.count == 2)
        // The next turn's commit carries the held-back one's first.
        let batch = run.turnEnded(2, operations: 1)
        #expect(batch.count == 3)
        #expect(batch.operations.first == .setMeta(key: "k0", value: "1"))
        #expect(run.commitEnded(.heldBack, othersMayJoin: false) == .retryLater)
        #expect(run.answered(flushedThrough: .max).isEmpty, "nothing is answered before its commit")
        #expect(run.committer.batchToRetry()?.count == 3)
        // A retry never flushes inline, small as it is.
        #expect(
            run.commitEnded(.committed, othersMayJoin: false)
                == .requestFlush(generation: 1, operations: 3, firstHeld: true))
        #expect(!run.committer.hasHeldBackCommits)
        #expect(run.committer.batchToRetry() == nil)
        #expect(run.answered(flushedThrough: 1) == [1, 2])
        // The gathered batch starts empty again.
        #expect(run.end(3, operations: 2, result: .heldBack) == .retryLater)
        #expect(run.committer.batchToRetry()?.count == 2)
    }

    @Test func answeredTurnsLeaveBoundedSpareStorage() {
        let run = Run(flushesAfterCommit: false)
        for number in 0..<TurnCommitter.spareLimit {
            #expect(run.recycle(Self.turn(number, operations: 1)))
        }
        #expect(!run.recycle(Self.turn(9, operations: 1)), "no more than the limit is kept")
        let reused = run.committer.takeEmptyTurn()
        #expect(reused.isEmpty)
        #expect(run.committer.spare.count == TurnCommitter.spareLimit - 1)
        var large = Turn()
        let reply = [UInt8](repeating: 0x61, count: TurnCommitter.spareMaxReplyBytes + 1)
        _ = reply.withUnsafeBytes { large.appendChangeReply($0) }
        #expect(!run.recycle(large), "a backlog's storage is freed, not kept")
    }

    /// One step of a random history: a turn ends (with an outcome), a flush completes, or a
    /// held-back commit is retried.
    enum Step: Sendable {
        case end(operations: Int, result: TurnCommitter.CommitResult, othersMayJoin: Bool)
        case flushCompletes
        case retry(TurnCommitter.CommitResult)
    }

    static let steps = Generator<[Step], Shrink.None<[Step]>>(run: { rng in
        let results: [TurnCommitter.CommitResult] = [
            .refused, .heldBack, .committed, .committed, .committed, .committed,
        ]
        return (0..<Int.random(in: 1...60, using: &rng)).map { _ in
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                .end(
                    operations: Int.random(in: 0...6, using: &rng), result: results.randomElement(using: &rng)!,
                    othersMayJoin: Bool.random(using: &rng))
            case 1: .flushCompletes
            default: .retry(Bool.random(using: &rng) ? .heldBack : .committed)
            }
        }
    })

    @Test func turnsAreAnsweredInOrderAndOnlyAfterTheirFlush() async {
        await propertyCheck(count: 300, input: Self.steps) { steps in
            var committer = TurnCommitter(flushesAfterCommit: true)
            var ended = 0, flushedThrough = 0
            var answeredOrder: [Int] = []
            /// Each turn's flush generation (nil: needs none) once its commit ended.
            var needs: [Int: Int] = [:]
            func release(through generation: Int) {
                while let settled = committer.nextTurnToAnswer(flushedThrough: generation) {
                    let number = settled.work.connectionOrder[0]
                    #expect(settled.generation <= generation)
                    if let flush = needs[number] { #expect(flush <= generation, "answered before its flush") }
                    answeredOrder.append(number)
                }
            }
            func settle(_ action: TurnCommitter.Action, turns: [Int]) {
                switch action {
                case .retryLater: return
                case .requestFlush(let generation, _, _): for number in turns { needs[number] = generation }
                case .answer, .flushInlineThenAnswer, .waitBehindHeld: break
                }
                release(through: 0)
            }
            var uncommitted: [Int] = []
            for step in steps {
                switch step {
                case let .end(operations, result, othersMayJoin):
                    ended += 1
                    _ = committer.turnEnded(Self.turn(ended, operations: operations))
                    uncommitted.append(ended)
                    settle(committer.commitEnded(result, othersMayJoin: othersMayJoin), turns: uncommitted)
                case .flushCompletes:
                    flushedThrough = committer.flushesRequested
                    release(through: flushedThrough)
                case .retry(let result):
                    guard committer.batchToRetry() != nil else { continue }
                    settle(committer.commitEnded(result, othersMayJoin: false), turns: uncommitted)
                }
                if !committer.hasHeldBackCommits { uncommitted.removeAll() }
            }
            if committer.hasHeldBackCommits {
                settle(committer.commitEnded(.committed, othersMayJoin: false), turns: uncommitted)
            }
            release(through: committer.flushesRequested)
            #expect(answeredOrder == Array(0..<ended).map { $0 + 1 }, "every turn, in the order they ended")
            #expect(committer.isSettled)
        }
    }
}
