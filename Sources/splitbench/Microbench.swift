/// A small timing harness for microbenchmarks: calibrates a batch size that runs for about
/// `roundSeconds`, runs `rounds` batches and reports the median time per operation.
struct Microbench {
    var rounds = 7
    var roundSeconds = 0.1

    struct Measurement {
        var name: String
        var nanosecondsPerOperation: Double
        var operationsPerSecond: Double { nanosecondsPerOperation > 0 ? 1e9 / nanosecondsPerOperation : 0 }
        var microseconds: Double { nanosecondsPerOperation / 1000 }
    }

    /// Times `operation`, which must feed its result to `consume` so it is not optimized away.
    func measure(_ name: String, _ operation: () throws -> Void) rethrows -> Measurement {
        var batch = 1
        while true {
            let started = monotonicNanoseconds()
            for _ in 0..<batch { try operation() }
            let elapsed = Double(monotonicNanoseconds() - started) / 1e9
            if elapsed >= roundSeconds / 4 || batch >= 1 << 30 {
                batch = max(1, Int(Double(batch) * roundSeconds / max(elapsed, 1e-9)))
                break
            }
            batch *= 4
        }
        var perOperation: [Double] = []
        for _ in 0..<rounds {
            let started = monotonicNanoseconds()
            for _ in 0..<batch { try operation() }
            perOperation.append(Double(monotonicNanoseconds() - started) / Double(batch))
        }
        perOperation.sort()
        return Measurement(name: name, nanosecondsPerOperation: perOperation[perOperation.count / 2])
    }
}

/// Keeps a value alive and observable so the optimizer cannot drop the work that made it.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func microTable(_ measurements: [Microbench.Measurement]) -> Table {
    var table = Table(["operation", "µs/op", "ops/s"])
    for measurement in measurements {
        table.add([measurement.name, fixed(measurement.microseconds, 2), rate(measurement.operationsPerSecond)])
    }
    return table
}
