import SplitCore

/// The WIRE.md "Layout object" and its parts, written field by field in the order WIRE.md
/// shows. Enum values are written from their raw values; `displayMode`/`splitBehavior`
/// are explicit nulls when collapsed; `selectedTab` only when present.
extension JSONWriter {
    public mutating func write(_ layout: Layout) {
        beginObject()
        rawKey("size")
        write(layout.size)
        rawKey("orientation")
        writeRaw(layout.orientation.wireName)
        rawKey("traits")
        write(layout.traits)
        rawKey("collapsed")
        write(layout.collapsed)
        rawKey("displayMode")
        writeName(layout.displayMode?.wireName)
        rawKey("splitBehavior")
        writeName(layout.splitBehavior?.wireName)
        rawKey("columns")
        beginArray()
        for index in layout.columns.indices { write(layout.columns[index]) }
        endArray()
        rawKey("presentations")
        beginArray()
        for presentation in layout.presentations { write(presentation) }
        endArray()
        if let selectedTab = layout.selectedTab {
            rawKey("selectedTab")
            write(selectedTab)
        }
        endObject()
    }

    public mutating func write(_ size: Size) {
        beginObject()
        rawKey("width")
        write(size.width)
        rawKey("height")
        write(size.height)
        endObject()
    }

    public mutating func write(_ traits: Traits) {
        beginObject()
        rawKey("horizontalSizeClass")
        writeRaw(traits.horizontalSizeClass.wireName)
        rawKey("verticalSizeClass")
        writeRaw(traits.verticalSizeClass.wireName)
        endObject()
    }

    public mutating func write(_ column: ColumnLayout) {
        beginObject()
        rawKey("column")
        writeRaw(column.column.wireName)
        rawKey("visible")
        write(column.visible)
        rawKey("x")
        write(column.x)
        rawKey("width")
        write(column.width)
        rawKey("overlay")
        write(column.overlay)
        rawKey("dimmed")
        write(column.dimmed)
        rawKey("stack")
        write(column.stack)
        endObject()
    }

    public mutating func write(_ presentation: PresentationLayout) {
        beginObject()
        rawKey("vc")
        write(presentation.vc)
        rawKey("style")
        writeRaw(presentation.style.wireName)
        rawKey("effectiveStyle")
        writeRaw(presentation.effectiveStyle.wireName)
        endObject()
    }

    public mutating func write(_ strings: [String]) {
        beginArray()
        for string in strings { write(string) }
        endArray()
    }

    /// A wire name or null.
    mutating func writeName(_ name: StaticString?) {
        guard let name else { return writeNull() }
        writeRaw(name)
    }
}
