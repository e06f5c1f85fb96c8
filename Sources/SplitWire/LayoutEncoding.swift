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
        writeName(layout.orientation.rawValue)
        rawKey("traits")
        write(layout.traits)
        rawKey("collapsed")
        write(layout.collapsed)
        rawKey("displayMode")
        writeName(layout.displayMode?.rawValue)
        rawKey("splitBehavior")
        writeName(layout.splitBehavior?.rawValue)
        rawKey("columns")
        beginArray()
        for column in layout.columns { write(column) }
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
        writeName(traits.horizontalSizeClass.rawValue)
        rawKey("verticalSizeClass")
        writeName(traits.verticalSizeClass.rawValue)
        endObject()
    }

    public mutating func write(_ column: ColumnLayout) {
        beginObject()
        rawKey("column")
        writeName(column.column.rawValue)
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
        writeName(presentation.style.rawValue)
        rawKey("effectiveStyle")
        writeName(presentation.effectiveStyle.rawValue)
        endObject()
    }

    public mutating func write(_ strings: [String]) {
        beginArray()
        for string in strings { write(string) }
        endArray()
    }

    /// An enum raw value (plain ASCII identifiers, so no escaping scan) or null.
    mutating func writeName(_ name: String?) {
        guard let name else { return writeNull() }
        write(name)
    }
}
