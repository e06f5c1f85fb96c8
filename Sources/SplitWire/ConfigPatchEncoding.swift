import SplitCore

/// A `config` object with exactly the fields the patch sets (the inverse of
/// `ConfigPatchDecoding.swift`): a reset to automatic is written as `null`.
extension JSONWriter {
    public mutating func write(_ patch: SplitConfigPatch) {
        beginObject()
        writeCase("style", patch.style)
        writeCase("preferredDisplayMode", patch.preferredDisplayMode)
        writeCase("preferredSplitBehavior", patch.preferredSplitBehavior)
        writeResettable("preferredPrimaryColumnWidth", patch.preferredPrimaryColumnWidth)
        writeResettable("preferredPrimaryColumnWidthFraction", patch.preferredPrimaryColumnWidthFraction)
        writeNumber("minimumPrimaryColumnWidth", patch.minimumPrimaryColumnWidth)
        writeNumber("maximumPrimaryColumnWidth", patch.maximumPrimaryColumnWidth)
        writeResettable("preferredSupplementaryColumnWidth", patch.preferredSupplementaryColumnWidth)
        writeResettable("preferredSupplementaryColumnWidthFraction", patch.preferredSupplementaryColumnWidthFraction)
        writeNumber("minimumSupplementaryColumnWidth", patch.minimumSupplementaryColumnWidth)
        writeNumber("maximumSupplementaryColumnWidth", patch.maximumSupplementaryColumnWidth)
        writeCase("primaryEdge", patch.primaryEdge)
        writeCase("layoutDirection", patch.layoutDirection)
        writeFlag("presentsWithGesture", patch.presentsWithGesture)
        writeFlag("showsSecondaryOnlyButton", patch.showsSecondaryOnlyButton)
        if let roots = patch.roots {
            rawKey("roots")
            beginObject()
            writeText("primary", roots.primary)
            writeText("supplementary", roots.supplementary)
            writeText("secondary", roots.secondary)
            writeText("compact", roots.compact)
            writeText("inspector", roots.inspector)
            endObject()
        }
        if let placeholder = patch.placeholder {
            rawKey("placeholder")
            if let placeholder { write(placeholder) } else { writeNull() }
        }
        if let tabs = patch.tabs {
            rawKey("tabs")
            beginArray()
            for tab in tabs {
                beginObject()
                rawKey("root")
                write(tab.root)
                writeText("title", tab.title)
                endObject()
            }
            endArray()
        }
        writeCase("collapsePolicy", patch.collapsePolicy)
        writeCase("expandPolicy", patch.expandPolicy)
        writeCase("topColumnForCollapsing", patch.topColumnForCollapsing)
        writeCase("detailRouting", patch.detailRouting)
        writeCase("backBehavior", patch.backBehavior)
        writeCase("sizePolicy", patch.sizePolicy)
        // Revision 2's keys: a journaled setConfig must replay to the same config.
        if let traitOverrides = patch.traitOverrides {
            rawKey("traitOverrides")
            if let traitOverrides { write(traitOverrides) } else { writeNull() }
        }
        writeCase("displayModeButtonVisibility", patch.displayModeButtonVisibility)
        writeFlag("snapshotOnBackground", patch.snapshotOnBackground)
        writeResettable("preferredInspectorColumnWidth", patch.preferredInspectorColumnWidth)
        writeResettable("preferredInspectorColumnWidthFraction", patch.preferredInspectorColumnWidthFraction)
        writeNumber("minimumInspectorColumnWidth", patch.minimumInspectorColumnWidth)
        writeNumber("maximumInspectorColumnWidth", patch.maximumInspectorColumnWidth)
        endObject()
    }

    private mutating func writeCase<E: RawRepresentable>(_ name: StaticString, _ value: E?) where E.RawValue == String {
        guard let value else { return }
        rawKey(name)
        write(value.rawValue)
    }

    private mutating func writeResettable(_ name: StaticString, _ value: Double??) {
        guard let value else { return }
        rawKey(name)
        if let value { write(value) } else { writeNull() }
    }

    private mutating func writeNumber(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        rawKey(name)
        write(value)
    }

    private mutating func writeFlag(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        rawKey(name)
        write(value)
    }

    private mutating func writeText(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        rawKey(name)
        write(value)
    }
}
