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
        let additions = layout.revision2
        if let additions {
            appendStatic(
                additions.interfaceOrientation == .portrait
                    ? #","interfaceOrientation":"portrait""# : #","interfaceOrientation":"landscape""#)
        }
        appendStatic(layout.collapsed ? #","collapsed":true,"displayMode":"# : #","collapsed":false,"displayMode":"#)
        needsComma = false
        writeName(layout.displayMode?.wireName)
        rawKey("splitBehavior")
        writeName(layout.splitBehavior?.wireName)
        if let additions {
            rawKey("activation")
            writeRaw(additions.activation.wireName)
            appendStatic(
                additions.displayModeButton.visible
                    ? #","displayModeButton":{"visible":true,"target":"#
                    : #","displayModeButton":{"visible":false,"target":"#)
            needsComma = false
            writeName(additions.displayModeButton.target?.wireName)
            endObject()
        }
        appendStatic(#","columns":["#)
        needsComma = false
        for index in layout.columns.indices { write(layout.columns[index]) }
        // The inspector follows the secondary (the last column) while expanded; collapsed, a
        // shown one is the first presentation (the split view controller's own sheet, under
        // the modals the app presented).
        if let inspector = additions?.inspector, !layout.collapsed {
            write(
                ColumnLayout(
                    column: .secondary, visible: inspector.visible, x: inspector.x, width: inspector.width,
                    overlay: inspector.overlay, stack: inspector.stack),
                name: "inspector")
        }
        appendStatic(#"],"presentations":["#)
        needsComma = false
        if let inspector = additions?.inspector, inspector.presentedAsSheet, let top = inspector.stack.last {
            beginObject()
            rawKey("vc")
            write(top)
            rawKey("style")
            writeRaw(PresentationStyle.pageSheet.wireName)
            rawKey("effectiveStyle")
            writeRaw(Presentation(vc: top, style: .pageSheet).effectiveStyle(in: layout.traits).wireName)
            rawKey("source")
            writeRaw("inspector")
            endObject()
        }
        for index in layout.presentations.indices {
            let extra = additions.flatMap { index < $0.presentations.count ? $0.presentations[index] : nil }
            write(layout.presentations[index], additions: extra)
        }
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
        write(column, name: column.column.wireName)
    }

    /// A column entry under the column name `name` (the inspector is no `Column`).
    mutating func write(_ column: ColumnLayout, name: StaticString) {
        openObject(#"{"column":""#)
        appendStatic(name)
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
        write(presentation, additions: nil)
    }

    /// A presentation entry; `additions` (revision 2): the requested style as the request
    /// named it (`automatic`), the anchor, and `prefersEdgeAttachedInCompactHeight` when set.
    mutating func write(_ presentation: PresentationLayout, additions: PresentationAdditions?) {
        beginObject()
        rawKey("vc")
        write(presentation.vc)
        rawKey("style")
        if additions?.requestedStyle == "automatic" {
            writeRaw("automatic")
        } else {
            writeRaw(presentation.style.wireName)
        }
        rawKey("effectiveStyle")
        writeRaw(presentation.effectiveStyle.wireName)
        if let anchor = additions?.anchor {
            rawKey("anchor")
            write(anchor)
        }
        if additions?.prefersEdgeAttachedInCompactHeight == true {
            rawKey("prefersEdgeAttachedInCompactHeight")
            write(true)
        }
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
