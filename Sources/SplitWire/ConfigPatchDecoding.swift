import SplitCore

/// Decodes a `config` object (`scene.create`, `setConfig`) into a `SplitConfigPatch`, by the
/// SplitConfig field names of SEMANTICS 4 / WIRE.md. Absent fields stay unchanged; for the
/// preferred widths and fractions and `placeholder`, `null` (and `"automatic"` for the
/// widths) resets to the default. Unknown fields are refused (`bad_request`) so a typo
/// never passes silently. Value ranges are the core's to check (`SplitConfig.validate`).
/// Every member of a config, in the declaration order of `SplitConfig`'s Codable
/// conformance: the names a `config` object may carry and the members of a stored one.
enum ConfigMember: Int, StoredMember {
    case style, preferredDisplayMode, preferredSplitBehavior
    case preferredPrimaryColumnWidth, preferredPrimaryColumnWidthFraction
    case minimumPrimaryColumnWidth, maximumPrimaryColumnWidth
    case preferredSupplementaryColumnWidth, preferredSupplementaryColumnWidthFraction
    case minimumSupplementaryColumnWidth, maximumSupplementaryColumnWidth
    case primaryEdge, layoutDirection, presentsWithGesture, showsSecondaryOnlyButton
    case roots, placeholder, tabs, collapsePolicy, expandPolicy, topColumnForCollapsing
    case detailRouting, backBehavior, sizePolicy
    // Revision 2 (written only when not at their default).
    case traitOverrides, displayModeButtonVisibility, snapshotOnBackground
    case preferredInspectorColumnWidth, preferredInspectorColumnWidthFraction
    case minimumInspectorColumnWidth, maximumInspectorColumnWidth

    /// Members that may be null: the automatic widths and fractions, and the placeholder.
    var isNullable: Bool {
        switch self {
        case .preferredPrimaryColumnWidth, .preferredPrimaryColumnWidthFraction, .preferredSupplementaryColumnWidth,
            .preferredSupplementaryColumnWidthFraction, .placeholder, .traitOverrides,
            .preferredInspectorColumnWidth, .preferredInspectorColumnWidthFraction:
            true
        default: false
        }
    }
}

extension FieldReader {
    static let configFieldNames = Set(ConfigMember.allCases.map { "\($0)" })

