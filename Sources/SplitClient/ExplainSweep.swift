import SplitCore
import SplitWire

extension SplitConnection {
    /// `explain`: the result (`scene`, `revision`, `layout`, `decisions`).
    public func explain(_ scene: String) throws(ClientError) -> JSONValue {
        try call("explain", ["scene": .string(scene)])
    }

    /// `sweep` of a scene (`device` nil) or of `device` with `config` (a WIRE.md config
    /// object); `fixed` is the other dimension. Answers the intervals.
    public func sweep(
        scene: String? = nil, device: String? = nil, config: JSONValue? = nil, axis: SweepAxis = .width,
        from: Double, to: Double, fixed: Double? = nil
    ) throws(ClientError) -> [SweepInterval] {
        var params: JSONObject = ["axis": .string(axis.rawValue), "from": .double(from), "to": .double(to)]
        if let scene { params["scene"] = .string(scene) }
        if let device { params["device"] = .string(device) }
        if let config { params["config"] = config }
        if let fixed { params[axis == .width ? "height" : "width"] = .double(fixed) }
        let entries = try field(try call("sweep", params), "intervals", \.array)
        var intervals: [SweepInterval] = []
        for entry in entries {
            guard let interval = SweepInterval(wire: entry) else {
                throw ClientError.protocolViolation("sweep: malformed interval \(entry)")
            }
            intervals.append(interval)
        }
        return intervals
    }
}
