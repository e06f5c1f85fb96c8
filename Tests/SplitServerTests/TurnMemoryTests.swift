@testable import SplitServer
import Testing

/// `TurnMemory`'s decisions, without a loop: when freed memory goes back to the system and
/// how much reply storage the next turns keep.
@Suite("Turn memory")
struct TurnMemoryTests {
    @Test func aBacklogIsReleasedOnceNothingIsHeldAtMostOnceASecond() {
        var memory = TurnMemory()
        memory.noteFlushAnswered(turns: TurnMemory.backlogTurns - 1)
        #expect(!memory.releasePending)
        memory.noteFlushAnswered(turns: TurnMemory.backlogTurns)
        let released1 = memory.takeRelease(now: 5000, held: true)
        #expect(!released1)
        let released2 = memory.takeRelease(now: 5000, held: false)
        #expect(released2)
        #expect(!memory.releasePending)
        memory.noteFreedTurnStorage(replyCapacity: TurnMemory.keptStorageFloorBytes + 1)
        let released3 = memory.takeRelease(now: 5000 + TurnMemory.releaseIntervalMilliseconds - 1, held: false)
        #expect(!released3)
        #expect(memory.releasePending)
        let released4 = memory.takeRelease(now: 5000 + TurnMemory.releaseIntervalMilliseconds, held: false)
        #expect(released4)
    }

    @Test func storageWithinTheFloorIsNoBacklog() {
        var memory = TurnMemory()
        memory.noteFreedTurnStorage(replyCapacity: TurnMemory.keptStorageFloorBytes)
        memory.noteTrimmed(bytes: 0)
        #expect(!memory.releasePending)
        memory.noteTrimmed(bytes: 1)
        #expect(memory.releasePending)
    }

    @Test func keptStorageIsTwiceTheLargestTurnOfTheSecondAndAtLeastTheFloor() {
        var memory = TurnMemory()
        let kept5 = memory.takeKeptStorageLimit()
        #expect(kept5 == TurnMemory.keptStorageFloorBytes)
        memory.noteAnswered(replyBytes: TurnMemory.keptStorageFloorBytes)
        memory.noteAnswered(replyBytes: 10)
        let kept6 = memory.takeKeptStorageLimit()
        #expect(kept6 == 2 * TurnMemory.keptStorageFloorBytes)
        // A new second: the burst no longer counts.
        let kept7 = memory.takeKeptStorageLimit()
        #expect(kept7 == TurnMemory.keptStorageFloorBytes)
    }
}
