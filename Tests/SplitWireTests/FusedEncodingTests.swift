import PropertyBased
import SplitCore
@testable import SplitWire
import Testing

/// The layout and event writers copy runs of fixed text (a member's name with its
/// punctuation, a traits object, a flag pair) as one static string. Their bytes must be
/// those of the token-by-token writer kept here as the reference (the writers as they were
/// before), over random layouts and events, also after other members and in arrays.
@Suite struct FusedEncodingTests {
    static func referenceLayout(_ layout: Layout, _ w: inout JSONWriter) {
        w.beginObject()
        w.rawKey("size")
        referenceSize(layout.size, &w)
        w.rawKey("orientation")
        w.writeRaw(layout.orientation.wireName)
        w.rawKey("traits")
        referenceTraits(layout.traits, &w)
        w.rawKey("collapsed")
        w.write(layout.collapsed)
        w.rawKey("displayMode")
        referenceName(layout.displayMode?.wireName, &w)
        w.rawKey("splitBehavior")
        referenceName(layout.splitBehavior?.wireName, &w)
        w.rawKey("columns")
        w.beginArray()
        for column in layout.columns {
            w.beginObject()
            w.rawKey("column")
            w.writeRaw(column.column.wireName)
            w.rawKey("visible")
            w.write(column.visible)
            w.rawKey("x")
            w.write(column.x)
            w.rawKey("width")
            w.write(column.width)
            w.rawKey("overlay")
            w.write(column.overlay)
            w.rawKey("dimmed")
            w.write(column.dimmed)
            w.rawKey("stack")
            referenceStrings(column.stack, &w)
            w.endObject()
        }
        w.endArray()
        w.rawKey("presentations")
        w.beginArray()
        for presentation in layout.presentations {
            w.beginObject()
            w.rawKey("vc")
            w.write(presentation.vc)
            w.rawKey("style")
            w.writeRaw(presentation.style.wireName)
            w.rawKey("effectiveStyle")
            w.writeRaw(presentation.effectiveStyle.wireName)
            w.endObject()
        }
        w.endArray()
        if let selectedTab = layout.selectedTab {
            w.rawKey("selectedTab")
            w.write(selectedTab)
        }
        w.endObject()
    }

    static func referenceEvent(_ event: SceneEvent, _ w: inout JSONWriter) {
        w.beginObject()
        w.rawKey("type")
        w.writeRaw(event.wireType)
        switch event {
        case let .traitsChanged(from, to):
            w.rawKey("from")
            referenceTraits(from, &w)
            w.rawKey("to")
            referenceTraits(to, &w)
        case let .viewWillTransition(size):
            w.rawKey("size")
            referenceSize(size, &w)
        case let .willCollapse(moved), let .didCollapse(moved), let .willExpand(moved), let .didExpand(moved):
            w.rawKey("moved")
            referenceStrings(moved, &w)
        case let .displayModeChanged(from, to):
            w.rawKey("from")
            referenceName(from?.wireName, &w)
            w.rawKey("to")
            referenceName(to?.wireName, &w)
        case let .appear(vc, column), let .disappear(vc, column):
            w.rawKey("vc")
            w.write(vc)
            w.rawKey("column")
            w.writeRaw(column.wireName)
        case let .presented(vc, style):
            w.rawKey("vc")
            w.write(vc)
            w.rawKey("style")
            w.writeRaw(style.wireName)
        case let .dismissed(vc):
            w.rawKey("vc")
            w.write(vc)
        }
        w.endObject()
    }

    static func referenceSize(_ size: Size, _ w: inout JSONWriter) {
        w.beginObject()
        w.rawKey("width")
        w.write(size.width)
        w.rawKey("height")
        w.write(size.height)
        w.endObject()
    }

    static func referenceTraits(_ traits: Traits, _ w: inout JSONWriter) {
        w.beginObject()
        w.rawKey("horizontalSizeClass")
        w.writeRaw(traits.horizontalSizeClass.wireName)
        w.rawKey("verticalSizeClass")
        w.writeRaw(traits.verticalSizeClass.wireName)
        w.endObject()
    }

    static func referenceStrings(_ strings: [String], _ w: inout JSONWriter) {
        w.beginArray()
        for string in strings { w.write(string) }
        w.endArray()
    }

    static func referenceName(_ name: StaticString?, _ w: inout JSONWriter) {
        if let name { w.writeRaw(name) } else { w.writeNull() }
    }

    /// `body`'s output after a member already written (so a missing or extra comma shows).
    static func written(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.rawKey("before")
        writer.write(1)
        writer.rawKey("value")
        body(&writer)
        writer.rawKey("after")
        writer.writeNull()
        writer.endObject()
        return writer.bytes
    }

    @Test("a layout is written as the token-by-token writer writes it")
    func layoutMatchesReference() async {
        await propertyCheck(count: 500, input: WireGenerators.layout) { layout in
            #expect(Self.written { $0.write(layout) } == Self.written { Self.referenceLayout(layout, &$0) })
        }
    }

    @Test("events are written as the token-by-token writer writes them")
    func eventsMatchReference() async {
        await propertyCheck(count: 500, input: WireGenerators.events) { events in
            let fused = Self.written { $0.write(events) }
            let reference = Self.written { writer in
                writer.beginArray()
                for event in events { Self.referenceEvent(event, &writer) }
                writer.endArray()
            }
            #expect(fused == reference)
        }
    }

    @Test("every traits pair, alone and in an array, as the token-by-token writer writes it")
    func everyTraitsPair() {
        for horizontal in SizeClass.allCases {
            for vertical in SizeClass.allCases {
                let traits = Traits(horizontalSizeClass: horizontal, verticalSizeClass: vertical)
                #expect(Self.written { $0.write(traits) } == Self.written { Self.referenceTraits(traits, &$0) })
                let pair = Self.written { writer in
                    writer.beginArray()
                    writer.write(traits)
                    writer.write(traits)
                    writer.endArray()
                }
                let referencePair = Self.written { writer in
                    writer.beginArray()
                    Self.referenceTraits(traits, &writer)
                    Self.referenceTraits(traits, &writer)
                    writer.endArray()
                }
                #expect(pair == referencePair)
            }
        }
    }
}
