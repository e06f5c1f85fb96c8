import ArgumentParser
import Foundation
import SplitSettings

/// Where splitd listens, found with the daemon's own configuration code: `--socket`, else
/// `socket.path` as splitd would resolve it from `SPLITD_SOCKET_PATH` (or its alias
/// `SPLITD_SOCKET`), the config file named by `$SPLITD_CONFIG` (else
/// `$CONFIGURATION_DIRECTORY/splitd.json` if it exists), then the built-in default
/// (`$XDG_RUNTIME_DIR/splitd/splitd.sock`, else `/run/splitd/splitd.sock`). That is
/// `ConfigLoader` and `DefaultPaths` of SplitSettings, so the precedence (flags > environment >
/// config file > defaults) cannot drift from the daemon's.
enum SocketLocation {
    /// The daemon's configuration could not be read, so neither can its socket path.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The socket path; `explicit` (`--socket`) wins and reads nothing else.
    static func resolve(explicit: String?, environment: [String: String]) throws(Failure) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        let sources = ConfigSources(
            configFile: DefaultPaths.configFile(environment: environment), environment: environment)
        do {
            return try loadBlocking(sources).socketPath
        } catch {
            throw Failure(description: "cannot tell where splitd listens: \(error) (give --socket PATH)")
        }
    }

    /// `ConfigLoader.load` is async (swift-configuration's file provider); splitctl's commands are not.
    private static func loadBlocking(_ sources: ConfigSources) throws -> ServerSettings {
        final class Outcome: @unchecked Sendable {
            // @unchecked: written once by the task before `done` is signalled, read after.
            var result: Result<ServerSettings, any Error> = .failure(CancellationError())
            let done = DispatchSemaphore(value: 0)
        }
        let outcome = Outcome()
        Task {
            do {
                outcome.result = .success(try await ConfigLoader.load(sources))
            } catch {
                outcome.result = .failure(error)
            }
            outcome.done.signal()
        }
        outcome.done.wait()
        return try outcome.result.get()
    }

    /// Resolved once per process (attach reconnects, ping prints it).
    static func cached(explicit: String?) throws(Failure) -> String {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let known = cache.paths[explicit ?? ""] { return known }
        let path = try resolve(explicit: explicit, environment: ProcessInfo.processInfo.environment)
        cache.paths[explicit ?? ""] = path
        return path
    }

    private final class Cache: @unchecked Sendable {
        // @unchecked: `paths` is guarded by `lock`.
        let lock = NSLock()
        var paths: [String: String] = [:]
    }

    private static let cache = Cache()
}
