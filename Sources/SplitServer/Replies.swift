import SplitWire

/// Response lines of protocol 1: `{"id":..,"ok":true,...}` and `{"id":..,"ok":false,"error":{...}}`.
enum Replies {
    /// An ok response; `fields` writes the result members after `"ok":true`.
    static func ok(id: JSONValue, _ fields: (inout JSONWriter) -> Void = { _ in }) -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(256)
        writer.beginObject()
        writer.rawKey("id")
        writer.write(id)
        writer.rawKey("ok")
        writer.write(true)
        fields(&writer)
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    static func error(id: JSONValue, code: ErrorCode, message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.rawKey("id")
        writer.write(id)
        writer.rawKey("ok")
        writer.write(false)
        writer.rawKey("error")
        writer.beginObject()
        writer.rawKey("code")
        writer.write(code.rawValue)
        writer.rawKey("message")
        writer.write(message)
        writer.endObject()
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    /// An unsolicited notice to a client about to be disconnected (no `id`: it answers nothing).
    static func disconnectNotice(code: ErrorCode, message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.rawKey("event")
        writer.writeRaw("error")
        writer.rawKey("error")
        writer.beginObject()
        writer.rawKey("code")
        writer.write(code.rawValue)
        writer.rawKey("message")
        writer.write(message)
        writer.endObject()
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
