import Testing

/// Every end-to-end test runs the real binaries. Serialized: each test starts its own daemon
/// and the machine is small and shared; time-limited so nothing can hang the suite.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct EndToEnd {}
