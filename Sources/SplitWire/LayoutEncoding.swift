import SplitCore

/// The WIRE.md "Layout object" and its parts, written field by field in the order WIRE.md
/// shows. Enum values are written from their raw values; `displayMode`/`splitBehavior`
/// are explicit nulls when collapsed; `selectedTab` only when present.
// Runs of fixed text (a member's name with the punctuation around it, a traits object, a
// flag pair) are copied as one static string: token by token, every name and value pays
// its own comma test and capacity check, and a layout goes out with every change.
// `FusedEncodingTests` holds the output to the token-by-token writer's.
extension JSONWriter {
    public mutating func write(_ layout: Layout) {
        openObject(#"{"size":"#)
        write(layout.size)
        appendStatic(
            layout.orientation == .portrait
                ? #","orientation":"portrait","traits":"#
                : #","orientation":"landscape","traits":"#)
        appendStatic(layout.traits.wireObject)
        appendStatic(layout.collapsed ? #","collapsed":true,"displayMode":"# : #","collapsed":false,"displayMode":"#)
        needsComma = false
        writeName(layout.displayMode?.wireName)
        rawKey("splitBehavior")
        writeName(layout.splitBehavior?.wireName)
        appendStatic(#","columns":["#)
        needsComma = false
        for index in layout.columns.indices { write(layout.columns[index]) }
        appendStatic(#"],"presentations":["#)
        needsComma = false
        for presentation in layout.presentations { write(presentation) }
        endArray()
        if let selectedTab = layout.selectedTab {
            rawKey("selectedTab")
            write(selectedTab)
        }
        endObject()
    }

    public mutating func write(_ size: Size) {
        openObject(#"{"width":"#)
        write(size.width)
        rawKey("height")
        write(size.height)
        endObject()
    }

    public mutating func write(_ traits: Traits) {
        separate()
        appendStatic(traits.wireObject)
        needsComma = true
    }

    public mutating func write(_ column: ColumnLayout) {
        openObject(#"{"column":""#)
        appendStatic(column.column.wireName)
        appendStatic(column.visible ? #"","visible":true,"x":"# : #"","visible":false,"x":"#)
        needsComma = false
        write(column.x)
        rawKey("width")
        write(column.width)
        appendStatic(
            column.overlay
                ? (column.dimmed
                    ? #","overlay":true,"dimmed":true,"stack":"#
                    : #","overlay":true,"dimmed":false,"stack":"#)
                : (column.dimmed
                    ? #","overlay":false,"dimmed":true,"stack":"#
                    : #","overlay":false,"dimmed":false,"stack":"#))
        needsComma = false
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

    /// Starts an object with fixed text that ends after a member's name (`{"size":`).
    @inline(__always)
    mutating func openObject(_ opening: StaticString) {
        separate()
        appendStatic(opening)
        needsComma = false
    }
}

extension Traits {
    /// The whole traits object, one of four.
    var wireObject: StaticString {
        switch (horizontalSizeClass, verticalSizeClass) {
        case (.regular, .regular): #"{"horizontalSizeClass":"regular","verticalSizeClass":"regular"}"#
        case (.compact, .regular): #"{"horizontalSizeClass":"compact","verticalSizeClass":"regular"}"#
        case (.compact, .compact): #"{"horizontalSizeClass":"compact","verticalSizeClass":"compact"}"#
        case (.regular, .compact): #"{"horizontalSizeClass":"regular","verticalSizeClass":"compact"}"#
        }
    }
}
