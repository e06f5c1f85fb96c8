import SplitCore

/// Events as `{"type": ..., fields}` with the field names of `SceneEvent`'s Codable
/// conformance in SplitCore (WIRE.md: "an object with a type and its fields").
extension JSONWriter {
    // The type and the first member's name are one static string (see LayoutEncoding.swift).
    public mutating func write(_ event: SceneEvent) {
        switch event {
        case let .traitsChanged(from, to):
            openObject(#"{"type":"traitsChanged","from":"#)
            write(from)
            rawKey("to")
            write(to)
        case let .viewWillTransition(size):
            openObject(#"{"type":"viewWillTransition","size":"#)
            write(size)
        case let .willCollapse(moved):
            openObject(#"{"type":"willCollapse","moved":"#)
            write(moved)
        case let .didCollapse(moved):
            openObject(#"{"type":"didCollapse","moved":"#)
            write(moved)
        case let .willExpand(moved):
            openObject(#"{"type":"willExpand","moved":"#)
            write(moved)
        case let .didExpand(moved):
            openObject(#"{"type":"didExpand","moved":"#)
            write(moved)
        case let .displayModeChanged(from, to):
            openObject(#"{"type":"displayModeChanged","from":"#)
            writeName(from?.wireName)
            rawKey("to")
            writeName(to?.wireName)
        case let .appear(vc, column):
            openObject(#"{"type":"appear","vc":"#)
            write(vc)
            rawKey("column")
            writeRaw(column.wireName)
        case let .disappear(vc, column):
            openObject(#"{"type":"disappear","vc":"#)
            write(vc)
            rawKey("column")
            writeRaw(column.wireName)
        case let .presented(vc, style):
            openObject(#"{"type":"presented","vc":"#)
            write(vc)
            rawKey("style")
            writeRaw(style.wireName)
        case let .dismissed(vc):
            openObject(#"{"type":"dismissed","vc":"#)
            write(vc)
        }
        endObject()
    }

    public mutating func write(_ events: [SceneEvent]) {
        beginArray()
        for event in events { write(event) }
        endArray()
    }
}
