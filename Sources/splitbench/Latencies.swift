/// Latencies of one run, in nanoseconds, kept whole and sorted once at the end (a stand-in
/// for HdrHistogram until the package is added: exact, and at a few million samples cheap).
struct Latencies {
    private(set) var samples: [UInt64] = []

    init(expected: Int = 1 << 16) {
        samples.reserveCapacity(expected)
    }

    @inline(__always)
    mutating func record(_ nanoseconds: UInt64) {
        samples.append(nanoseconds)
    }

    mutating func merge(_ other: Latencies) {
        samples.append(contentsOf: other.samples)
    }

    func summary() -> LatencySummary {
        LatencySummary(samples.sorted())
    }
}

/// Percentiles of a set of latencies, in microseconds.
struct LatencySummary: Sendable {
    var count: Int
    var p50: Double
    var p99: Double
    var p999: Double
    var max: Double
    var mean: Double

    static let empty = LatencySummary([])

    /// `sorted` must be in ascending order (nanoseconds).
    init(_ sorted: [UInt64]) {
        count = sorted.count
        p50 = Self.percentile(0.50, of: sorted)
        p99 = Self.percentile(0.99, of: sorted)
        p999 = Self.percentile(0.999, of: sorted)
        max = Double(sorted.last ?? 0) / 1000
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, &+)) / Double(sorted.count) / 1000
    }

    /// Nearest-rank percentile: the smallest sample with at least `fraction` of all samples at
    /// or below it.
    static func percentile(_ fraction: Double, of sorted: [UInt64]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return Double(sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]) / 1000
    }
}
