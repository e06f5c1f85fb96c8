import SplitCore

// Reads a stored SceneState exactly as its Codable conformances read it from strict JSON:
// members in any order, unknown members ignored, the same fields required
// (a synthesized conformance requires every non-optional property, defaults or not), optional
// ones absent or null, SplitConfig through SplitConfigPatch's rules (absent keys keep UIKit's
// defaults, `null` refused except for automatic widths and the placeholder, display modes
// with their deprecated aliases), integers exact (`3.0` is 3).

private let sceneFields = NameTable(fields: ["id", "device", "size", "traits", "config", "revision",
                                             "navigation", "display"])
private let sizeFields = NameTable(fields: ["width", "height"])
private let traitsFields = NameTable(fields: ["horizontalSizeClass", "verticalSizeClass"])
private let configFields = NameTable(fields: FieldReader.configFieldOrder)
private let rootsFields = NameTable(fields: ["primary", "supplementary", "secondary", "compact"])
private let tabConfigFields = NameTable(fields: ["root", "title"])
private let navigationFields = NameTable(fields: ["primary", "supplementary", "secondary", "compact", "placeholder",
                                                  "tabs", "selectedTab", "presentations", "lastNavigated", "collapsed",
                                                  "expandedFrom"])
private let tabStateFields = NameTable(fields: ["primary", "savedDetail", "savedSecondary"])
private let presentationFields = NameTable(fields: ["vc", "style"])
private let collapsedFields = NameTable(fields: ["entries", "built", "shares"])
private let entryFields = NameTable(fields: ["vc", "origin"])
private let sharesFields = NameTable(fields: ["primary", "supplementary", "secondary"])
private let displayFields = NameTable(fields: ["userDisplayMode", "lastTraits"])

private let splitStyles = NameTable(cases: SplitStyle.self)
/// DisplayMode's Decodable accepts the deprecated UIKit names.
private let displayModes = NameTable(cases: DisplayMode.self, aliases: [
    ("allVisible", .oneBesideSecondary), ("primaryHidden", .secondaryOnly), ("primaryOverlay", .oneOverSecondary),
])
private let splitBehaviors = NameTable(cases: SplitBehavior.self)
private let primaryEdges = NameTable(cases: PrimaryEdge.self)
private let layoutDirections = NameTable(cases: LayoutDirection.self)
private let collapsePolicies = NameTable(cases: CollapsePolicy.self)
private let expandPolicies = NameTable(cases: ExpandPolicy.self)
private let topColumns = NameTable(cases: TopColumnForCollapsing.self)
private let detailRoutings = NameTable(cases: DetailRouting.self)
private let backBehaviors = NameTable(cases: BackBehavior.self)
private let sizePolicies = NameTable(cases: SizePolicy.self)
private let sizeClasses = NameTable(cases: SizeClass.self)
private let columns = NameTable(cases: Column.self)
private let presentationStyles = NameTable(cases: PresentationStyle.self)
private let entryOrigins = NameTable(cases: EntryOrigin.self)

/// The automatic widths and fractions (3, 4, 7, 8) and the placeholder (16).
private let nullableConfigFields: UInt64 = 1 << 3 | 1 << 4 | 1 << 7 | 1 << 8 | 1 << 16

/// A mask of the first `count` fields.
private func all(_ count: Int) -> UInt64 { (1 << UInt64(count)) - 1 }

extension FieldScanner {
    mutating func sceneState() throws(StoredDocumentError) -> SceneState {
        var members = try beginObject("a scene state")
        var id = "", device = "", revision = 0
        var size = Size(width: 0, height: 0)
        var traits = Traits.regularRegular
        var config = SplitConfig()
        var navigation = NavigationState()
        var display = DisplayMemory()
        while let field = try nextField(sceneFields, &members) {
            switch field {
            case 0: id = try string()
            case 1: device = try string()
            case 2: size = try self.size()
            case 3: traits = try self.traits()
            case 4: config = try splitConfig()
            case 5: revision = try int()
            case 6: navigation = try navigationState()
            case 7: display = try displayMemory()
            default: try skipValue()
            }
        }
        try requireFields(all(8), members, sceneFields, in: "scene state")
        return SceneState(id: id, device: device, size: size, traits: traits, config: config,
                          revision: revision, navigation: navigation, display: display)
    }

    mutating func size() throws(StoredDocumentError) -> Size {
        var members = try beginObject("size")
        var size = Size(width: 0, height: 0)
        while let field = try nextField(sizeFields, &members) {
            switch field {
            case 0: size.width = try double()
            case 1: size.height = try double()
            default: try skipValue()
            }
        }
        try requireFields(all(2), members, sizeFields, in: "size")
        return size
    }

