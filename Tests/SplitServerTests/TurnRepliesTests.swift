import PropertyBased
import Testing
@testable import SplitServer

@Suite("Turn replies")
struct TurnRepliesTests {
    /// The bytes of a `.fixed` reply, to tell replies apart.
    private func bytes(_ reply: Turn.Reply) -> [UInt8] {
        guard case .fixed(let bytes) = reply else { return [] }
        return bytes
    }

    /// Stages `owners` (reply i goes to owners[i]) and reads back, per connection in
    /// `connectionOrder`, the numbers of its replies.
    private func stageAndGroup(_ owners: [Int], into turn: inout Turn) -> [(Int, [Int])] {
        for (number, owner) in owners.enumerated() {
            turn.stage(.fixed([UInt8(truncatingIfNeeded: number), UInt8(truncatingIfNeeded: number >> 8)]), for: owner)
        }
        return turn.connectionOrder.enumerated().map { slot, connection in
            (
                connection,
                turn.replies(of: slot).map { reply in
                    let b = bytes(reply)
                    return Int(b[0]) | Int(b[1]) << 8
                }
            )
        }
    }

    /// What the turn must give: connections by first reply, each one's replies in staging order.
    private func expected(_ owners: [Int]) -> [(Int, [Int])] {
        var order: [Int] = []
        var replies: [Int: [Int]] = [:]
        for (number, owner) in owners.enumerated() {
            if replies[owner] == nil { order.append(owner) }
            replies[owner, default: []].append(number)
        }
        return order.map { ($0, replies[$0]!) }
    }

    @Test("reply storage is freed only when the turn holds no reply and keeps more than the limit")
    func dropReplyStorage() {
        var turn = Turn()
        let reply = [UInt8](repeating: 0x61, count: 64 << 10)
        _ = reply.withUnsafeBytes { turn.appendChangeReply($0) }
        #expect(turn.dropReplyStorage(above: 1024) == 0, "a reply is still in it")
        #expect(turn.changeReplyByteCount == 64 << 10)
        turn.reset()
        let capacity = turn.changeReplyCapacity
        #expect(capacity >= 64 << 10, "reset keeps the storage")
        #expect(turn.dropReplyStorage(above: capacity) == 0, "no more than the limit")
        #expect(turn.dropReplyStorage(above: 1024) == capacity)
        #expect(turn.changeReplyCapacity == 0)
    }

    @Test func groupsRepliesPerConnectionInStagingOrder() async {
        let owners = Gen.int(in: 0...6).array(of: 0...60)
        await propertyCheck(count: 300, input: owners) { owners in
            var turn = Turn()
            let grouped = stageAndGroup(owners, into: &turn)
            let wanted = expected(owners)
            #expect(grouped.map(\.0) == wanted.map(\.0))
            #expect(grouped.map(\.1) == wanted.map(\.1))
            #expect(turn.isEmpty == owners.isEmpty)
        }
    }

    @Test func aResetTurnForgetsTheLastTurnsReplies() async {
        let turns = Gen.int(in: 0...4).array(of: 0...20).array(of: 2...4)
        await propertyCheck(count: 200, input: turns) { turns in
            var turn = Turn()
            for owners in turns {
                let grouped = stageAndGroup(owners, into: &turn)
                let wanted = expected(owners)
                #expect(grouped.map(\.0) == wanted.map(\.0))
                #expect(grouped.map(\.1) == wanted.map(\.1))
                let capacity = turn.replyCapacity
                turn.reset()
                #expect(turn.isEmpty)
                #expect(turn.connectionOrder.isEmpty)
                // What the daemon recycles a turn for (Committer.recycle): its storage stays.
                #expect(turn.replyCapacity >= max(capacity, owners.count))
            }
        }
    }

    @Test func theOnlyReplyOfAConnectionIsSingle() {
        var turn = Turn()
        turn.stage(.fixed([1]), for: 7)
        turn.stage(.fixed([2]), for: 8)
        turn.stage(.fixed([3]), for: 8)
        #expect(turn.replies(of: 0).single.map(bytes) == [1])
        #expect(turn.replies(of: 1).single == nil)
    }
}
