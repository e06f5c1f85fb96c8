import SplitCore
import SplitWire

/// Lines the daemon writes besides op results: errors and unsolicited notices.
enum Notices {
    static func error(id: RequestID?, code: WireErrorCode, message: String) -> [UInt8] {
        var bytes: [UInt8] = []
        WireEncoder.appendError(id: id, error: WireError(code, message), to: &bytes)
        return bytes
    }

    /// `{"event":"deleted","scene":..,"revision":N}`: the scene a client was attached to is gone
    /// (an extension of protocol 1); the client is detached.
    static func deleted(scene: String, revision: Int) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.rawKey("event")
        writer.writeRaw("deleted")
        writer.rawKey("scene")
        writer.write(scene)
        writer.rawKey("revision")
        writer.write(revision)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
