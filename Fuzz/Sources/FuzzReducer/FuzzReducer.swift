import Foundation
import SplitCore
import SplitWire
import FuzzDriver

// Fuzzes the scene reducer with decoded random intents against random states. The bytes
// choose a device, a size and a configuration (written as wire JSON and decoded by the real
// request decoder), then a sequence of changes: resizes and intents, each written as the
// JSON a client would send and decoded the same way. After every accepted change it checks
// what SEMANTICS.md and the reducer's contract promise:
// - revision +1 exactly for a change, unchanged with no events for a no-op;
// - the returned layout is the layout of the returned state;
// - collapsed iff the horizontal size class is compact; collapsed layouts have no display
//   mode and one `compact` column, expanded ones a resolved mode and the style's columns;
// - collapse then expand with no navigation in between restores navigation and config
//   (the round-trip guarantee);
// and at the end that the state survives its storage encoding (Codable) unchanged.
// Cost per input is kept low for long runs (10 million executions): small core limits,
// 32 changes at most, one storage check in 16 inputs, texts built only on failure.

/// libFuzzer entry point: returns 0; a broken property traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReducer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var input = FuzzInput(UnsafeBufferPointer(start: data, count: size))
    let engine = smallLimitsEngine
    guard var state = makeScene(&input, engine: engine) else { return 0 }
    var steps = 0
    while !input.isAtEnd, steps < maxSteps {
        steps += 1
        if input.byte() % 16 == 0 {
            checkRoundTrip(state, &input, engine: engine)
            continue
        }
        guard let change = decodeChange(&input) else { continue }
        guard let transition = try? engine.apply(change, to: state) else { continue }
        checkTransition(transition, from: state, change: change, engine: engine)
        state = transition.state
    }
    // Foundation's JSON coding costs as much as the rest of an input: check one input in 16
    // (chosen by its length, so a given input is always checked or never).
    if size % 16 == 0 { checkStorageRoundTrip(state) }
    return 0
}

/// Limits far below the daemon's defaults (64 entries, 16 presentations, 32 tabs), so that
/// short inputs reach them: the code that refuses a 9th entry is the one that refuses a 65th.
/// The id length limit stays 128: the pools hold ids of 128 and 129 characters.
let smallLimitsEngine: SplitEngine = {
    var limits = CoreLimits()
    limits.maxStackDepth = 8
    limits.maxPresentations = 3
    limits.maxTabs = 2
    return SplitEngine(limits: limits)
}()

/// Changes per input: with the small limits, 32 reach every limit, both collapse directions
/// and their round trips; longer inputs only cost time.
let maxSteps = 32

// MARK: building inputs

/// Reads the fuzzer's bytes; past the end every byte reads as 0.
struct FuzzInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }
}

enum Pools {
    static let columns = ["primary", "supplementary", "secondary", "compact", "nope"]
    static let viewControllers = ["\"a\"", "\"b\"", "\"inbox\"", "\"detail\"", "\"empty\"", "\"t0\"",
                                  "\"" + String(repeating: "v", count: 128) + "\"",
                                  "\"" + String(repeating: "w", count: 129) + "\"", "\"\"", "7"]
    static let presentationStyles = ["fullScreen", "pageSheet", "formSheet", "popover", "sideways"]
    static let displayModes = DisplayMode.allCases.map(\.rawValue) + ["allVisible", "primaryHidden", "primaryOverlay", "nope"]
    static let tabIndexes = ["-1", "0", "1", "2", "31", "32", "1e3", "\"1\""]
    static let sides: [Double] = [320, 375, 414, 507, 568, 592, 639, 640, 641, 678, 744, 768, 834, 844,
                                  981, 1000, 1024, 1133, 1194, 1366, 2560, 100_000, 100_001, 0.5, 0, -1]

