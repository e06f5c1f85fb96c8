import SplitClient
import SplitCore
import SplitWire

/// What one scenario run produced: its golden record and what went wrong.
struct RunOutcome {
    /// `{"name", "device", "steps": [...]}`: every step's resolved layout (or snapshot
    /// session, or expected error), as the golden file stores it.
    var record: JSONValue
    /// One readable line per failed expectation or unexpected error response.
    var failures: [String] = []
    var steps = 0
    var snapshots = 0
    var expectations = 0
}

/// Runs scenarios over one connection, each on a fresh scene that is deleted afterwards.
/// Error responses to a step are results (expected or failures); losing the daemon throws.
struct ScenarioRunner {
    let connection: SplitConnection
    let catalog: PresetCatalog

    func run(_ scenario: Scenario, sceneID: String) throws(ClientError) -> RunOutcome {
        var run = SceneRun(connection: connection, catalog: catalog, scenario: scenario, sceneID: sceneID)
        defer { _ = try? connection.call("scene.delete", ["scene": .string(sceneID)]) }
        try run.create()
        if run.created {
            for (index, step) in scenario.steps.enumerated() { try run.perform(step, index: index) }
        }
        var record: JSONObject = ["name": .string(scenario.name), "device": .string(scenario.device)]
        record["steps"] = .array(run.records)
        run.outcome.record = .object(record)
        return run.outcome
    }
}

/// The state of one run while its steps execute.
private struct SceneRun {
    let connection: SplitConnection
    let catalog: PresetCatalog
    let scenario: Scenario
    let sceneID: String

    var outcome = RunOutcome(record: .null)
    var records: [JSONValue] = []
    var created = false
    /// Sequential step number; 0 is the creation.
    var number = 0
    var layout: JSONValue = .null
    var revision: JSONValue = .null
    var events: JSONValue = .array([])
    var snapshot: JSONValue = .null

    var currentSize: Size? {
        guard let width = layout["size"]?["width"]?.double, let height = layout["size"]?["height"]?.double else {
            return nil
        }
        return Size(width: width, height: height)
    }

    mutating func create() throws(ClientError) {
        var params: JSONObject = ["scene": .string(sceneID), "device": .string(scenario.device)]
        var description = "create \(scenario.device)"
        if let spec = scenario.size {
            guard let resolved = resolve(spec, what: "step 0 (size)") else { return }
            params["size"] = resolved.size.wireObject
            description += " \(resolved.label)"
        }
        if let config = scenario.config { params["config"] = config }
        do {
            let result = try connection.call("scene.create", params)
            created = true
            apply(result)
            records.append(stepRecord(description, result, fields: ["revision", "layout"]))
        } catch .server(let code, let message) {
            // A request made, refused: it counts among the steps (SIMULATE.md's `steps`).
            outcome.steps += 1
            fail("step 0 (\(description)): \(code): \(message)")
        }
    }

    mutating func perform(_ step: ScenarioStep, index: Int) throws(ClientError) {
        switch step.action {
        case .resize(.everyPreset, let held):
            let presets = catalog.presets(of: scenario.presetDevice)
            if presets.isEmpty { fail("steps[\(index)]: \(scenario.presetDevice) has no presets") }
            for preset in presets {
                try resize(
                    to: preset.size, interfaceOrientation: held,
                    label: "\(preset.qualifiedName) = \(sizeLabel(preset.size))")
            }
        case .resize(let spec, let held):
            guard let resolved = resolve(spec, what: "step \(number + 1) (steps[\(index)].resize)") else {
                number += 1
                return
            }
            try resize(to: resolved.size, interfaceOrientation: held, label: resolved.label)
        case let .intent(intent, expectError):
            try send(intent, expectError: expectError)
        case .snapshot(let spec):
            try takeSnapshot(spec, index: index)
        case .expect(let checks):
            number += 1
            check(checks, index: index)
        }
    }

    /// A resize; `interfaceOrientation`, when the step states it, goes with it and into the
    /// step's description (a step without it is described, and recorded, as before).
    private mutating func resize(
        to size: Size, interfaceOrientation: Orientation?, label: String
    ) throws(ClientError) {
        number += 1
        var description = "resize \(label)"
        var params: JSONObject = [
            "scene": .string(sceneID), "width": .double(size.width), "height": .double(size.height),
        ]
        if let interfaceOrientation {
            params["interfaceOrientation"] = .string(interfaceOrientation.rawValue)
            description += " held \(interfaceOrientation.rawValue)"
        }
        do {
            let result = try connection.call("resize", params)
            apply(result)
            records.append(stepRecord(description, result, fields: ["revision", "events", "layout"]))
        } catch .server(let code, let message) {
            fail("step \(number) (\(description)): \(code): \(message)")
            records.append(errorRecord(description, code: code))
        }
    }

