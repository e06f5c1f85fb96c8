import Histogram

/// Latencies of one run in nanoseconds, in an HdrHistogram (3 significant digits, from 1 ns
/// to 100 s): constant memory and cost per sample however long the run.
struct Latencies {
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000,
        numberOfSignificantValueDigits: .three)

    init() {}

    @inline(__always)
    mutating func record(_ nanoseconds: UInt64) {
        _ = histogram.record(max(1, nanoseconds))
    }

    mutating func merge(_ other: Latencies) {
        histogram.add(other.histogram)
    }

    func summary() -> LatencySummary {
        guard histogram.totalCount > 0 else { return .empty }
        return LatencySummary(
            count: Int(histogram.totalCount),
            p50: microseconds(histogram.valueAtPercentile(50)),
            p99: microseconds(histogram.valueAtPercentile(99)),
            p999: microseconds(histogram.valueAtPercentile(99.9)),
            max: microseconds(histogram.max), mean: histogram.mean / 1000)
    }

    private func microseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1000 }
}

/// Percentiles of a set of latencies, in microseconds.
struct LatencySummary: Sendable {
    var count: Int
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double
    var mean: Double

    static let empty = LatencySummary(count: 0, p50: 0, p99: 0, p999: 0, max: 0, mean: 0)
}