    /// Configuration keys with a few telling values each (invalid ones included).
    static let configValues: [(String, [String])] = [
        ("style", SplitStyle.allCases.map(\.rawValue).map(quoted)),
        ("preferredDisplayMode", displayModes.map(quoted)),
        ("preferredSplitBehavior", SplitBehavior.allCases.map(\.rawValue).map(quoted) + ["\"automatic\""]),
        ("preferredPrimaryColumnWidth", ["0", "100", "320", "500.5", "2000", "null", "\"automatic\"", "-5"]),
        ("preferredPrimaryColumnWidthFraction", ["0", "0.25", "0.5", "1", "1.5", "null"]),
        ("minimumPrimaryColumnWidth", ["0", "100", "400"]),
        ("maximumPrimaryColumnWidth", ["0", "320", "1000"]),
        ("preferredSupplementaryColumnWidth", ["200", "null", "700"]),
        ("preferredSupplementaryColumnWidthFraction", ["0.3", "null"]),
        ("minimumSupplementaryColumnWidth", ["0", "250"]),
        ("maximumSupplementaryColumnWidth", ["320", "50"]),
        ("primaryEdge", PrimaryEdge.allCases.map(\.rawValue).map(quoted)),
        ("layoutDirection", LayoutDirection.allCases.map(\.rawValue).map(quoted)),
        ("presentsWithGesture", ["true", "false"]),
        ("showsSecondaryOnlyButton", ["true", "false"]),
        ("roots", ["{\"primary\":\"inbox\",\"secondary\":\"detail\"}", "{}", "{\"secondary\":\"detail\"}",
                   "{\"primary\":\"p\",\"supplementary\":\"s\",\"secondary\":\"d\",\"compact\":\"c\"}"]),
        ("placeholder", ["\"empty\"", "null"]),
        ("tabs", ["[]", "[{\"root\":\"t0\"},{\"root\":\"t1\"}]", "[{\"root\":\"t0\"},{\"root\":\"t1\"},{\"root\":\"t2\"}]"]),
        ("collapsePolicy", CollapsePolicy.allCases.map(\.rawValue).map(quoted)),
        ("expandPolicy", ExpandPolicy.allCases.map(\.rawValue).map(quoted)),
        ("topColumnForCollapsing", TopColumnForCollapsing.allCases.map(\.rawValue).map(quoted)),
        ("detailRouting", DetailRouting.allCases.map(\.rawValue).map(quoted)),
        ("backBehavior", BackBehavior.allCases.map(\.rawValue).map(quoted)),
        ("sizePolicy", SizePolicy.allCases.map(\.rawValue).map(quoted)),
    ]

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

/// `{"width":W,"height":H}` from the pool, or from two raw bytes each.
func sizeJSON(_ input: inout FuzzInput) -> String {
    func side() -> String {
        let choice = input.byte()
        if choice & 0x80 != 0 { return String(Int(input.byte()) * 8 + Int(input.byte() % 8) + 1) }
        let value = Pools.sides[Int(choice) % Pools.sides.count]
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
    return "{\"width\":\(side()),\"height\":\(side())}"
}

/// Up to 6 configuration members chosen by the bytes.
func configJSON(_ input: inout FuzzInput) -> String {
    let count = Int(input.byte() % 7)
    var members: [String] = []
    for _ in 0..<count {
        let (key, values) = input.pick(Pools.configValues)
        members.append("\"\(key)\":\(input.pick(values))")
    }
    return "{" + members.joined(separator: ",") + "}"
}

/// A created scene (revision 1), or nil when the engine refuses the chosen inputs.
func makeScene(_ input: inout FuzzInput, engine: SplitEngine) -> SceneState? {
    let device = input.pick(engine.catalog.deviceNames)
    var line = "{\"id\":1,\"op\":\"scene.create\",\"scene\":\"s\",\"device\":\"\(device)\""
    let options = input.byte()
    if options & 1 != 0 || engine.catalog.defaultSize(device: device) == nil { line += ",\"size\":" + sizeJSON(&input) }
    if options & 2 != 0 { line += ",\"config\":" + configJSON(&input) }
    guard case let .sceneCreate(scene, device, size, config)? = try? RequestDecoder().decode(line + "}").op else {
        return nil
    }
    return try? engine.createScene(id: scene, device: device, size: size, config: config)
}

/// One resize or intent, as a client would send it, decoded; nil if the decoder refuses it.
func decodeChange(_ input: inout FuzzInput) -> SceneChange? {
    let kinds = ["resize"] + Intent.allKinds + ["jump"]
    let kind = input.pick(kinds)
    let line: String
    if kind == "resize" {
        line = "{\"id\":1,\"op\":\"resize\",\"scene\":\"s\"," + sizeJSON(&input).dropFirst()
    } else {
        line = "{\"id\":1,\"op\":\"intent\",\"scene\":\"s\",\"intent\":" + intentJSON(kind, &input) + "}"
    }
    switch try? RequestDecoder().decode(line).op {
    case let .resize(_, size, _)?: return .resize(size)
    case let .intent(_, intent, _)?: return .intent(intent)
    default: return nil
    }
}

func intentJSON(_ kind: String, _ input: inout FuzzInput) -> String {
    var fields = ["\"kind\":\"\(kind)\""]
    switch kind {
    case "push", "show":
        fields += ["\"column\":\"\(input.pick(Pools.columns))\"", "\"vc\":\(input.pick(Pools.viewControllers))"]
    case "pop", "popToRoot", "showColumn", "hideColumn":
        fields.append("\"column\":\"\(input.pick(Pools.columns))\"")
    case "showDetail":
        fields.append("\"vc\":\(input.pick(Pools.viewControllers))")
    case "selectTab":
        fields.append("\"index\":\(input.pick(Pools.tabIndexes))")
    case "present":
        fields += ["\"vc\":\(input.pick(Pools.viewControllers))", "\"style\":\"\(input.pick(Pools.presentationStyles))\""]
    case "setPreferredDisplayMode":
        fields.append("\"mode\":\"\(input.pick(Pools.displayModes))\"")
    case "setConfig":
        fields.append("\"config\":" + configJSON(&input))
    default:
        break
    }
    return "{" + fields.joined(separator: ",") + "}"
}

// MARK: properties

func checkTransition(_ transition: Transition, from state: SceneState, change: SceneChange, engine: SplitEngine) {
    // Built only when a property fails: describing a state is slow.
    func context() -> String { "\(change) on \(state)" }
    if transition.changed {
        require(transition.state.revision == state.revision + 1, "a change did not add exactly 1 to the revision", context())
        require(transition.state != state, "a change reported as such left the state equal", context())
    } else {
        require(transition.state == state, "a no-op changed the state", context())
        require(transition.events.isEmpty, "a no-op emitted events", context())
    }
    let layout = transition.layout
    require(layout == engine.layout(of: transition.state), "the returned layout is not the state's layout", context())
    checkLayoutShape(layout, state: transition.state, context: context())
}

func checkLayoutShape(_ layout: Layout, state: SceneState, context: @autoclosure () -> String) {
    let compact = state.traits.horizontalSizeClass == .compact
    require(layout.collapsed == compact, "collapsed is not 'horizontal class is compact'", context())
    require(state.collapsed == compact, "the navigation's collapsed stack disagrees with the size class", context())
    require(layout.size == state.size && layout.traits == state.traits, "the layout's size or traits are not the state's", context())
    if layout.collapsed {
        require(layout.displayMode == nil && layout.splitBehavior == nil, "a collapsed layout has a display mode", context())
        require(layout.columns.map(\.column) == [.compact], "a collapsed layout does not list exactly the compact column", context())
    } else {
        require(layout.displayMode != nil && layout.displayMode != .automatic, "an expanded layout has no resolved display mode", context())
        require(layout.splitBehavior != nil && layout.splitBehavior != .automatic, "an expanded layout has no resolved split behavior", context())
        require(layout.columns.map(\.column) == state.config.style.columns, "an expanded layout does not list the style's columns in order", context())
        require(layout.columns.contains { $0.column == .secondary && $0.visible }, "the secondary column is not visible", context())
        require(layout.columns.allSatisfy { !$0.stack.isEmpty }, "a column has an empty stack", context())
    }
}

/// Collapses with a compact size and expands back to the original size, nothing between, or
/// from a collapsed state expands with a regular size and collapses back: navigation and
/// config must come back exactly (SEMANTICS 6 and 8.3, round-trip guarantee).
func checkRoundTrip(_ state: SceneState, _ input: inout FuzzInput, engine: SplitEngine) {
    let compactSizes = [Size(width: 375, height: 1024), Size(width: 320, height: 568),
                        Size(width: 390, height: 844), Size(width: 300, height: 500)]
    let regularSizes = [Size(width: 1366, height: 1024), Size(width: 1024, height: 1366),
                        Size(width: 926, height: 428), Size(width: 1200, height: 800)]
    let sizes = state.collapsed ? regularSizes : compactSizes
    let size = sizes[Int(input.byte()) % sizes.count]
    guard let there = try? engine.apply(.resize(size), to: state), there.state.collapsed != state.collapsed,
          let back = try? engine.apply(.resize(state.size), to: there.state), back.state.collapsed == state.collapsed else {
        return
    }
    let trip = "\(state.collapsed ? "expand" : "collapse") at \(size) and back of \(state)"
    require(back.state.navigation == state.navigation, "the round trip changed navigation to \(back.state.navigation)", trip)
    require(back.state.config == state.config, "the round trip changed the config", trip)
}

/// The daemon stores states as JSON (Codable): what it reads back must be what it wrote.
func checkStorageRoundTrip(_ state: SceneState) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(state) else { trap("a state cannot be encoded", "\(state)") }
    guard let decoded = try? JSONDecoder().decode(SceneState.self, from: data) else {
        trap("a stored state cannot be decoded: \(String(decoding: data, as: UTF8.self))", "\(state)")
    }
    require(decoded == state, "a stored state decodes to a different state: \(decoded)", "\(state)")
}

// Both texts are autoclosures: describing a state costs more than a transition, and it is
// needed only when a property fails.
func require(_ condition: Bool, _ message: @autoclosure () -> String, _ context: @autoclosure () -> String) {
    if !condition { trap(message(), context()) }
}

func trap(_ message: String, _ context: String) -> Never {
    fatalError("FuzzReducer: \(message)\n\(context)")
}

// libFuzzer's driver runs the target (FuzzDriver).
@_cdecl("FuzzReducer_main")
public func fuzzReducerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzReducer)
}