    func configPatch() throws(WireError) -> SplitConfigPatch {
        try refuseUnknownKeys(known: FieldReader.configFieldNames.contains)
        var patch = SplitConfigPatch()
        patch.style = try optionalCase("style", SplitStyle.self)
        if optional("preferredDisplayMode") != nil {
            patch.preferredDisplayMode = try displayMode("preferredDisplayMode")
        }
        patch.preferredSplitBehavior = try optionalCase("preferredSplitBehavior", SplitBehavior.self)
        patch.preferredPrimaryColumnWidth = try resettableWidth("preferredPrimaryColumnWidth")
        patch.preferredPrimaryColumnWidthFraction = try resettableWidth("preferredPrimaryColumnWidthFraction")
        patch.minimumPrimaryColumnWidth = try optionalDouble("minimumPrimaryColumnWidth")
        patch.maximumPrimaryColumnWidth = try optionalDouble("maximumPrimaryColumnWidth")
        patch.preferredSupplementaryColumnWidth = try resettableWidth("preferredSupplementaryColumnWidth")
        patch.preferredSupplementaryColumnWidthFraction =
            try resettableWidth("preferredSupplementaryColumnWidthFraction")
        patch.minimumSupplementaryColumnWidth = try optionalDouble("minimumSupplementaryColumnWidth")
        patch.maximumSupplementaryColumnWidth = try optionalDouble("maximumSupplementaryColumnWidth")
        patch.primaryEdge = try optionalCase("primaryEdge", PrimaryEdge.self)
        patch.layoutDirection = try optionalCase("layoutDirection", LayoutDirection.self)
        if optional("presentsWithGesture") != nil { patch.presentsWithGesture = try bool("presentsWithGesture") }
        if optional("showsSecondaryOnlyButton") != nil {
            patch.showsSecondaryOnlyButton = try bool("showsSecondaryOnlyButton")
        }
        if optional("roots") != nil { patch.roots = try nested("roots").columnRoots() }
        if object["placeholder"] != nil { patch.placeholder = .some(try optionalString("placeholder")) }
        if optional("tabs") != nil { patch.tabs = try tabs("tabs") }
        patch.collapsePolicy = try optionalCase("collapsePolicy", CollapsePolicy.self)
        patch.expandPolicy = try optionalCase("expandPolicy", ExpandPolicy.self)
        patch.topColumnForCollapsing = try optionalCase("topColumnForCollapsing", TopColumnForCollapsing.self)
        patch.detailRouting = try optionalCase("detailRouting", DetailRouting.self)
        patch.backBehavior = try optionalCase("backBehavior", BackBehavior.self)
        patch.sizePolicy = try optionalCase("sizePolicy", SizePolicy.self)
        // Revision 2's members: ConfigMember names them, so a patch must read them (a known
        // name silently dropped would be worse than an unknown one refused).
        if object["traitOverrides"] != nil { patch.traitOverrides = .some(try optionalString("traitOverrides")) }
        patch.displayModeButtonVisibility =
            try optionalCase("displayModeButtonVisibility", DisplayModeButtonVisibility.self)
        if optional("snapshotOnBackground") != nil { patch.snapshotOnBackground = try bool("snapshotOnBackground") }
        patch.preferredInspectorColumnWidth = try resettableWidth("preferredInspectorColumnWidth")
        patch.preferredInspectorColumnWidthFraction = try resettableWidth("preferredInspectorColumnWidthFraction")
        patch.minimumInspectorColumnWidth = try optionalDouble("minimumInspectorColumnWidth")
        patch.maximumInspectorColumnWidth = try optionalDouble("maximumInspectorColumnWidth")
        return patch
    }

    /// `bad_request` for the first key of this object that `known` refuses: a typo anywhere in
    /// a config must not pass silently.
    func refuseUnknownKeys(known: (String) -> Bool, hint: String = "") throws(WireError) {
        for key in object.keys where !known(key) {
            throw WireError.badRequest("unknown config field '\(fieldName(key))'\(hint)")
        }
    }

    private func optionalDouble(_ name: String) throws(WireError) -> Double? {
        guard optional(name) != nil else { return nil }
        return try double(name)
    }

    /// Absent: unchanged (nil); `null` or `"automatic"`: reset (`.some(nil)`); a number: set.
    private func resettableWidth(_ name: String) throws(WireError) -> Double?? {
        guard let value = object[name] else { return nil }
        switch value {
        case .null: return .some(nil)
        case .string("automatic"): return .some(nil)
        case .int, .double: return .some(value.double)
        default: throw invalid(name, "a number, null or \"automatic\"", got: value)
        }
    }

    private func columnRoots() throws(WireError) -> ColumnRoots {
        try refuseUnknownKeys(
            known: { Column(rawValue: $0) != nil || $0 == "inspector" }, hint: " (roots are per column)")
        return ColumnRoots(
            primary: try optionalString("primary"), supplementary: try optionalString("supplementary"),
            secondary: try optionalString("secondary"), compact: try optionalString("compact"),
            inspector: try optionalString("inspector"))
    }

    private func tabs(_ name: String) throws(WireError) -> [TabConfig] {
        var tabs: [TabConfig] = []
        for (index, element) in try array(name).enumerated() {
            let elementName = "\(name)[\(index)]"
            guard let tab = element.object else { throw invalid(elementName, "an object {root, title?}", got: element) }
            let reader = FieldReader(tab, path: fieldName(elementName))
            // A typo in a tab ("titel") must not pass silently, as anywhere else in a config.
            try reader.refuseUnknownKeys(known: { $0 == "root" || $0 == "title" }, hint: " (a tab is {root, title?})")
            tabs.append(TabConfig(root: try reader.identifier("root"), title: try reader.optionalString("title")))
        }
        return tabs
    }
}
