/// A point in monotonic time after which a blocking call gives up.
public struct Deadline: Sendable {
    public let instant: ContinuousClock.Instant

    public init(_ instant: ContinuousClock.Instant) { self.instant = instant }

    /// Now plus `timeout`.
    public static func after(_ timeout: Duration) -> Deadline {
        Deadline(ContinuousClock.now.advanced(by: timeout))
    }

    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// Remaining time in whole milliseconds for `poll(2)`, rounded up, never negative.
    var pollMilliseconds: Int32 {
        let remaining = ContinuousClock.now.duration(to: instant)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
