import ArgumentParser
import Foundation
import SplitClient
import SplitWire
#if canImport(Glibc)
import Glibc
#endif

/// `splitctl simulate`: scripted scenarios (docs/SIMULATE.md) with golden files.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run scenario files: resizes, intents, snapshot sessions and expectations; record or check golden layouts.",
        discussion: """
            Each FILE is a scenario (.json, or .yaml/.yml) or a directory of them (docs/SIMULATE.md). \
            Every run gets a fresh scene, deleted afterwards. --record writes one golden file per \
            scenario file, named after it without its extension (default: golden/ beside it); \
            --check compares and prints what changed; --check and --record exclude each other. \
            --json prints the run summary as one JSON object instead of the text report (per \
            file: status, counts, failures, and the golden file's path with --check/--record; \
            then the totals), not splitd's result objects.
            Exit codes: 0 all passed; 1 a scenario failed (golden difference, failed expectation, \
            unexpected error response, missing golden file with --check); 64 usage (also: two \
            scenario files that would share a golden file); 66 a scenario or golden file is \
            unreadable or invalid; 69 splitd unreachable; 70 the embedded daemon did not start; \
            73 --record cannot create a golden file or its directory; 78 no --socket and \
            splitd's configuration cannot be read.
            """
    )

    /// Exit code of a failed scenario (a difference or a failed expectation), like diff(1).
    static let scenarioFailed = ExitCode(1)
    /// EX_NOINPUT: a scenario or golden file cannot be used.
    static let badInput = ExitCode(66)
    /// EX_CANTCREAT: --record cannot write a golden file (or make its directory).
    static let cannotCreate = ExitCode(73)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Scenario files or directories of them.", valueName: "file"))
    var files: [String] = []

    @Flag(help: "Compare every run with its golden file; print the differences.")
    var check = false

    @Flag(help: "Write every run's layouts as golden files.")
    var record = false

    @Flag(
        help:
            "Start the splitd installed next to splitctl as a child process on a temporary socket and database instead of using --socket."
    )
    var embedded = false

    @Option(
        help: ArgumentHelp("Where golden files live (default: golden/ beside each scenario file).", valueName: "dir"))
    var goldenDir: String?

    @Option(
        help: ArgumentHelp(
            "Also write one self-contained HTML page with every step's picture (with --check: changed steps side by side with their golden).",
            valueName: "file.html"))
    var report: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one scenario file or directory") }
        guard !(check && record) else { throw ValidationError("--check and --record exclude each other") }
        guard !(embedded && global.socket != nil) else {
            throw ValidationError("--embedded and --socket exclude each other")
        }
    }

    func run() throws {
        let started = ContinuousClock.now
        let interruption = Interruption.install()
        let scenarioFiles: [ScenarioFile]
        do {
            scenarioFiles = try ScenarioLoading.load(files)
        } catch {
            printError(error.description)
            throw Self.badInput
        }
        let store = GoldenStore(directory: goldenDir)
        var goldens: [String: [JSONValue]] = [:]
        if check || record {
            if let clash = Self.sharedGoldenFile(scenarioFiles, store: store) {
                printError(
                    "\(clash.first) and \(clash.second) would share the golden file \(clash.golden) "
                        + "(rename one, or run them in separate invocations)")
                throw ExitCode.validationFailure
            }
        }
        if record {
            // Every golden directory is made before anything runs: one that cannot be is
            // reported now, not after the runs.
            do throws(GoldenWriteError) {
                for file in scenarioFiles { try store.prepareDirectory(for: file) }
            } catch {
                printError(error.description)
                throw Self.cannotCreate
            }
        }
        if check {
            // Every golden file is read before anything runs: an unreadable one is bad input (66),
            // like a scenario file; a missing one is a failed check (1), reported per file.
            do {
                for file in scenarioFiles { goldens[store.path(for: file)] = try store.read(for: file) }
            } catch {
                printError(error.description)
                throw Self.badInput
            }
        }
        var daemon: EmbeddedDaemon?
        if embedded {
            do {
                daemon = try EmbeddedDaemon()
            } catch {
                printError("\(error)")
                throw ExitStatus.internalError
            }
        }
        defer { daemon?.stop() }
        let socketPath = try daemon?.socketPath ?? global.socketPath()
        let connection: SplitConnection
        let catalog: PresetCatalog
        do {
            connection = try SplitConnection.connect(to: socketPath, timeout: global.timeoutDuration)
            interruption?.watch(socket: connection.socket.fd)
            try connection.hello(client: "splitctl simulate")
            catalog = PresetCatalog(devicesResult: try connection.devices())
        } catch {
            if let signal = interruption?.signal {
                printError("interrupted by \(Interruption.name(of: signal))")
                throw ExitCode(128 + signal)
            }
            printError(error.description)
            throw clientExitCode(error)
        }
        defer {
            interruption?.watch(socket: -1)
            connection.close()
        }
        var expanded: [(file: ScenarioFile, scenarios: [Scenario])] = []
        do {
            for file in scenarioFiles {
                expanded.append((file, try MatrixExpansion.scenarios(of: file, profiles: catalog.profiles)))
            }
        } catch {
            printError(error.description)
            throw Self.badInput
        }
        var report: SimulationReport
        var currentScene: String?
        var writeFailure: GoldenWriteError?
        do {
            report = try runAll(
                expanded, runner: ScenarioRunner(connection: connection, catalog: catalog), store: store,
                goldens: goldens, interruption: interruption, currentScene: &currentScene,
                writeFailure: &writeFailure)
        } catch {
            if let signal = interruption?.signal {
                // The embedded daemon goes with its directory (the deferred stop); a running
                // daemon is left as it was: the interrupted run's scene is deleted.
                if daemon == nil, let currentScene { deleteScene(currentScene, at: socketPath) }
                printError("interrupted by \(Interruption.name(of: signal))")
                throw ExitCode(128 + signal)
            }
            printError(error.description)
            throw clientExitCode(error)
        }
        // The report of what ran, also when a golden file could not be written: the files
        // before it (failed ones included) and the one whose file was not kept.
        report.seconds = seconds(started.duration(to: .now))
        if let page = self.report {
            let files = report.files.map {
                HTMLReport.File(result: $0, records: $0.records, golden: $0.golden.flatMap { goldens[$0] })
            }
            try writeText(HTMLReport(files: files, checking: check).page(), to: page)
        }
        emit(report.json(), json: global.json) { report.text() }
        if report.failedFiles > 0 { throw Self.scenarioFailed }
        if let writeFailure {
            // Every run passed; a golden file could not be kept: not a failed scenario (1).
            printError(writeFailure.description)
            throw Self.cannotCreate
        }
    }

    /// Runs every scenario of every file, then checks or records golden files. `currentScene`
    /// is the scene of the run under way (nil between runs), for the cleanup of an
    /// interrupted run; a signal makes it throw (`.closed`: it shut the connection down). A
    /// golden file that cannot be written stops everything and is left in `writeFailure`.
    private func runAll(
        _ expanded: [(file: ScenarioFile, scenarios: [Scenario])], runner: ScenarioRunner,
        store: GoldenStore, goldens: [String: [JSONValue]], interruption: Interruption?,
        currentScene: inout String?, writeFailure: inout GoldenWriteError?
    ) throws(ClientError) -> SimulationReport {
        var progress = ProgressBar(total: expanded.reduce(0) { $0 + $1.scenarios.count })
        // Also on an error or a signal: the next line starts on a clean line.
        defer { progress.finish() }
        var report = SimulationReport()
        var sceneCounter = 0
        for (file, scenarios) in expanded {
            var result = FileResult(path: file.path)
            var records: [JSONValue] = []
            for scenario in scenarios {
                if interruption?.signal != nil { throw .closed }
                sceneCounter += 1
                let sceneID = "simulate-\(getpid())-\(sceneCounter)"
                currentScene = sceneID
                let outcome = try runner.run(scenario, sceneID: sceneID)
                currentScene = nil
                progress.advance(scenario.name)
                records.append(outcome.record)
                result.runs += 1
                result.steps += outcome.steps
                result.snapshots += outcome.snapshots
                result.expectations += outcome.expectations
                result.failures += outcome.failures.map { "run \"\(scenario.name)\": \($0)" }
            }
            if self.report != nil { result.records = records }
            do throws(GoldenWriteError) {
                try finish(&result, records: records, file: file, store: store, golden: goldens[store.path(for: file)])
            } catch {
                report.files.append(result)
                writeFailure = error
                break
            }
            report.files.append(result)
        }
        return report
    }

    /// Deletes `scene` over a fresh connection (the run's own was shut down by the signal);
    /// best effort, and quick: the user asked to stop.
    private func deleteScene(_ scene: String, at socketPath: String) {
        do throws(ClientError) {
            let connection = try SplitConnection.connect(
                to: socketPath, timeout: min(global.timeoutDuration, .seconds(5)))
            defer { connection.close() }
            try connection.hello(client: "splitctl simulate")
            try connection.deleteScene(scene)
        } catch {
            // unknown_scene: the run had not created it yet, or had deleted it already.
        }
    }

    /// Checks (against `golden`, read before the runs; nil when there is none) or records the
    /// golden file of one scenario file and settles its status; throws when the golden file
    /// cannot be written.
    private func finish(
        _ result: inout FileResult, records: [JSONValue], file: ScenarioFile, store: GoldenStore,
        golden: [JSONValue]?
    ) throws(GoldenWriteError) {
        guard check || record else {
            result.status = result.failures.isEmpty ? .ok : .failed
            return
        }
        result.golden = store.path(for: file)
        if record {
            guard result.failures.isEmpty else {
                result.failures.append("golden file not written: fix the failures above first")
                result.status = .failed
                return
            }
            try store.write(runs: records, for: file)
            result.status = .recorded
        } else if let golden {
            result.failures += GoldenComparison.differences(golden: golden, actual: records)
            result.status = result.failures.isEmpty ? .ok : .failed
        } else {
            result.failures.append("no golden file at \(store.path(for: file)) (record it with --record)")
            result.status = .failed
        }
    }

    /// Two different scenario files whose golden files would be the same file (`a/x.json` and
    /// `b/x.json` with --golden-dir, `x.json` and `x.yaml` beside each other): recording would
    /// overwrite one with the other and checking would compare one with the other's.
    static func sharedGoldenFile(
        _ files: [ScenarioFile], store: GoldenStore
    ) -> (first: String, second: String, golden: String)? {
        var owners: [String: (path: String, identity: String)] = [:]
        for file in files {
            let golden = URL(fileURLWithPath: store.path(for: file)).standardizedFileURL.path
            let identity = URL(fileURLWithPath: file.path).resolvingSymlinksInPath().standardizedFileURL.path
            if let owner = owners[golden], owner.identity != identity {
                return (owner.path, file.path, store.path(for: file))
            }
            owners[golden] = owners[golden] ?? (file.path, identity)
        }
        return nil
    }

    private func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// splitctl's exit code for a client failure (the global function, which ParsableCommand's
/// static `exitCode(for:)` hides inside a command).
private func clientExitCode(_ error: ClientError) -> ExitCode { exitCode(for: error) }
