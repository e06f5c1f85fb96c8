import ArgumentParser
import Foundation
import Logging
import SplitServer
import SplitStore

@main
struct Splitd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "splitd",
        abstract: "The split-view state daemon (protocol 1 over a Unix socket).",
        version: SplitdVersion.current)

    @Option(help: "Unix socket to listen on.")
    var socket: String

    @Option(help: "SQLite database file.")
    var database: String?

    @Option(help: "full or normal.")
    var durability: String = "full"

    func run() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "splitd")
        logger.logLevel = .debug
        var settings = ServerSettings(socketPath: socket, databasePath: database)
        settings.durability = Durability(rawValue: durability) ?? .full
        let status = Daemon.run(settings: settings, logger: logger)
        throw ExitCode(status)
    }
}