    mutating func traits() throws(StoredDocumentError) -> Traits {
        var members = try beginObject("traits")
        var traits = Traits.regularRegular
        while let field = try nextField(traitsFields, &members) {
            switch field {
            case 0: traits.horizontalSizeClass = try name(sizeClasses, "size class")
            case 1: traits.verticalSizeClass = try name(sizeClasses, "size class")
            default: try skipValue()
            }
        }
        try requireFields(all(2), members, traitsFields, in: "traits")
        return traits
    }

    // MARK: Configuration

    /// SplitConfig's Decodable: a patch over the defaults.
    mutating func splitConfig() throws(StoredDocumentError) -> SplitConfig {
        var members = try beginObject("config")
        var c = SplitConfig()
        while let field = try nextField(configFields, &members) {
            // Only the automatic widths and the placeholder may be null.
            if field < configFields.count, nullableConfigFields & (1 << UInt64(field)) == 0, try takeNull() {
                throw failure("config '\(configFields.name(field))' cannot be null")
            }
            switch field {
            case 0: c.style = try name(splitStyles, "style")
            case 1: c.preferredDisplayMode = try name(displayModes, "display mode")
            case 2: c.preferredSplitBehavior = try name(splitBehaviors, "split behavior")
            case 3: c.preferredPrimaryColumnWidth = try automaticWidth()
            case 4: c.preferredPrimaryColumnWidthFraction = try automaticWidth()
            case 5: c.minimumPrimaryColumnWidth = try double()
            case 6: c.maximumPrimaryColumnWidth = try double()
            case 7: c.preferredSupplementaryColumnWidth = try automaticWidth()
            case 8: c.preferredSupplementaryColumnWidthFraction = try automaticWidth()
            case 9: c.minimumSupplementaryColumnWidth = try double()
            case 10: c.maximumSupplementaryColumnWidth = try double()
            case 11: c.primaryEdge = try name(primaryEdges, "primary edge")
            case 12: c.layoutDirection = try name(layoutDirections, "layout direction")
            case 13: c.presentsWithGesture = try bool()
            case 14: c.showsSecondaryOnlyButton = try bool()
            case 15: c.roots = try columnRoots()
            case 16: c.placeholder = try takeNull() ? nil : try string()
            case 17: c.tabs = try array("tabs") { (scanner: inout FieldScanner) throws(StoredDocumentError) in
                    try scanner.tabConfig()
                }
            case 18: c.collapsePolicy = try name(collapsePolicies, "collapse policy")
            case 19: c.expandPolicy = try name(expandPolicies, "expand policy")
            case 20: c.topColumnForCollapsing = try name(topColumns, "top column for collapsing")
            case 21: c.detailRouting = try name(detailRoutings, "detail routing")
            case 22: c.backBehavior = try name(backBehaviors, "back behavior")
            case 23: c.sizePolicy = try name(sizePolicies, "size policy")
            default: try skipValue()
            }
        }
        return c
    }

    /// A number, or null / "automatic" for nil.
    private mutating func automaticWidth() throws(StoredDocumentError) -> Double? {
        if try takeNull() { return nil }
        if peek() == UInt8(ascii: "\"") {
            let start = offset
            let text = try string()
            guard text == "automatic" else { throw failure("expected a number, null or \"automatic\"", at: start) }
            return nil
        }
        return try double()
    }

    private mutating func columnRoots() throws(StoredDocumentError) -> ColumnRoots {
        var members = try beginObject("roots")
        var roots = ColumnRoots()
        while let field = try nextField(rootsFields, &members) {
            switch field {
            case 0: roots.primary = try optionalString()
            case 1: roots.supplementary = try optionalString()
            case 2: roots.secondary = try optionalString()
            case 3: roots.compact = try optionalString()
            default: try skipValue()
            }
        }
        return roots
    }

    private mutating func tabConfig() throws(StoredDocumentError) -> TabConfig {
        var members = try beginObject("a tab")
        var tab = TabConfig(root: "")
        while let field = try nextField(tabConfigFields, &members) {
            switch field {
            case 0: tab.root = try string()
            case 1: tab.title = try optionalString()
            default: try skipValue()
            }
        }
        try requireFields(all(1), members, tabConfigFields, in: "tab")
        return tab
    }

    // MARK: Navigation

