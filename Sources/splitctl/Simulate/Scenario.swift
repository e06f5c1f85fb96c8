import SplitCore
import SplitWire

/// One scenario run: a scene on a device, then steps (docs/SIMULATE.md). A scenario file with
/// a `matrix` expands to one `Scenario` per combination of its variables.
struct Scenario {
    /// Shown in reports and stored in the golden file; unique within its file.
    var name: String
    /// Profile id or rule-set name, as `scene.create` takes it.
    var device: String
    /// The profile whose presets `resize: "portrait/1/3"` names (default: `device`), so a
    /// scene on a rule set can still be driven through an iPad's multitasking sizes.
    var presetDevice: String
    var size: SizeSpec?
    /// A WIRE.md `config` object passed to `scene.create` as is.
    var config: JSONValue?
    var steps: [ScenarioStep]
}

/// A window size: explicit points or a preset name resolved on the scenario's preset device.
enum SizeSpec: Equatable {
    case points(Size)
    /// `ORIENTATION/NAME` or `NAME` (in the device's current orientation).
    case preset(String)
    /// `*`: every preset of the device, in catalog order (expands to one step each).
    case everyPreset
}

/// One step of a scenario.
struct ScenarioStep {
    enum Action {
        /// `interfaceOrientation`: stated with the resize (WIRE.md revision 2); nil: by the rule.
        case resize(SizeSpec, interfaceOrientation: Orientation?)
        /// A WIRE.md intent object, sent as is; `expectError` names the error code it must get.
        case intent(JSONValue, expectError: String?)
        case snapshot(SnapshotSpec)
        /// Layout paths and the values they must hold (see `LayoutPath`).
        case expect([(path: String, value: JSONValue)])
    }

    var action: Action
    /// Free text explaining the step (kept out of the golden file).
    var note: String?
}

/// What a snapshot step renders.
enum SnapshotSpec {
    /// A server-side preset such as `appSwitcher`.
    case preset(String)
    case sizes([SizeSpec])
}

/// A scenario file as written, before matrix expansion.
struct ScenarioFile {
    /// The path given on the command line (or found in a directory argument).
    var path: String
    /// The parsed document; expansion substitutes matrix variables into it.
    var document: JSONObject
    /// The golden file's stem: the file name without `.json`.
    var stem: String
}

/// A scenario or golden file that cannot be used, with the file and the JSON path at fault.
struct ScenarioError: Error, CustomStringConvertible {
    var file: String
    var path: String
    var message: String

    var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)" }
}
