import SplitCore

// The `explain` and `sweep` ops (WIRE.md "Explain and sweep"): their parameters, and the
// encoding of their results.

/// What a `sweep` request walks: a scene's device, config and size, or a device and config
/// given inline.
public enum SweepSource: Hashable, Sendable {
    case scene(String)
    /// `config` nil: the defaults (`traitOverrides` is folded into it).
    case device(String, config: SplitConfigPatch?)
}

/// A decoded `sweep` request.
public struct SweepRequest: Hashable, Sendable {
    public var source: SweepSource
    public var axis: SweepAxis
    public var from: Double
    public var to: Double
    /// The other dimension (`height` for a width sweep, `width` for a height sweep); nil:
    /// the scene's, else the device's landscape screen's.
    public var fixed: Double?

    public init(source: SweepSource, axis: SweepAxis = .width, from: Double, to: Double, fixed: Double? = nil) {
        self.source = source
        self.axis = axis
        self.from = from
        self.to = to
        self.fixed = fixed
    }
}

extension OpDecoder {
    public static let explain = OpDecoder(fields: ["scene"]) { fields throws(WireError) in
        .explain(scene: try fields.identifier("scene"))
    }

    /// `scene` and `revision` (>= 1; above the scene's current one is refused by the daemon).
    public static let sceneAt = OpDecoder(fields: ["scene", "revision"]) { fields throws(WireError) in
        let scene = try fields.identifier("scene")
        let revision = try fields.int("revision")
        guard revision >= 1 else { throw WireError.badRequest("field 'revision' must be >= 1, got \(revision)") }
        return .sceneAt(scene: scene, revision: revision)
    }

    /// `scene`, or `device` with optional `config` and `traitOverrides`; `axis`; `from`,
    /// `to`; the other dimension as `height` (width sweep) or `width` (height sweep).
    public static let sweep = OpDecoder(
        fields: ["scene", "device", "config", "traitOverrides", "axis", "from", "to", "width", "height"]
    ) { fields throws(WireError) in
        let scene = try fields.optionalString("scene")
        let device = try fields.optionalString("device")
        let source: SweepSource
        switch (scene, device) {
        case let (scene?, nil):
            guard fields.optional("config") == nil, fields.optional("traitOverrides") == nil else {
                throw WireError.badRequest("sweep: 'config' and 'traitOverrides' go with 'device', not 'scene'")
            }
            source = .scene(scene)
        case let (nil, device?):
            var config = fields.optional("config") == nil ? nil : try fields.nested("config").configPatch()
            if let overrides = try fields.optionalString("traitOverrides") {
                var patch = config ?? SplitConfigPatch()
                patch.traitOverrides = .some(overrides)
                config = patch
            }
            source = .device(device, config: config)
        case (.some, .some):
            throw WireError.badRequest("sweep: give either 'scene' or 'device', not both")
        case (nil, nil):
            throw WireError.badRequest("sweep: missing field 'scene' (or 'device')")
        }
        let axis = fields.optional("axis") == nil ? SweepAxis.width : try fields.enumeration("axis", SweepAxis.self)
        let fixedName = axis == .width ? "height" : "width"
        let fixed = fields.optional(fixedName) == nil ? nil : try fields.double(fixedName)
        return .sweep(
            SweepRequest(
                source: source, axis: axis, from: try fields.double("from"), to: try fields.double("to"), fixed: fixed))
    }
}

extension JSONWriter {
    /// The parameters of `sweep` after its `scene` (written by the caller when present).
    mutating func writeSweepParameters(_ request: SweepRequest) {
        if case let .device(device, config) = request.source {
            rawKey("device")
            write(device)
            // `traitOverrides` goes beside `config`, which the decoder folds it back into.
            var rest = config
            let overrides = config?.traitOverrides ?? nil
            if overrides != nil { rest?.traitOverrides = nil }
            if let rest, overrides == nil || rest != SplitConfigPatch() {
                rawKey("config")
                write(rest)
            }
            if let overrides {
                rawKey("traitOverrides")
                write(overrides)
            }
        }
        rawKey("axis")
        write(request.axis.rawValue)
        rawKey("from")
        write(request.from)
        rawKey("to")
        write(request.to)
        if let fixed = request.fixed {
            key(request.axis == .width ? "height" : "width")
            write(fixed)
        }
    }
}

extension Layout {
    /// The layout as WIRE.md's Layout object, as a JSON value.
    public var wireValue: JSONValue {
        var writer = JSONWriter()
        writer.write(self)
        return (try? JSONParser.parse(writer.bytes)) ?? .null
    }
}

extension DecisionValue {
    public var wireValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .double(value)
        case .string(let value): .string(value)
        case .strings(let values): .array(values.map { .string($0) })
        }
    }
}

extension Decision {
    /// `{field, value, rule, inputs, why}`, `inputs` an object in the order they were read.
    public var wireValue: JSONValue {
        .object([
            "field": .string(field), "value": value.wireValue, "rule": .string(rule),
            "inputs": .object(JSONObject(inputs.map { JSONMember(key: $0.name, value: $0.value.wireValue) })),
            "why": .string(why),
        ])
    }
}

extension Explanation {
    /// The members of an `explain` result: `scene`, `revision`, `layout`, `decisions`.
    public func wireFields(scene: String) -> JSONObject {
        [
            "scene": .string(scene), "revision": .int(Int64(revision)), "layout": layout.wireValue,
            "decisions": .array(decisions.map(\.wireValue)),
        ]
    }
}

extension SweepInterval {
    /// `{from, to, summary}`; the summary's `displayMode`/`splitBehavior` are explicit nulls
    /// when collapsed, as in a layout.
    public var wireValue: JSONValue {
        .object([
            "from": .double(from), "to": .double(to),
            "summary": .object([
                "horizontalSizeClass": .string(summary.horizontalSizeClass.rawValue),
                "verticalSizeClass": .string(summary.verticalSizeClass.rawValue),
                "collapsed": .bool(summary.collapsed),
                "displayMode": summary.displayMode.map { .string($0.rawValue) } ?? .null,
                "splitBehavior": summary.splitBehavior.map { .string($0.rawValue) } ?? .null,
                "visibleColumns": .array(summary.visibleColumns.map { .string($0.rawValue) }),
            ]),
        ])
    }

    /// An interval as `wireValue` writes it; nil when a member is missing or invalid.
    public init?(wire value: JSONValue) {
        guard let from = value["from"]?.double, let to = value["to"]?.double, let summary = value["summary"],
            let horizontal = summary["horizontalSizeClass"]?.string.flatMap(SizeClass.init(rawValue:)),
            let vertical = summary["verticalSizeClass"]?.string.flatMap(SizeClass.init(rawValue:)),
            let collapsed = summary["collapsed"]?.bool,
            let columns = summary["visibleColumns"]?.array?.compactMap({ $0.string.flatMap(Column.init(rawValue:)) })
        else { return nil }
        self.init(
            from: from, to: to,
            summary: SweepSummary(
                horizontalSizeClass: horizontal, verticalSizeClass: vertical, collapsed: collapsed,
                displayMode: summary["displayMode"]?.string.flatMap(DisplayMode.init(rawValue:)),
                splitBehavior: summary["splitBehavior"]?.string.flatMap(SplitBehavior.init(rawValue:)),
                visibleColumns: columns))
    }
}
