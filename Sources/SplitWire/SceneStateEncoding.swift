import SplitCore

// Writes a SceneState as its Codable conformances describe it: members in declaration
// order, nil optionals omitted (synthesized `encodeIfPresent`) except in SplitConfig, whose
// `encode(to:)` writes every key with `null` for nil; doubles as JSONWriter prints them.
// No containers, no dynamic dispatch, field names as static text. A new field is one line
// here, in the order of its case in the object's member enum (SceneStateDecoding.swift).

extension JSONWriter {
    /// Throws `EncodingError.invalidValue` for a non-finite number, as Codable encoders do.
    mutating func writeSceneState(_ state: SceneState) throws {
        beginObject()
        rawKey("id"); write(state.id)
        rawKey("device"); write(state.device)
        rawKey("size"); try writeSize(state.size)
        rawKey("traits"); writeTraits(state.traits)
        rawKey("config"); try writeConfig(state.config)
        rawKey("revision"); write(state.revision)
        rawKey("navigation"); writeNavigation(state.navigation)
        rawKey("display"); writeDisplay(state.display)
        // Revision 2: nil at the default, so revision-1 states keep their stored bytes.
        if let held = state.heldOrientation { rawKey("heldOrientation"); write(held.rawValue) }
        if let activation = state.activationState { rawKey("activationState"); write(activation.rawValue) }
        endObject()
    }

    private mutating func writeSize(_ size: Size) throws {
        beginObject()
        rawKey("width"); try writeFinite(size.width)
        rawKey("height"); try writeFinite(size.height)
        endObject()
    }

    private mutating func writeTraits(_ traits: Traits) {
        beginObject()
        rawKey("horizontalSizeClass"); write(traits.horizontalSizeClass.rawValue)
        rawKey("verticalSizeClass"); write(traits.verticalSizeClass.rawValue)
        endObject()
    }

    private mutating func writeConfig(_ c: SplitConfig) throws {
        beginObject()
        rawKey("style"); write(c.style.rawValue)
        rawKey("preferredDisplayMode"); write(c.preferredDisplayMode.rawValue)
        rawKey("preferredSplitBehavior"); write(c.preferredSplitBehavior.rawValue)
        rawKey("preferredPrimaryColumnWidth"); try writeOptional(c.preferredPrimaryColumnWidth)
        rawKey("preferredPrimaryColumnWidthFraction"); try writeOptional(c.preferredPrimaryColumnWidthFraction)
        rawKey("minimumPrimaryColumnWidth"); try writeFinite(c.minimumPrimaryColumnWidth)
        rawKey("maximumPrimaryColumnWidth"); try writeFinite(c.maximumPrimaryColumnWidth)
        rawKey("preferredSupplementaryColumnWidth"); try writeOptional(c.preferredSupplementaryColumnWidth)
        rawKey("preferredSupplementaryColumnWidthFraction")
        try writeOptional(c.preferredSupplementaryColumnWidthFraction)
        rawKey("minimumSupplementaryColumnWidth"); try writeFinite(c.minimumSupplementaryColumnWidth)
        rawKey("maximumSupplementaryColumnWidth"); try writeFinite(c.maximumSupplementaryColumnWidth)
        rawKey("primaryEdge"); write(c.primaryEdge.rawValue)
        rawKey("layoutDirection"); write(c.layoutDirection.rawValue)
        rawKey("presentsWithGesture"); write(c.presentsWithGesture)
        rawKey("showsSecondaryOnlyButton"); write(c.showsSecondaryOnlyButton)
        rawKey("roots"); writeRoots(c.roots)
        rawKey("placeholder")
        if let placeholder = c.placeholder { write(placeholder) } else { writeNull() }
        rawKey("tabs")
        beginArray()
        for tab in c.tabs {
            beginObject()
            rawKey("root"); write(tab.root)
            if let title = tab.title { rawKey("title"); write(title) }
            endObject()
        }
        endArray()
        rawKey("collapsePolicy"); write(c.collapsePolicy.rawValue)
        rawKey("expandPolicy"); write(c.expandPolicy.rawValue)
        rawKey("topColumnForCollapsing"); write(c.topColumnForCollapsing.rawValue)
        rawKey("detailRouting"); write(c.detailRouting.rawValue)
        rawKey("backBehavior"); write(c.backBehavior.rawValue)
        rawKey("sizePolicy"); write(c.sizePolicy.rawValue)
        // Revision 2's members only when not at their default (SplitConfig's `encode(to:)`).
        if let rules = c.traitOverrides { rawKey("traitOverrides"); write(rules) }
        if c.displayModeButtonVisibility != .automatic {
            rawKey("displayModeButtonVisibility"); write(c.displayModeButtonVisibility.rawValue)
        }
        if !c.snapshotOnBackground { rawKey("snapshotOnBackground"); write(false) }
        if let width = c.preferredInspectorColumnWidth {
            rawKey("preferredInspectorColumnWidth"); try writeFinite(width)
        }
        if let fraction = c.preferredInspectorColumnWidthFraction {
            rawKey("preferredInspectorColumnWidthFraction"); try writeFinite(fraction)
        }
        if c.minimumInspectorColumnWidth != 0 {
            rawKey("minimumInspectorColumnWidth"); try writeFinite(c.minimumInspectorColumnWidth)
        }
        if c.maximumInspectorColumnWidth != 400 {
            rawKey("maximumInspectorColumnWidth"); try writeFinite(c.maximumInspectorColumnWidth)
        }
        endObject()
    }