    /// NavigationState's Decodable: every field optional, absent or null meaning empty.
    mutating func navigationState() throws(StoredDocumentError) -> NavigationState {
        var members = try beginObject("navigation")
        var n = NavigationState()
        while let field = try nextField(navigationFields, &members) {
            if field < navigationFields.count, try takeNull() { continue }
            switch field {
            case 0: n.primary = try strings("primary")
            case 1: n.supplementary = try strings("supplementary")
            case 2: n.secondary = try strings("secondary")
            case 3: n.compact = try strings("compact")
            case 4: n.placeholder = try string()
            case 5: n.tabs = try array("tabs") { (scanner: inout FieldScanner) throws(StoredDocumentError) in
                    try scanner.tabState()
                }
            case 6: n.selectedTab = try int()
            case 7:
                n.presentations = try array("presentations") {
                    (scanner: inout FieldScanner) throws(StoredDocumentError) in try scanner.presentation()
                }
            case 8: n.lastNavigated = try name(columns, "column")
            case 9: n.collapsed = try collapsedStack()
            case 10: n.expandedFrom = ExpandedFrom(try navigationState())
            default: try skipValue()
            }
        }
        return n
    }

    private mutating func tabState() throws(StoredDocumentError) -> TabState {
        var members = try beginObject("a tab state")
        var tab = TabState()
        while let field = try nextField(tabStateFields, &members) {
            switch field {
            case 0: tab.primary = try strings("primary")
            case 1: tab.savedDetail = try strings("savedDetail")
            case 2: tab.savedSecondary = try takeNull() ? nil : try strings("savedSecondary")
            default: try skipValue()
            }
        }
        try requireFields(all(2), members, tabStateFields, in: "tab state")
        return tab
    }

    private mutating func presentation() throws(StoredDocumentError) -> Presentation {
        var members = try beginObject("a presentation")
        var presentation = Presentation(vc: "", style: .fullScreen)
        while let field = try nextField(presentationFields, &members) {
            switch field {
            case 0: presentation.vc = try string()
            case 1: presentation.style = try name(presentationStyles, "presentation style")
            default: try skipValue()
            }
        }
        try requireFields(all(2), members, presentationFields, in: "presentation")
        return presentation
    }

    private mutating func collapsedStack() throws(StoredDocumentError) -> CollapsedStack {
        var members = try beginObject("collapsed")
        var stack = CollapsedStack(entries: [], built: [], shares: ColumnShares())
        while let field = try nextField(collapsedFields, &members) {
            switch field {
            case 0: stack.entries = try array("entries") { (scanner: inout FieldScanner) throws(StoredDocumentError) in
                    try scanner.stackEntry()
                }
            case 1: stack.built = try array("built") { (scanner: inout FieldScanner) throws(StoredDocumentError) in
                    try scanner.stackEntry()
                }
            case 2: stack.shares = try columnShares()
            default: try skipValue()
            }
        }
        try requireFields(all(3), members, collapsedFields, in: "collapsed stack")
        return stack
    }

    private mutating func stackEntry() throws(StoredDocumentError) -> StackEntry {
        var members = try beginObject("a stack entry")
        var entry = StackEntry(vc: "", origin: .pushed)
        while let field = try nextField(entryFields, &members) {
            switch field {
            case 0: entry.vc = try string()
            case 1: entry.origin = try name(entryOrigins, "entry origin")
            default: try skipValue()
            }
        }
        try requireFields(all(2), members, entryFields, in: "stack entry")
        return entry
    }

    private mutating func columnShares() throws(StoredDocumentError) -> ColumnShares {
        var members = try beginObject("shares")
        var shares = ColumnShares()
        while let field = try nextField(sharesFields, &members) {
            switch field {
            case 0: shares.primary = try int()
            case 1: shares.supplementary = try int()
            case 2: shares.secondary = try int()
            default: try skipValue()
            }
        }
        try requireFields(all(3), members, sharesFields, in: "shares")
        return shares
    }

    // MARK: Display memory

    /// DisplayMemory's Decodable: both fields optional, absent or null meaning nil.
    mutating func displayMemory() throws(StoredDocumentError) -> DisplayMemory {
        var members = try beginObject("display")
        var display = DisplayMemory()
        while let field = try nextField(displayFields, &members) {
            if field < displayFields.count, try takeNull() { continue }
            switch field {
            case 0: display.userDisplayMode = try name(displayModes, "display mode")
            case 1: display.lastTraits = try traits()
            default: try skipValue()
            }
        }
        return display
    }

    // MARK: Shared shapes

    /// A string, or nil for null (an optional's `decodeIfPresent`).
    private mutating func optionalString() throws(StoredDocumentError) -> String? {
        try takeNull() ? nil : try string()
    }

    private mutating func strings(_ what: String) throws(StoredDocumentError) -> [String] {
        try array(what) { (scanner: inout FieldScanner) throws(StoredDocumentError) in try scanner.string() }
    }
}
