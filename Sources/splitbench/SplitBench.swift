import ArgumentParser

/// splitd's benchmarks: microbenchmarks of the core and the codec, load against a running
/// (or self-started) daemon, and `suite`, which runs everything with the anchors in one go.
struct SplitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitbench",
        abstract: "Benchmarks for splitd: core and codec microbenchmarks, daemon load, anchors.",
        discussion: """
            Every command is bounded in time. Commands that need a daemon either target one \
            (--socket PATH, plus --pid PID to sample its CPU and memory) or start their own \
            (--splitd PATH) on a temporary socket and database under --work-dir. \
            docs/PERFORMANCE.md explains how to run them and what the goals are.
            """,
        subcommands: [
            CoreCommand.self, CodecCommand.self, LoadCommand.self, StormCommand.self,
            SnapshotCommand.self, FanoutCommand.self, IdleScenesCommand.self, FsyncCommand.self,
            ClusterCommand.self, SuiteCommand.self,
        ])
}
