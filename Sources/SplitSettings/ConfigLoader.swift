import Configuration
import Foundation
import Glibc
import Logging
import SplitCore
import SplitWire
import SystemPackage

/// Where configuration comes from, highest precedence first: command-line flags, `SPLITD_*`
/// environment variables, the config file, the built-in defaults (`ConfigKeys`).
public struct ConfigSources: Sendable {
    /// Values given on the command line, by dotted key (`socket.path`).
    public var flags: [String: String] = [:]
    /// The JSON config file, if any.
    public var configFile: String?
    public var environment: [String: String]

    public init(
        flags: [String: String] = [:], configFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.flags = flags
        self.configFile = configFile
        self.environment = environment
    }
}

/// A configuration that cannot be used, with every problem found.
public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var problems: [String]
    public var description: String { "invalid configuration: " + problems.joined(separator: "; ") }
}

/// Layers the sources with swift-configuration and resolves them into `ServerSettings`.
public enum ConfigLoader {
    public static func load(_ sources: ConfigSources) async throws -> ServerSettings {
        var problems: [String] = []
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "command line", values: inMemoryValues(sources.flags)),
            EnvironmentVariablesProvider(environmentVariables: environmentValues(sources.environment)),
        ]
        var fileRoot: JSONObject?
        if let file = sources.configFile {
            let (root, found) = try readFile(file)
            fileRoot = root
            problems += found
            providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(file)))
        }
        let collector = ErrorCollector(environment: sources.environment)
        let reader = ConfigReader(providers: providers, accessReporter: collector)
        let origins = ConfigOrigins(sources: sources, fileRoot: fileRoot)
        let settings = resolve(reader, environment: sources.environment, origins: origins, problems: &problems)
        problems += collector.problems
        guard problems.isEmpty else { throw ConfigError(problems: problems) }
        return settings
    }

    private static func resolve(
        _ reader: ConfigReader, environment: [String: String], origins: ConfigOrigins,
        problems: inout [String]
    ) -> ServerSettings {
        func string(_ key: String) -> String? {
            guard let value = reader.string(forKey: ConfigKey(key)), !value.isEmpty else { return nil }
            return value
        }
        // A value refused is named as the user set it (the file, the variable, the flag),
        // as a wrong type is; the value follows where the name does not show it.
        func int(_ key: String, range: ClosedRange<Int> = 1...Int.max) -> Int {
            let fallback = defaultInt(key)
            let value = reader.int(forKey: ConfigKey(key), default: fallback)
            guard range.contains(value) else {
                let (subject, showsValue) = origins.subject(key, origins.origin(of: key) { Int($0) == value })
                problems.append(
                    "\(subject) must be in \(range.lowerBound)...\(range.upperBound == Int.max ? "" : String(range.upperBound))"
                        + (showsValue ? "" : ", got \(value)"))
                return fallback
            }
            return value
        }
        func choice(_ key: String) -> String {
            let value = string(key) ?? defaultString(key)
            if case .choice(let allowed)? = ConfigKeys.spec(key)?.kind, !allowed.contains(value) {
                let (subject, showsValue) = origins.subject(key, origins.origin(of: key) { $0 == value })
                problems.append(
                    "\(subject) must be one of \(allowed.joined(separator: ", "))"
                        + (showsValue ? "" : ", got '\(value)'"))
                return defaultString(key)
            }
            return value
        }
        /// `value (N, from WHERE)` for a problem relating two keys.
        func valued(_ key: String, _ value: Int) -> String {
            "\(key) (\(value), \(origins.origin(of: key) { Int($0) == value }.shortName))"
        }

        let databaseSetting = string("database.path") ?? DefaultPaths.database(environment: environment)
        var settings = ServerSettings(
            socketPath: absolute(string("socket.path") ?? DefaultPaths.socket(environment: environment)),
            databasePath: databaseSetting == ":memory:" ? nil : absolute(databaseSetting))
        // sockaddr_un holds 108 bytes with the terminating NUL; a longer path would be cut
        // short by bind, leaving a socket at another path.
        if settings.socketPath.utf8.count > maxSocketPathBytes {
            problems.append(
                "socket.path is \(settings.socketPath.utf8.count) bytes long; a Unix socket path can have at most \(maxSocketPathBytes): \(settings.socketPath)"
            )
        }
        if let group = string("socket.group") {
            if let gid = groupID(group) {
                settings.socketGroup = gid
            } else {
                problems.append("socket.group: no group '\(group)'")
            }
        }
        settings.activationName = string("socket.activationName") ?? defaultString("socket.activationName")
        settings.backlog = Int32(clamping: int("socket.backlog", range: 1...65535))
        settings.durability = DatabaseDurability(rawValue: choice("database.durability")) ?? .full
        settings.integrityCheck = DatabaseIntegrityCheck(rawValue: choice("database.integrityCheck")) ?? .quick
        settings.busyTimeoutMilliseconds = Int32(clamping: int("database.busyTimeoutMilliseconds", range: 0...60_000))
        settings.journalRetention = Int64(int("database.journalRetention", range: 0...Int.max))
        settings.historyRevisions = Int64(int("database.historyRevisions", range: 0...100_000_000))
        settings.checkpointEvery = int("database.checkpointEvery", range: 1...1_000_000)
        settings.replayBudget = int("database.replayBudget", range: 0...1_000_000_000)
        settings.flushDelayMicroseconds = int("database.flushDelayMicroseconds", range: 0...100_000)
        settings.flushDelayCount = int("database.flushDelayCount", range: 1...1_000_000)
        settings.walCheckpointPages = Int32(int("database.walCheckpointPages", range: 100...1_000_000))
        settings.logLevel = Logger.Level(rawValue: choice("log.level")) ?? .info
        settings.maxLineLength = int("limits.maxLineLength", range: 64...(64 << 20))
        settings.partialLineTimeoutSeconds = int("limits.partialLineTimeoutSeconds", range: 0...86_400)
        settings.maxClients = int("limits.maxClients")
        settings.maxScenes = int("limits.maxScenes")
        var limits = CoreLimits()
        limits.maxStackDepth = int("limits.maxStackDepth")
        limits.maxIdLength = int("limits.maxIdLength", range: 1...128)
        limits.maxPresentations = int("limits.maxPresentations")
        limits.maxTabs = int("limits.maxTabs")
        limits.maxSnapshotSizes = int("limits.maxSnapshotSizes")
        settings.coreLimits = limits
        settings.outputSoftLimit = int("output.softLimitBytes", range: 4096...Int.max)
        settings.outputHardLimit = int("output.hardLimitBytes", range: 4096...Int.max)
        settings.outputTotalLimit = int("output.totalLimitBytes", range: 4096...Int.max)
        settings.coalescesSlowReaderPushes = choice("output.slowReaderPushes") == "coalesce"
        if settings.outputTotalLimit < settings.outputHardLimit {
            problems.append(
                "\(valued("output.totalLimitBytes", settings.outputTotalLimit)) must be at least \(valued("output.hardLimitBytes", settings.outputHardLimit))"
            )
        }
        if settings.outputHardLimit <= settings.outputSoftLimit {
            problems.append(
                "\(valued("output.hardLimitBytes", settings.outputHardLimit)) must be larger than \(valued("output.softLimitBytes", settings.outputSoftLimit))"
            )
        }
        // An id that is no uid or gid is refused, not dropped: dropping it could leave an
        // allow-list that locks every client out (root included) without a word.
        var invalidIDs = false
        func ids(_ key: String) -> Set<UInt32>? {
            guard let values = reader.intArray(forKey: ConfigKey(key)) else { return nil }
            var ids = Set<UInt32>()
            for value in values {
                if let id = UInt32(exactly: value) {
                    ids.insert(id)
                } else {
                    let origin = origins.origin(of: key) { text in
                        text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                            == values.map { $0 }
                    }
                    problems.append(
                        "\(origins.subject(key, origin).text): \(value) is not a valid id (0...\(UInt32.max))")
                    invalidIDs = true
                }
            }
            return ids
        }
        var allow = PeerAllowList.ownerAndRoot()
        if let uids = ids("access.allowUids") { allow.uids = uids }
        allow.gids = ids("access.allowGids") ?? []
        // Emptied by an invalid id only: that id is the problem to report, not the emptiness.
        if allow.uids.isEmpty, allow.gids.isEmpty, settings.socketGroup == nil, !invalidIDs {
            problems.append("access.allowUids and access.allowGids are both empty: no client could connect")
        }
        settings.allowList = allow
        settings.shutdownTimeoutMilliseconds = UInt64(int("shutdown.timeoutMilliseconds", range: 0...600_000))
        settings.busyPollMicroseconds = UInt64(int("loop.busyPollMicroseconds", range: 0...100_000))
        settings.windowedRegularMinWidth = int("devices.windowedRegularMinWidth", range: 0...100_000)
        if let file = string("devices.ruleSetsFile"), !file.isEmpty {
            let path = absolute(file)
            settings.ruleSetsFile = path
            settings.ruleSetsJSON = ServerSettings.readRuleSets(path)
        }
        settings.cluster = cluster(string, problems: &problems)
        // Checked now, so that --check-config and a reload name a bad file instead of the start.
        do {
            _ = try settings.deviceCatalog()
        } catch {
            // Its own problems, without a second "invalid configuration: " in front.
            problems += error.problems
        }
        return settings
    }

    /// Cluster mode when `cluster.endpoints` is set (TLS file paths made absolute), else nil.
    private static func cluster(_ string: (String) -> String?, problems: inout [String]) -> ClusterSettings? {
        guard let list = string("cluster.endpoints") else {
            for key in ["cluster.node", "cluster.tls.ca", "cluster.tls.cert", "cluster.tls.key"]
            where string(key) != nil {
                problems.append("\(key) is set but cluster.endpoints is not (--cluster, SPLITD_CLUSTER_ENDPOINTS)")
            }
            return nil
        }
        let endpoints = ClusterSettings.splitEndpoints(list)
        let node = string("cluster.node")
        let prefix = string("cluster.prefix") ?? defaultString("cluster.prefix")
        let tls = (
            ca: string("cluster.tls.ca").map(absolute), cert: string("cluster.tls.cert").map(absolute),
            key: string("cluster.tls.key").map(absolute)
        )
        let found = ClusterSettings.problems(endpoints: endpoints, node: node, prefix: prefix, tls: tls)
        problems += found
        guard found.isEmpty, let node else { return nil }
        return ClusterSettings(
            endpoints: endpoints, node: node, prefix: prefix, tlsCA: tls.ca, tlsCert: tls.cert, tlsKey: tls.key)
    }

    // MARK: Layers

    private static func inMemoryValues(_ flags: [String: String]) -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, text) in flags {
            let content: ConfigContent
            switch ConfigKeys.spec(key)?.kind {
            case .int?:
                guard let number = Int(text) else { content = .string(text); break }
                content = .int(number)
            case .intArray?:
                // Any element that is no integer leaves the text as it is: reading it as an
                // array then fails and is reported, instead of the element being dropped.
                let elements = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                content = elements.contains(nil) ? .string(text) : .intArray(elements.compactMap { $0 })
            default:
                content = .string(text)
            }
            values[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(content, isSecret: false)
        }
        return values
    }

    /// `SPLITD_LIMITS_MAX_CLIENTS` -> the provider's `LIMITS_MAX_CLIENTS`, plus the short
    /// aliases (`SPLITD_SOCKET`...); the full names win over aliases. Other variables are
    /// ignored, and so is an empty one (`SPLITD_SOCKET= splitd` is `splitd`, as for
    /// `XDG_RUNTIME_DIR` and splitctl).
    static func environmentValues(_ environment: [String: String]) -> [String: String] {
        var values: [String: String] = [:]
        for (alias, key) in ConfigKeys.environmentAliases {
            guard let value = environment[alias], !value.isEmpty, let spec = ConfigKeys.spec(key) else { continue }
            values[String(spec.environmentName.dropFirst("SPLITD_".count))] = value
        }
        for spec in ConfigKeys.all {
            guard let value = environment[spec.environmentName], !value.isEmpty else { continue }
            values[String(spec.environmentName.dropFirst("SPLITD_".count))] = value
        }
        return values
    }

    /// Keys of the file that splitd does not know (typos would otherwise be silently ignored)
    /// and values of the wrong JSON type (the provider would read `true` as the integer 1).
    static func fileProblems(inFile path: String) throws -> [String] {
        try readFile(path).problems
    }

    /// The file's top-level object and its `fileProblems`.
    private static func readFile(_ path: String) throws -> (root: JSONObject, problems: [String]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(problems: ["cannot read config file \(path): \(unreadableReason(path))"])
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(data))
        } catch {
            throw ConfigError(problems: ["config file \(path) is not valid JSON: \(error.description(in: Array(data)))"]
            )
        }
        guard case .object(let root) = value else {
            throw ConfigError(problems: ["config file \(path) must hold a JSON object"])
        }
        var problems: [String] = []
        let sections = Set(ConfigKeys.all.map { $0.key.prefix { $0 != "." } })
        for member in root where !member.key.hasPrefix("#") {
            guard sections.contains(member.key[...]) else {
                problems.append(
                    "\(path): unknown section '\(member.key)' (sections: \(sections.sorted().joined(separator: ", ")))")
                continue
            }
            guard case .object(let section) = member.value else {
                problems.append("\(path): '\(member.key)' must be an object of settings")
                continue
            }
            for setting in section where !setting.key.hasPrefix("#") {
                let key = member.key + "." + setting.key
                // An object of its own inside the section (`cluster.tls`).
                if ConfigKeys.spec(key) == nil, ConfigKeys.all.contains(where: { $0.key.hasPrefix(key + ".") }) {
                    guard case .object(let inner) = setting.value else {
                        problems.append("\(path): '\(key)' must be an object of settings")
                        continue
                    }
                    for item in inner where !item.key.hasPrefix("#") {
                        guard let spec = ConfigKeys.spec(key + "." + item.key) else {
                            problems.append("\(path): unknown setting '\(key).\(item.key)'")
                            continue
                        }
                        if let expected = typeProblem(item.value, spec.kind) {
                            problems.append("\(path): '\(spec.key)' must be \(expected)")
                        }
                    }
                    continue
                }
                guard let spec = ConfigKeys.spec(key) else {
                    problems.append("\(path): unknown setting '\(key)'")
                    continue
                }
                if let expected = typeProblem(setting.value, spec.kind) {
                    problems.append("\(path): '\(key)' must be \(expected)")
                }
            }
        }
        return (root, problems)
    }

    /// Why `path` could not be read: what the file system says (a folder, a missing file, a
    /// permission), not a guess.
    static func unreadableReason(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased()
        }
        if status.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
        let descriptor = open(path, O_RDONLY)
        guard descriptor < 0 else {
            close(descriptor)
            return "it could not be read"
        }
        return String(cString: strerror(errno)).lowercased()
    }

    /// What a value of `kind` must be, if `value` is not that.
    private static func typeProblem(_ value: JSONValue, _ kind: ConfigKeySpec.Kind) -> String? {
        func isInteger(_ value: JSONValue) -> Bool {
            switch value {
            case .int: true
            case .double(let number): number == number.rounded() && abs(number) < 9.2e18
            default: false
            }
        }
        switch kind {
        case .string, .choice:
            if case .string = value { return nil }
            return "a string"
        case .int:
            return isInteger(value) ? nil : "an integer"
        case .intArray:
            if case .array(let elements) = value, elements.allSatisfy(isInteger) { return nil }
            return "an array of integers"
        }
    }

    // MARK: Helpers

    /// The longest Unix socket path (`sizeof(sockaddr_un.sun_path)` - 1).
    static let maxSocketPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static func defaultInt(_ key: String) -> Int {
        ConfigKeys.spec(key)?.defaultJSON.flatMap { Int($0) } ?? 0
    }

    private static func defaultString(_ key: String) -> String {
        guard let json = ConfigKeys.spec(key)?.defaultJSON else { return "" }
        return (try? JSONParser.parse(json))?.string ?? ""
    }

    private static func groupID(_ name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }

    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// Which layer a setting's value came from, to name it in a problem as the user wrote it.
