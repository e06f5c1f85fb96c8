import Glibc

/// Nanoseconds of the monotonic clock (the one every latency here is measured with).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// Seconds as nanoseconds.
func nanoseconds(seconds: Double) -> UInt64 {
    UInt64(max(0, seconds) * 1e9)
}

/// Sleeps the calling thread.
func sleep(seconds: Double) {
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
