import ArgumentParser

/// `splitbench idle-scenes`: resident memory per idle scene, and restart time.
struct IdleScenesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle-scenes",
        abstract: "Create N scenes, measure RSS per idle scene, restart and time the restore.",
        discussion: "Always starts its own daemon (it restarts it). Goals at 100k: <= 4 KiB per scene, restart <= 2 s.")

    @OptionGroup var daemon: DaemonOptions

    @Option(help: "Scenes to create.")
    var scenes = 100_000

    @Flag(help: "Keep the work folder (database, log) afterwards.")
    var keep = false

    func run() throws {
        daemon.pinClient()
        let result = try IdleScenes.run(options: daemon, scenes: scenes, keep: keep)
        print(IdleScenes.report(result))
        if result.restoredScenes != scenes { throw ExitCode(3) }
    }
}