struct ConfigOrigins {
    enum Origin {
        /// A flag (`--durability`), or nil for a key that has no flag of its own.
        case flag(String?)
        /// The variable that was used (the long name, else its alias) and its text.
        case environment(name: String, value: String)
        case file(String)
        case defaults

        /// Where, in a few words: `from --durability`, `from SPLITD_X`, `from f.json`, `the default`.
        var shortName: String {
            switch self {
            case .flag(let name?): "from \(name)"
            case .flag(nil): "from the command line"
            case .environment(let name, _): "from \(name)"
            case .file(let path): "from \(path)"
            case .defaults: "the default"
            }
        }
    }

    var sources: ConfigSources
    var fileRoot: JSONObject?

    /// The highest layer that sets `key` to a value `matches` accepts (the one the reader
    /// took: a text that is not of the key's type is passed over, as the reader does).
    func origin(of key: String, matching matches: (String) -> Bool) -> Origin {
        if let text = sources.flags[key], matches(text) { return .flag(ConfigKeys.flagNames[key]) }
        if let spec = ConfigKeys.spec(key) {
            // The long name wins over an alias; an empty variable is unset.
            let names =
                [spec.environmentName] + ConfigKeys.environmentAliases.filter { $0.value == key }.map(\.key).sorted()
            if let name = names.first(where: { sources.environment[$0]?.isEmpty == false }),
                let text = sources.environment[name], matches(text)
            {
                return .environment(name: name, value: text)
            }
        }
        if let path = sources.configFile, let fileRoot {
            let parts = key.split(separator: ".").map(String.init)
            if parts.count == 2, fileRoot[parts[0]]?.object?[parts[1]] != nil { return .file(path) }
            if parts.count == 3, fileRoot[parts[0]]?.object?[parts[1]]?.object?[parts[2]] != nil { return .file(path) }
        }
        return .defaults
    }

