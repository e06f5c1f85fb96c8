import SplitCore

/// The stored body of a snapshot session: `SnapshotResult`'s Codable JSON, members in
/// declaration order (the members a `snapshot` response carries after its session fields),
/// so Foundation's `JSONDecoder` reads it as well as `SnapshotResult(json:)`.
public enum SnapshotResultCodec {
    public static func encode(_ result: SnapshotResult) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + 1024 * result.snapshots.count)
        writer.beginObject()
        writer.writeMembers(of: result)
        writer.endObject()
        return writer.bytes
    }
}

extension JSONWriter {
    /// `"baseRevision":N,"snapshots":[{"size":..,"layout":..}],"roundTrip":{..}`.
    mutating func writeMembers(of result: SnapshotResult) {
        rawKey("baseRevision")
        write(result.baseRevision)
        rawKey("snapshots")
        beginArray()
        for snapshot in result.snapshots {
            beginObject()
            rawKey("size")
            write(snapshot.size)
            rawKey("layout")
            write(snapshot.layout)
            endObject()
        }
        endArray()
        rawKey("roundTrip")
        beginObject()
        rawKey("lossless")
        write(result.roundTrip.lossless)
        rawKey("differences")
        write(result.roundTrip.differences)
        // Revision 2: only when not empty, so a lossless report (and every stored session
        // and content hash of one) is written as before.
        if !result.roundTrip.lost.isEmpty {
            rawKey("lost")
            write(result.roundTrip.lost)
        }
        endObject()
    }
}

extension SnapshotResult {
    /// Reads a stored snapshot session body or the result members of a `snapshot` response.
    public init(json: JSONValue) throws(WireError) {
        try self.init(reader: FieldReader.root(json, "snapshot result"))
    }

    init(reader: FieldReader) throws(WireError) {
        let snapshots = try reader.elements("snapshots") { (snapshot: FieldReader) throws(WireError) in
            SizedLayout(size: try snapshot.nested("size").size(), layout: try Layout(reader: snapshot.nested("layout")))
        }
        let roundTrip = try reader.nested("roundTrip")
        self.init(
            baseRevision: try reader.int("baseRevision"), snapshots: snapshots,
            roundTrip: RoundTripReport(
                lossless: try roundTrip.bool("lossless"),
                differences: try roundTrip.strings("differences"),
                lost: roundTrip.optional("lost") == nil ? [] : try roundTrip.strings("lost")))
    }
}

extension SnapshotRecord {
    /// Reads a `snapshot` / `snapshot.get` result object.
    public init(json: JSONValue) throws(WireError) {
        let reader = try FieldReader.root(json, "snapshot")
        self.init(
            session: try reader.optionalString("session"), scene: try reader.optionalString("scene"),
            hash: try reader.optionalString("hash"), result: try SnapshotResult(reader: reader))
    }
}
