/// Whether a flush should wait for more changes to join it: only while some client that is
/// sending right now is not yet waiting for that flush.
///
/// A flush costs the core about the same whatever it covers, so a flush waits for company
/// (`database.flushDelay*`) when many small turns each need one, as in a storm of 1000
/// windows. But waiting pays only if someone may still send: 2-15 clients that each keep
/// one request in flight are all waiting for the flush, and the wait only added its whole
/// 600 µs to every round trip (10 clients: 16k changes/s at 667 µs p50), while two clients
/// got a flush each, one after the other, inline on the loop (5k changes/s, about what one
/// client alone gets). PostgreSQL's `commit_delay` has the same guard (`commit_siblings`).
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

    /// Clients counted as waiting.
    private(set) var waiting = 0
    /// Distinct clients that sent a request in the loop clock's current millisecond, and in
    /// it or the one before it.
    private var sendingNow = 0
    private var sendingRecently = 0
    private var millisecond: UInt64 = 0

    /// A request of `client` changed something at `now` (the loop's clock, `uv_now`, in
    /// milliseconds), with `stagedBytes` of replies to its earlier requests not yet written.
    /// Its reply is staged next, and `update` then counts it as waiting or not.
    mutating func noteChange(of client: inout Client, stagedBytes: Int, now: UInt64) {
        if now != millisecond {
            // The clients of the millisecond that ended are the recent ones, if it was the
            // one just before.
            sendingRecently = now == millisecond &+ 1 ? sendingNow : 0
            sendingNow = 0
            millisecond = now
        }
        if client.sendingMillisecond != now {
            // Counted among the recent ones already if it sent in the millisecond before.
            if now == 0 || client.sendingMillisecond != now - 1 { sendingRecently += 1 }
            client.sendingMillisecond = now
            sendingNow += 1
        }
        client.pipelining = stagedBytes > 0
    }

    /// `client`'s unwritten reply bytes are now `stagedBytes` (a reply staged or answered).
    mutating func update(_ client: inout Client, stagedBytes: Int) {
        let isWaiting = stagedBytes > 0 && !client.pipelining
        guard isWaiting != client.isWaiting else { return }
        client.isWaiting = isWaiting
        waiting += isWaiting ? 1 : -1
    }

    /// `client` is gone: it neither waits nor sends any more.
    mutating func noteClosed(_ client: inout Client) {
        update(&client, stagedBytes: 0)
        guard let sent = client.sendingMillisecond else { return }
        client.sendingMillisecond = nil
        if sent == millisecond {
            sendingNow -= 1
            sendingRecently -= 1
        } else if millisecond > 0, sent == millisecond - 1 {
            sendingRecently -= 1
        }
    }

    /// Whether a client sending right now may not be waiting yet: then a flush may wait for
    /// it (up to `database.flushDelayMicroseconds`), else it starts at once.
    var othersMayJoin: Bool { sendingRecently > waiting }
}
