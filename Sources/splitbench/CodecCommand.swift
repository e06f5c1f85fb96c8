import ArgumentParser

/// `splitbench codec`: the codec microbenchmarks, SplitWire against Foundation.
struct CodecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec",
        abstract: "Microbenchmarks of the wire codec (resize request, change response) vs Foundation JSON.")

    @Option(help: "Timed rounds per benchmark (the median is reported).")
    var rounds = 7

    func run() throws {
        let results = try CodecBench.run(Microbench(rounds: rounds))
        print(microTable(results).render())
        let sizes = try CodecBench.sizes()
        print("change response: \(sizes.response) bytes; scene state blob: \(sizes.blob) bytes")
    }
}