    private mutating func send(_ intent: JSONValue, expectError: String?) throws(ClientError) {
        number += 1
        let description = "intent " + describeIntent(intent)
        do {
            let result = try connection.call("intent", ["scene": .string(sceneID), "intent": intent])
            apply(result)
            records.append(stepRecord(description, result, fields: ["revision", "events", "layout"]))
            if let expectError {
                fail(
                    "step \(number) (\(description)): expected error \(expectError), got revision \(JSONDiff.text(result["revision"]))"
                )
            }
        } catch .server(let code, let message) {
            records.append(errorRecord(description, code: code))
            if code != expectError {
                let wanted = expectError.map { " (expected \($0))" } ?? ""
                fail("step \(number) (\(description)): \(code): \(message)\(wanted)")
            }
        }
    }

    private mutating func takeSnapshot(_ spec: SnapshotSpec, index: Int) throws(ClientError) {
        number += 1
        var params: JSONObject = ["scene": .string(sceneID)]
        let description: String
        switch spec {
        case .preset(let name):
            params["preset"] = .string(name)
            description = "snapshot \(name)"
        case .sizes(let specs):
            var sizes: [Size] = []
            var labels: [String] = []
            for spec in specs {
                if spec == .everyPreset {
                    let presets = catalog.presets(of: scenario.presetDevice)
                    sizes += presets.map(\.size)
                    labels += presets.map(\.qualifiedName)
                } else if let resolved = resolve(spec, what: "step \(number) (steps[\(index)].snapshot)") {
                    sizes.append(resolved.size)
                    labels.append(resolved.label)
                } else {
                    return
                }
            }
            params["sizes"] = .array(sizes.map(\.wireObject))
            description = "snapshot " + labels.joined(separator: ", ")
        }
        do {
            let result = try connection.call("snapshot", params)
            outcome.snapshots += 1
            snapshot = result
            records.append(stepRecord(description, result, fields: ["baseRevision", "snapshots", "roundTrip"]))
        } catch .server(let code, let message) {
            fail("step \(number) (\(description)): \(code): \(message)")
            records.append(errorRecord(description, code: code))
        }
    }

    private mutating func check(_ checks: [(path: String, value: JSONValue)], index: Int) {
        var subject = layout.object ?? JSONObject()
        subject["revision"] = revision
        subject["events"] = events
        subject["snapshot"] = snapshot
        for check in checks {
            outcome.expectations += 1
            let actual = LayoutPath.lookup(check.path, in: .object(subject))
            if !LayoutPath.matches(check.value, actual) {
                fail(
                    "step \(number) (expect, steps[\(index)]): \(check.path): expected \(JSONDiff.text(check.value)), actual \(JSONDiff.text(actual))"
                )
            }
        }
    }

    /// A size spec as points and a label; records a failure and answers nil for an unknown preset.
    private mutating func resolve(_ spec: SizeSpec, what: String) -> (size: Size, label: String)? {
        switch spec {
        case .points(let size):
            return (size, sizeLabel(size))
        case .preset(let name):
            guard let preset = catalog.resolve(name, device: scenario.presetDevice, current: currentSize) else {
                let known = catalog.presets(of: scenario.presetDevice).map(\.qualifiedName)
                fail(
                    "\(what): unknown preset '\(name)' for \(scenario.presetDevice)"
                        + (known.isEmpty ? " (it has none)" : " (known: \(known.joined(separator: ", ")))"))
                return nil
            }
            return (preset.size, "\(preset.qualifiedName) = \(sizeLabel(preset.size))")
        case .everyPreset:
            fail("\(what): '*' is not a single size")
            return nil
        }
    }

    private mutating func apply(_ result: JSONValue) {
        outcome.steps += 1
        if let value = result["layout"] { layout = value }
        if let value = result["revision"] { revision = value }
        events = result["events"] ?? .array([])
    }

    private func stepRecord(_ description: String, _ result: JSONValue, fields: [String]) -> JSONValue {
        var record: JSONObject = ["step": .int(Int64(number)), "do": .string(description)]
        for field in fields { if let value = result[field] { record[field] = value } }
        return .object(record)
    }

    private mutating func errorRecord(_ description: String, code: String) -> JSONValue {
        outcome.steps += 1
        return ["step": .int(Int64(number)), "do": .string(description), "error": .string(code)]
    }

    private mutating func fail(_ message: String) { outcome.failures.append(message) }
}

/// `showDetail vc=chat:alice`: the kind, then the other fields in their order.
func describeIntent(_ intent: JSONValue) -> String {
    let kind = intent["kind"]?.string ?? "?"
    let fields = (intent.object ?? JSONObject()).filter { $0.key != "kind" }.map { member in
        "\(member.key)=\(member.value.string ?? JSONWriter.string(member.value))"
    }
    return ([kind] + fields).joined(separator: " ")
}

/// `1366x1024`.
func sizeLabel(_ size: Size) -> String { "\(points(size.width))x\(points(size.height))" }
