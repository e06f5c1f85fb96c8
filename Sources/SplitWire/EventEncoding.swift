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

    /// An event of any kind, revision 2's included (WIRE.md "Revision 2 additions").
    public mutating func write(_ event: TimelineEvent) {
        switch event {
        case .scene(let event):
            write(event)
            return
        case .willShowColumn(let column):
            openObject(#"{"type":"willShowColumn","column":"#)
            writeRaw(column.wireName)
        case .willHideColumn(let column):
            openObject(#"{"type":"willHideColumn","column":"#)
            writeRaw(column.wireName)
        case let .activationChanged(from, to):
            openObject(#"{"type":"activationChanged","from":"#)
            writeRaw(from.wireName)
            rawKey("to")
            writeRaw(to.wireName)
        case .snapshotTaken(let session):
            openObject(#"{"type":"snapshotTaken","session":"#)
            write(session)
        case .inspectorAppear(let vc):
            openObject(#"{"type":"appear","vc":"#)
            write(vc)
            rawKey("column")
            writeRaw("inspector")
        case .inspectorDisappear(let vc):
            openObject(#"{"type":"disappear","vc":"#)
            write(vc)
            rawKey("column")
            writeRaw("inspector")
        }
        endObject()
    }

    public mutating func write(_ events: [TimelineEvent]) {
        beginArray()
        for event in events { write(event) }
        endArray()
    }

    /// `events` with revision 2's placed among them (`Transition.timeline`), without
    /// building the merged array.
    public mutating func write(_ events: [SceneEvent], placing revision2Events: [PositionedEvent]) {
        guard !revision2Events.isEmpty else { return write(events) }
        beginArray()
        var pending = revision2Events[...]
        for (index, event) in events.enumerated() {
            while let next = pending.first, next.position <= index {
                write(next.event)
                pending = pending.dropFirst()
            }
            write(event)
        }
        for positioned in pending { write(positioned.event) }
        endArray()
    }
}
