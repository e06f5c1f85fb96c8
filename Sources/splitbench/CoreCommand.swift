import ArgumentParser

/// `splitbench core`: the core microbenchmarks.
struct CoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core", abstract: "Microbenchmarks of the core reducer and snapshot sessions.")

    @Option(help: "Timed rounds per benchmark (the median is reported).")
    var rounds = 7

    func run() throws {
        let results = try CoreBench.run(Microbench(rounds: rounds))
        print(microTable(results).render())
    }
}