    /// How a problem names `key` set in `origin`, in the style of a wrong type's:
    /// `f.json: 'key'`, `SPLITD_KEY='text' (key)`, `--flag (key)`, `key (command line)`, `key`;
    /// `showsValue` when that includes the value as written.
    func subject(_ key: String, _ origin: Origin) -> (text: String, showsValue: Bool) {
        switch origin {
        case .flag(let name?): ("\(name) (\(key))", false)
        case .flag(nil): ("\(key) (command line)", false)
        case .environment(let name, let value): ("\(name)='\(value)' (\(key))", true)
        case .file(let path): ("\(path): '\(key)'", false)
        case .defaults: (key, false)
        }
    }
}

/// Collects values that exist but cannot be read as the expected type (swift-configuration's
/// plain getters would otherwise fall back to the default silently), said in the user's
/// terms: the variable or flag that was set, its value, and what it must be. A config file's
/// wrong types are reported by `fileProblems` already, with the file's name.
private final class ErrorCollector: AccessReporter, @unchecked Sendable {
    // @unchecked: `found` is guarded by `lock`; `environment` is not changed.
    private let lock = NSLock()
    private var found: [String] = []
    private let environment: [String: String]

    init(environment: [String: String]) { self.environment = environment }

    /// What a value of `kind` must be, for a message.
    private static func expectation(_ kind: ConfigKeySpec.Kind?) -> String {
        switch kind {
        case .int?: "an integer"
        case .intArray?: "a comma-separated list of integers"
        default: "a string"
        }
    }

    /// The problem in the user's terms, nil for a config file's (reported by `fileProblems`).
    private func problem(key: String, provider: String?) -> String? {
        let spec = ConfigKeys.spec(key)
        let expected = Self.expectation(spec?.kind)
        guard let provider else { return "\(key) must be \(expected)" }
        if provider.contains("FileProvider") { return nil }
        if provider.contains("Environment"), let name = spec?.environmentName {
            let value = environment[name] ?? ""
            return "\(name)='\(value)' (\(key)) must be \(expected)"
        }
        return "\(key) (\(provider)) must be \(expected)"
    }

    var problems: [String] {
        lock.lock()
        defer { lock.unlock() }
        return found
    }

    func report(_ event: AccessEvent) {
        let key = event.metadata.key.components.joined(separator: ".")
        let failedProvider = event.providerResults.first { if case .failure = $0.result { true } else { false } }?
            .providerName
        let failed: Bool
        if event.conversionError != nil {
            failed = true
        } else if case .failure = event.result {
            failed = true
        } else {
            failed = failedProvider != nil
        }
        guard failed, let problem = problem(key: key, provider: failedProvider) else { return }
        lock.lock()
        found.append(problem)
        lock.unlock()
    }
}
