/// A warning logged at most once per interval; the next one counts those left out.
struct RateLimitedWarning {
    let intervalMilliseconds: UInt64
    private var last: UInt64?
    private var skipped = 0

    init(intervalMilliseconds: UInt64 = 10_000) {
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Whether to log now (`now` in milliseconds): nil to leave it out, else how many were left out since the last one.
    mutating func take(now: UInt64) -> Int? {
        if let last, now - last < intervalMilliseconds {
            skipped += 1
            return nil
        }
        defer { skipped = 0 }
        last = now
        return skipped
    }
}