    private mutating func writeRoots(_ roots: ColumnRoots) {
        beginObject()
        if let primary = roots.primary { rawKey("primary"); write(primary) }
        if let supplementary = roots.supplementary { rawKey("supplementary"); write(supplementary) }
        if let secondary = roots.secondary { rawKey("secondary"); write(secondary) }
        if let compact = roots.compact { rawKey("compact"); write(compact) }
        if let inspector = roots.inspector { rawKey("inspector"); write(inspector) }
        endObject()
    }

    private mutating func writeNavigation(_ n: NavigationState) {
        beginObject()
        rawKey("primary"); writeStrings(n.primary)
        rawKey("supplementary"); writeStrings(n.supplementary)
        rawKey("secondary"); writeStrings(n.secondary)
        rawKey("compact"); writeStrings(n.compact)
        if let placeholder = n.placeholder { rawKey("placeholder"); write(placeholder) }
        rawKey("tabs")
        beginArray()
        for tab in n.tabs {
            beginObject()
            rawKey("primary"); writeStrings(tab.primary)
            rawKey("savedDetail"); writeStrings(tab.savedDetail)
            if let saved = tab.savedSecondary { rawKey("savedSecondary"); writeStrings(saved) }
            endObject()
        }
        endArray()
        if let selected = n.selectedTab { rawKey("selectedTab"); write(selected) }
        rawKey("presentations")
        beginArray()
        for presentation in n.presentations {
            beginObject()
            rawKey("vc"); write(presentation.vc)
            rawKey("style"); write(presentation.style.rawValue)
            if let automatic = presentation.requestedAutomatic { rawKey("requestedAutomatic"); write(automatic) }
            if let anchor = presentation.anchor { rawKey("anchor"); write(anchor) }
            if let edge = presentation.prefersEdgeAttachedInCompactHeight {
                rawKey("prefersEdgeAttachedInCompactHeight"); write(edge)
            }
            endObject()
        }
        endArray()
        if let column = n.lastNavigated { rawKey("lastNavigated"); write(column.rawValue) }
        if let collapsed = n.collapsed { rawKey("collapsed"); writeCollapsed(collapsed) }
        if let memory = n.expandedFrom { rawKey("expandedFrom"); writeNavigation(memory.navigation) }
        if !n.inspector.isEmpty { rawKey("inspector"); writeStrings(n.inspector) }
        if let shown = n.inspectorShown { rawKey("inspectorShown"); write(shown) }
        endObject()
    }

    private mutating func writeCollapsed(_ stack: CollapsedStack) {
        beginObject()
        rawKey("entries"); writeEntries(stack.entries)
        rawKey("built"); writeEntries(stack.built)
        rawKey("shares")
        beginObject()
        rawKey("primary"); write(stack.shares.primary)
        rawKey("supplementary"); write(stack.shares.supplementary)
        rawKey("secondary"); write(stack.shares.secondary)
        endObject()
        endObject()
    }

    private mutating func writeEntries(_ entries: [StackEntry]) {
        beginArray()
        for entry in entries {
            beginObject()
            rawKey("vc"); write(entry.vc)
            rawKey("origin"); write(entry.origin.rawValue)
            endObject()
        }
        endArray()
    }

    private mutating func writeDisplay(_ display: DisplayMemory) {
        beginObject()
        if let mode = display.userDisplayMode { rawKey("userDisplayMode"); write(mode.rawValue) }
        if let traits = display.lastTraits { rawKey("lastTraits"); writeTraits(traits) }
        endObject()
    }

    private mutating func writeStrings(_ strings: [String]) {
        beginArray()
        for string in strings { write(string) }
        endArray()
    }

    private mutating func writeOptional(_ value: Double?) throws {
        if let value { try writeFinite(value) } else { writeNull() }
    }

    private mutating func writeFinite(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "\(value) cannot be represented in JSON"))
        }
        write(value)
    }
}
