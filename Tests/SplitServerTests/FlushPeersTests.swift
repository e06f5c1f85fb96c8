@testable import SplitServer
import SplitTestSupport

import Testing

/// `FlushPeers`: a flush waits for company only while a client sending now is not yet
/// waiting for it.
@Suite("Flush peers")
struct FlushPeersTests {
    /// A request of `client` that changed something at `now`, with `unwritten` reply bytes of
    /// its earlier requests, then its own reply (`reply` bytes) staged.
    private func change(
        _ peers: inout FlushPeers, _ client: inout FlushPeers.Client, now: UInt64,
        unwritten: Int = 0, reply: Int = 100
    ) {
        peers.noteChange(of: &client, stagedBytes: unwritten, now: now)
        peers.update(&client, stagedBytes: unwritten + reply)
    }

    @Test("a lone client asking and waiting leaves nobody to wait for")
    func loneClient() {
        var peers = FlushPeers()
        var client = FlushPeers.Client()
        peers.noteChange(of: &client, stagedBytes: 0, now: 10)
        #expect(peers.othersMayJoin(at: 10), "sending, its reply not staged yet")
        peers.update(&client, stagedBytes: 120)
        #expect(peers.waiting == 1)
        #expect(!peers.othersMayJoin(at: 10))
        peers.update(&client, stagedBytes: 0)
        #expect(peers.waiting == 0)
    }

    @Test("two clients: the flush may wait until both are waiting")
    func twoClients() {
        var peers = FlushPeers()
        var first = FlushPeers.Client(), second = FlushPeers.Client()
        change(&peers, &first, now: 10)
        peers.noteChange(of: &second, stagedBytes: 0, now: 10)
        #expect(peers.othersMayJoin(at: 10), "the second is sending and not waiting yet")
        peers.update(&second, stagedBytes: 100)
        #expect(!peers.othersMayJoin(at: 10))
        // Answered, the first is about to send again within the same millisecond or the next.
        peers.update(&first, stagedBytes: 0)
        #expect(peers.othersMayJoin(at: 10))
        #expect(peers.othersMayJoin(at: 11))
        #expect(!peers.othersMayJoin(at: 12), "two milliseconds on, nobody is sending now")
    }

    @Test("a client sending before its replies arrive never counts as waiting")
    func pipeliningClient() {
        var peers = FlushPeers()
        var client = FlushPeers.Client()
        change(&peers, &client, now: 5)
        change(&peers, &client, now: 5, unwritten: 100)
        #expect(peers.waiting == 0)
        #expect(peers.othersMayJoin(at: 5), "it may send more before its replies arrive")
        // Its next request after every reply was written is a request-reply one again.
        peers.update(&client, stagedBytes: 0)
        change(&peers, &client, now: 6)
        #expect(peers.waiting == 1)
        #expect(!peers.othersMayJoin(at: 6))
    }

    @Test("a request counts as sending now in its millisecond and the next one only")
    func sendingExpires() {
        var peers = FlushPeers()
        var idle = FlushPeers.Client(), asker = FlushPeers.Client()
        peers.noteChange(of: &idle, stagedBytes: 0, now: 100)
        change(&peers, &asker, now: 101, reply: 50)
        #expect(peers.othersMayJoin(at: 101), "the idle client sent in the previous millisecond")
        peers.update(&asker, stagedBytes: 0)
        change(&peers, &asker, now: 102, reply: 50)
        #expect(!peers.othersMayJoin(at: 102), "two milliseconds on, the idle client is not sending now")
        peers.update(&asker, stagedBytes: 0)
        change(&peers, &asker, now: 500, reply: 50)
        #expect(!peers.othersMayJoin(at: 500), "after a gap nobody before counts")
    }

    @Test("a waiting client that leaves is no longer counted")
    func closedClient() {
        var peers = FlushPeers()
        var client = FlushPeers.Client()
        change(&peers, &client, now: 1, reply: 80)
        #expect(peers.waiting == 1)
        peers.noteClosed(&client)
        #expect(peers.waiting == 0)
        peers.noteClosed(&client)
        #expect(peers.waiting == 0, "closing twice counts once")
    }

