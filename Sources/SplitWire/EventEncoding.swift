import SplitCore

/// Events as `{"type": ..., fields}` with the field names of `SceneEvent`'s Codable
/// conformance in SplitCore (WIRE.md: "an object with a type and its fields").
extension JSONWriter {
    public mutating func write(_ event: SceneEvent) {
        beginObject()
        rawKey("type")
        writeRaw(event.wireType)
        switch event {
        case let .traitsChanged(from, to):
            rawKey("from")
            write(from)
            rawKey("to")
            write(to)
        case let .viewWillTransition(size):
            rawKey("size")
            write(size)
        case let .willCollapse(moved), let .didCollapse(moved), let .willExpand(moved), let .didExpand(moved):
            rawKey("moved")
            write(moved)
        case let .displayModeChanged(from, to):
            rawKey("from")
            writeName(from?.wireName)
            rawKey("to")
            writeName(to?.wireName)
        case let .appear(vc, column), let .disappear(vc, column):
            rawKey("vc")
            write(vc)
            rawKey("column")
            writeRaw(column.wireName)
        case let .presented(vc, style):
            rawKey("vc")
            write(vc)
            rawKey("style")
            writeRaw(style.wireName)
        case let .dismissed(vc):
            rawKey("vc")
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
