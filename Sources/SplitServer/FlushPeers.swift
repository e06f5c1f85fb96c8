/// Whether a flush should wait for more changes to join it: only while some client that is
/// sending right now is not yet waiting for that flush.
///
/// A flush costs the core about the same whatever it covers, so a flush waits for company
/// (`database.flushDelay*`) when many small turns each need one, as in a storm of 1000
/// windows. But waiting pays only if someone may still send: 2-15 clients that each keep
/// one request in flight are all waiting for the flush, and the wait would only add its
/// whole length to every round trip, while two clients would get a flush each, one after
/// the other, inline on the loop. PostgreSQL's `commit_delay` has the same guard (`commit_siblings`).
///
/// "Sending right now": a request that changed something (a reply reporting a change), read
/// in the loop clock's current or previous millisecond; a read never adds to a flush, and a
/// client that closed sends nothing more. "Waiting": a reply is staged or held for the
/// client, and the client sent its latest change only after every earlier request was
/// answered (a request-reply exchange). A client that sends before its replies arrive
/// (pipelining) may send more at any time, so it never counts as waiting.
struct FlushPeers {
    /// What `FlushPeers` keeps of one client (in its `ClientSession`).
    struct Client {
        /// The loop clock's millisecond of the client's latest change (nil: none, or closed).
        var sendingMillisecond: UInt64?
        /// Its latest change came while replies to earlier requests were still unwritten.
        var pipelining = false
        /// Whether it is counted in `waiting`.
        var isWaiting = false
    }

    /// The clients whose latest change came in one millisecond, and how many of them wait.
    private struct Senders {
        var count = 0
        var waiting = 0
        /// Senders that may still add a change to a flush.
        var notWaiting: Int { count - waiting }
    }

    /// Clients counted as waiting, whenever they sent.
    private(set) var waiting = 0
    /// The senders of `millisecond` and of the one before it: counted per client, not per
    /// request, so that "some sender is not waiting" is exact (a client that only reads, or
    /// sent long ago, waits without standing in for one that is sending now).
    private var current = Senders()
    private var previous = Senders()
    private var millisecond: UInt64 = 0

    /// A request of `client` changed something at `now` (the loop's clock, `EventLoop.now`, in
    /// milliseconds), with `stagedBytes` of replies to its earlier requests not yet written.
    /// Its reply is staged next, and `update` then counts it as waiting or not.
    mutating func noteChange(of client: inout Client, stagedBytes: Int, now: UInt64) {
        if now != millisecond {
            // The senders of the millisecond that ended are the previous ones if it was the
            // one just before; older ones are not sending now.
            previous = now == millisecond &+ 1 ? current : Senders()
            current = Senders()
            millisecond = now
        }
        if client.sendingMillisecond != now {
            leaveSenders(client)
            client.sendingMillisecond = now
            current.count += 1
            if client.isWaiting { current.waiting += 1 }
        }
        client.pipelining = stagedBytes > 0
    }

    /// `client`'s unwritten reply bytes are now `stagedBytes` (a reply staged or answered).
    mutating func update(_ client: inout Client, stagedBytes: Int) {
        let isWaiting = stagedBytes > 0 && !client.pipelining
        guard isWaiting != client.isWaiting else { return }
        client.isWaiting = isWaiting
        let step = isWaiting ? 1 : -1
        waiting += step
        if client.sendingMillisecond == millisecond {
            current.waiting += step
        } else if isPrevious(client.sendingMillisecond) {
            previous.waiting += step
        }
    }

    /// `client` is gone: it neither waits nor sends any more.
    mutating func noteClosed(_ client: inout Client) {
        update(&client, stagedBytes: 0)
        leaveSenders(client)
        client.sendingMillisecond = nil
    }

    /// Whether a client that sent a change at `now` (the loop's clock) or in the millisecond
    /// before is not waiting yet: then a flush may wait for it (up to
    /// `database.flushDelayMicroseconds`), else it starts at once.
    func othersMayJoin(at now: UInt64) -> Bool {
        if now <= millisecond { return current.notWaiting + previous.notWaiting > 0 }
        if now == millisecond &+ 1 { return current.notWaiting > 0 }
        return false
    }

    /// Takes `client` out of the senders it is counted among (if its change is recent).
    private mutating func leaveSenders(_ client: Client) {
        if client.sendingMillisecond == millisecond {
            current.count -= 1
            if client.isWaiting { current.waiting -= 1 }
        } else if isPrevious(client.sendingMillisecond) {
            previous.count -= 1
            if client.isWaiting { previous.waiting -= 1 }
        }
    }

    private func isPrevious(_ sent: UInt64?) -> Bool {
        millisecond > 0 && sent == millisecond - 1
    }
}
