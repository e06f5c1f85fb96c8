import SplitCore
import SplitWire

/// Reads a scenario document (after matrix substitution) into a `Scenario`. Unknown keys are
/// refused so a misspelt step cannot silently do nothing.
struct ScenarioDecoder {
    var file: String

    static let scenarioKeys: Set<String> = [
        "name", "description", "device", "presetDevice", "size", "config", "matrix", "steps",
    ]
    static let actionKeys = ["resize", "intent", "snapshot", "expect"]

    func decode(_ document: JSONObject, defaultName: String) throws(ScenarioError) -> Scenario {
        try refuseUnknownKeys(document, allowed: Self.scenarioKeys, at: "")
        guard let deviceValue = document["device"] else {
            throw fail("device", "a device profile id or rule-set name is required")
        }
        guard let device = deviceValue.string else {
            throw fail(
                "device", "expected a string (a device profile id or rule-set name), got \(deviceValue.typeName)")
        }
        guard !device.isEmpty else {
            throw fail("device", "a device profile id or rule-set name is required, not an empty string")
        }
        let name = try optionalString(document, "name", at: "") ?? defaultName
        let presetDevice = try optionalString(document, "presetDevice", at: "") ?? device
        let size = try document["size"].map { value throws(ScenarioError) in try decodeSize(value, at: "size") }
        if size == .everyPreset { throw fail("size", "'*' is only allowed in resize steps") }
        var config: JSONValue?
        if let value = document["config"] {
            guard value.object != nil else { throw fail("config", "expected an object, got \(value.typeName)") }
            config = value
        }
        guard let stepValues = document["steps"]?.array else { throw fail("steps", "an array of steps is required") }
        var steps: [ScenarioStep] = []
        for (index, value) in stepValues.enumerated() { steps.append(try decodeStep(value, at: "steps[\(index)]")) }
        return Scenario(
            name: name, device: device, presetDevice: presetDevice, size: size, config: config, steps: steps)
    }

    func decodeStep(_ value: JSONValue, at path: String) throws(ScenarioError) -> ScenarioStep {
        guard let object = value.object else { throw fail(path, "a step must be an object, got \(value.typeName)") }
        try refuseUnknownKeys(
            object, allowed: Set(Self.actionKeys + ["note", "expectError", "interfaceOrientation"]), at: path)
        let present = Self.actionKeys.filter { object[$0] != nil }
        guard present.count == 1, let key = present.first, let body = object[key] else {
            throw fail(path, "a step needs exactly one of \(Self.actionKeys.joined(separator: ", "))")
        }
        let note = try optionalString(object, "note", at: path)
        let expectError = try optionalString(object, "expectError", at: path)
        if expectError != nil, key != "intent" {
            throw fail("\(path).expectError", "only intent steps can expect an error")
        }
        let interfaceOrientation = try decodeInterfaceOrientation(object, at: path)
        if interfaceOrientation != nil, key != "resize" {
            throw fail("\(path).interfaceOrientation", "only resize steps can state the interface orientation")
        }
        let action: ScenarioStep.Action
        switch key {
        case "resize":
            action = .resize(try decodeSize(body, at: "\(path).resize"), interfaceOrientation: interfaceOrientation)
        case "intent":
            guard body["kind"]?.string != nil else {
                throw fail("\(path).intent", "an intent object with a string 'kind' is required")
            }
            action = .intent(body, expectError: expectError)
        case "snapshot":
            action = .snapshot(try decodeSnapshot(body, at: "\(path).snapshot"))
        default:
            guard let checks = body.object, !checks.isEmpty else {
                throw fail("\(path).expect", "expected a non-empty object of path: value")
            }
            for member in checks where LayoutPath.segments(member.key).isEmpty {
                throw fail("\(path).expect", "empty path")
            }
            action = .expect(checks.map { ($0.key, $0.value) })
        }
        return ScenarioStep(action: action, note: note)
    }

    func decodeSnapshot(_ value: JSONValue, at path: String) throws(ScenarioError) -> SnapshotSpec {
        guard let object = value.object else { throw fail(path, "expected {\"preset\": NAME} or {\"sizes\": [...]}") }
        try refuseUnknownKeys(object, allowed: ["preset", "sizes"], at: path)
        switch (object["preset"], object["sizes"]) {
        case let (preset?, nil):
            guard let name = preset.string, !name.isEmpty else {
                throw fail("\(path).preset", "expected a preset name")
            }
            return .preset(name)
        case let (nil, sizes?):
            guard let elements = sizes.array, !elements.isEmpty else {
                throw fail("\(path).sizes", "expected a non-empty array")
            }
            var specs: [SizeSpec] = []
            for (index, element) in elements.enumerated() {
                specs.append(try decodeSize(element, at: "\(path).sizes[\(index)]"))
            }
            return .sizes(specs)
        default:
            throw fail(path, "give either 'preset' or 'sizes'")
        }
    }

    /// `{"width": W, "height": H}`, a preset name, or `*`.
    func decodeSize(_ value: JSONValue, at path: String) throws(ScenarioError) -> SizeSpec {
        if let name = value.string {
            if name == "*" { return .everyPreset }
            guard !name.isEmpty else { throw fail(path, "empty preset name") }
            return .preset(name)
        }
        guard let object = value.object else {
            throw fail(path, "expected {\"width\": W, \"height\": H} or a preset name")
        }
        try refuseUnknownKeys(object, allowed: ["width", "height"], at: path)
        // Each side on its own: which one is missing, not a number, or not positive.
        var sides: [Double] = []
        for side in ["width", "height"] {
            guard let value = object[side] else {
                throw fail(path, "\(side) is missing (a size is {\"width\": W, \"height\": H})")
            }
            guard let number = value.double else {
                throw fail(join(path, side), "expected a number of points, got \(value.typeName)")
            }
            guard number > 0 else {
                throw fail(join(path, side), "must be a positive number of points, not \(JSONWriter.string(value))")
            }
            sides.append(number)
        }
        return .points(Size(width: sides[0], height: sides[1]))
    }

    /// A step's `interfaceOrientation` (how the device is held, sent with its resize).
    private func decodeInterfaceOrientation(
        _ object: JSONObject, at path: String
    ) throws(ScenarioError)
        -> Orientation?
    {
        guard let text = try optionalString(object, "interfaceOrientation", at: path) else { return nil }
        guard let orientation = Orientation(rawValue: text) else {
            throw fail(
                join(path, "interfaceOrientation"),
                "expected portrait or landscape, got '\(text)'")
        }
        return orientation
    }

    private func optionalString(_ object: JSONObject, _ key: String, at path: String) throws(ScenarioError) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.string else { throw fail(join(path, key), "expected a string, got \(value.typeName)") }
        return text
    }

    private func refuseUnknownKeys(_ object: JSONObject, allowed: Set<String>, at path: String) throws(ScenarioError) {
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            throw fail(join(path, unknown), "unknown key (known: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func fail(_ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path, message: message)
    }
}