    @Test("a client that left sends nothing more: a flush does not wait for it")
    func closedClientIsNotSending() {
        for gap: UInt64 in [0, 1] {
            var peers = FlushPeers()
            var oneShot = FlushPeers.Client(), asker = FlushPeers.Client()
            // A one-shot client: one change, its answer, gone.
            change(&peers, &oneShot, now: 40, reply: 90)
            peers.update(&oneShot, stagedBytes: 0)
            change(&peers, &asker, now: 40 + gap, reply: 90)
            #expect(peers.othersMayJoin(at: 40 + gap), "the one-shot client might send again")
            peers.noteClosed(&oneShot)
            #expect(
                !peers.othersMayJoin(at: 40 + gap),
                "gone \(gap) ms after its change: only the asker sends, and it waits")
            peers.noteClosed(&oneShot)
            #expect(!peers.othersMayJoin(at: 40 + gap), "closing twice removes it once")
            // The next millisecond starts from the clients still there.
            peers.update(&asker, stagedBytes: 0)
            change(&peers, &asker, now: 41 + gap, reply: 90)
            #expect(!peers.othersMayJoin(at: 41 + gap))
        }
    }

    @Test("a client that only reads, or sent long ago, does not stand in for one sending now")
    func waitingReadersDoNotCountForSenders() {
        var peers = FlushPeers()
        var reader = FlushPeers.Client(), pipeliner = FlushPeers.Client(), oldWriter = FlushPeers.Client()
        change(&peers, &oldWriter, now: 1)
        peers.update(&oldWriter, stagedBytes: 0)
        // A pipelining client sends at 10: it may send more at any time.
        change(&peers, &pipeliner, now: 10)
        change(&peers, &pipeliner, now: 10, unwritten: 100)
        #expect(peers.othersMayJoin(at: 10))
        // A read reply staged for a client that never changed anything, and one for a client
        // whose change was long ago: both wait, neither is the one that may still send.
        peers.update(&reader, stagedBytes: 300)
        peers.update(&oldWriter, stagedBytes: 300)
        #expect(peers.waiting == 2)
        #expect(peers.othersMayJoin(at: 10), "the pipelining client is still sending")
        peers.noteClosed(&pipeliner)
        #expect(!peers.othersMayJoin(at: 10))
    }

    /// The model: a client waits while it has unwritten replies and its latest change was a
    /// request-reply one; others may join at `at` while an open client that sent a change in
    /// that millisecond or the one before is not waiting. Every step is checked at `now` and
    /// at the next two milliseconds (before any change in them: who counts then is decided
    /// by the changes so far). A closed client's slot is taken by a new connection when the
    /// step draws it again, so the clients stay alive: the test asserts that at least 90 % of
    /// the steps act on an open client (about 96 %; a close is one step in 24).
    @Test(
        "for any history: waiting counts the request-reply clients with unwritten replies; others may join while a client that sent a change in this millisecond or the one before is not waiting"
    )
    func waitingMatchesTheClients() {
        let slots = 6
        var steps = 0, liveSteps = 0
        for seed in UInt64(1)...300 {
            var generator = SplitMix64(seed: seed)
            var peers = FlushPeers()
            var clients = Array(repeating: FlushPeers.Client(), count: slots)
            var staged = Array(repeating: 0, count: slots)
            var pipelining = Array(repeating: false, count: slots)
            var open = Array(repeating: true, count: slots)
            var sentAt: [UInt64?] = Array(repeating: nil, count: slots)
            var now: UInt64 = 0
            for _ in 0..<300 {
                let index = Int.random(in: 0..<slots, using: &generator)
                let action = Int.random(in: 0..<24, using: &generator)
                steps += 1
                if !open[index] {
                    // A new connection in the slot of one that closed.
                    clients[index] = FlushPeers.Client()
                    (staged[index], pipelining[index], open[index], sentAt[index]) = (0, false, true, nil)
                } else {
                    liveSteps += 1
                    switch action {
                    case 0..<8:
                        pipelining[index] = staged[index] > 0
                        peers.noteChange(of: &clients[index], stagedBytes: staged[index], now: now)
                        sentAt[index] = now
                        staged[index] += 100
                        peers.update(&clients[index], stagedBytes: staged[index])
                    case 8..<12:
                        staged[index] = 0
                        peers.update(&clients[index], stagedBytes: 0)
                    case 12..<16:
                        // A read: its reply is staged, nothing is sent to the store.
                        staged[index] += 40
                        peers.update(&clients[index], stagedBytes: staged[index])
                    case 16..<23:
                        now += UInt64.random(in: 0...2, using: &generator)
                    default:
                        peers.noteClosed(&clients[index])
                        open[index] = false
                    }
                }
                let isWaiting = (0..<slots).map { open[$0] && staged[$0] > 0 && !pipelining[$0] }
                #expect(peers.waiting == isWaiting.filter { $0 }.count, "waiting, seed \(seed)")
                for later in now...now + 2 {
                    let sendingAndNotWaiting = (0..<slots).contains { index in
                        guard open[index], let sent = sentAt[index] else { return false }
                        return sent + 1 >= later && !isWaiting[index]
                    }
                    #expect(
                        peers.othersMayJoin(at: later) == sendingAndNotWaiting,
                        "othersMayJoin(at: now + \(later - now)), seed \(seed)")
                }
            }
        }
        #expect(liveSteps * 10 >= steps * 9, "\(liveSteps) of \(steps) steps acted on an open client")
    }
}
