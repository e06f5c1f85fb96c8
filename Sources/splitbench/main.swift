// The entry point: every benchmark is a subcommand of `SplitBench` (see SplitBench.swift).
SplitBench.main()
