import SplitCore

// Reads a stored SceneState exactly as its Codable conformances read it from strict JSON:
// members in any order, unknown members ignored, the same fields required
// (a synthesized conformance requires every non-optional property, defaults or not), optional
// ones absent or null, SplitConfig through SplitConfigPatch's rules (absent keys keep UIKit's
// defaults, `null` refused except for automatic widths and the placeholder, display modes
// with their deprecated aliases), integers exact (`3.0` is 3).

// The members of each stored object, in the order SceneStateEncoding.swift writes them: a
// case's name is the member's JSON name, its raw value the member's index in the object's
// name table (and its bit among the members seen). A new member is one case here, whose
// reading the decoder's exhaustive `switch` then asks for, and one line of the encoder.

/// The members of an object in a stored scene state.
protocol StoredMember: RawRepresentable<Int>, CaseIterable {}

extension StoredMember {
    /// The mask of `members`, for `requireFields`.
    static func mask(_ members: [Self]) -> UInt64 {
        members.reduce(0) { $0 | 1 << UInt64($1.rawValue) }
    }

    /// Every member (for the objects whose Codable conformance requires them all).
    static var all: UInt64 { mask(Array(allCases)) }
}

extension NameTable where Value == Int {
    init<Member: StoredMember>(members: Member.Type) {
        self.init(fields: Member.allCases.map { "\($0)" })
    }
}

private enum SceneStateMember: Int, StoredMember {
    case id, device, size, traits, config, revision, navigation, display
    case heldOrientation, activationState
}
private enum SizeMember: Int, StoredMember { case width, height }
private enum TraitsMember: Int, StoredMember { case horizontalSizeClass, verticalSizeClass }
private enum RootsMember: Int, StoredMember { case primary, supplementary, secondary, compact, inspector }
private enum TabConfigMember: Int, StoredMember { case root, title }
private enum NavigationMember: Int, StoredMember {
    case primary, supplementary, secondary, compact, placeholder, tabs, selectedTab, presentations, lastNavigated
    case collapsed, expandedFrom, inspector, inspectorShown
}
private enum TabStateMember: Int, StoredMember { case primary, savedDetail, savedSecondary }
private enum PresentationMember: Int, StoredMember {
    case vc, style, requestedAutomatic, anchor, prefersEdgeAttachedInCompactHeight
}
private enum CollapsedMember: Int, StoredMember { case entries, built, shares }
private enum EntryMember: Int, StoredMember { case vc, origin }
private enum SharesMember: Int, StoredMember { case primary, supplementary, secondary }
private enum DisplayMember: Int, StoredMember { case userDisplayMode, lastTraits }

private let sceneFields = NameTable(members: SceneStateMember.self)
private let sizeFields = NameTable(members: SizeMember.self)
private let traitsFields = NameTable(members: TraitsMember.self)
private let configFields = NameTable(members: ConfigMember.self)
private let rootsFields = NameTable(members: RootsMember.self)
private let tabConfigFields = NameTable(members: TabConfigMember.self)
private let navigationFields = NameTable(members: NavigationMember.self)
private let tabStateFields = NameTable(members: TabStateMember.self)
private let presentationFields = NameTable(members: PresentationMember.self)
private let collapsedFields = NameTable(members: CollapsedMember.self)
private let entryFields = NameTable(members: EntryMember.self)
private let sharesFields = NameTable(members: SharesMember.self)
private let displayFields = NameTable(members: DisplayMember.self)

// What each object's Codable conformance requires (computed once: `mask` builds an array).
private let requiredSceneMembers = SceneStateMember.mask([
    .id, .device, .size, .traits, .config, .revision,
    .navigation, .display,
])
private let requiredSizeMembers = SizeMember.all
private let requiredTraitsMembers = TraitsMember.all
private let requiredTabConfigMembers = TabConfigMember.mask([.root])
private let requiredTabStateMembers = TabStateMember.mask([.primary, .savedDetail])
private let requiredPresentationMembers = PresentationMember.mask([.vc, .style])
private let requiredCollapsedMembers = CollapsedMember.all
private let requiredEntryMembers = EntryMember.all
private let requiredSharesMembers = SharesMember.all

private let splitStyles = NameTable(cases: SplitStyle.self)
/// DisplayMode's Decodable accepts the deprecated UIKit names.
private let displayModes = NameTable(
    cases: DisplayMode.self,
    aliases: [
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
private let orientations = NameTable(cases: Orientation.self)
private let activationStates = NameTable(cases: ActivationState.self)
private let buttonVisibilities = NameTable(cases: DisplayModeButtonVisibility.self)

/// The config members that may be null.
private let nullableConfigFields = ConfigMember.mask(ConfigMember.allCases.filter(\.isNullable))

extension FieldScanner {
    mutating func sceneState() throws(StoredDocumentError) -> SceneState {
        var members = try beginObject("a scene state")
        var id = "", device = "", revision = 0
        var size = Size(width: 0, height: 0)
        var traits = Traits.regularRegular
        var config = SplitConfig()
        var navigation = NavigationState()
        var display = DisplayMemory()
        var heldOrientation: Orientation?, activationState: ActivationState?
        while let field = try nextField(sceneFields, &members) {
            switch SceneStateMember(rawValue: field) {
            case .id?: id = try string()
            case .device?: device = try string()
            case .size?: size = try self.size()
            case .traits?: traits = try self.traits()
            case .config?: config = try splitConfig()
            case .revision?: revision = try int()
            case .navigation?: navigation = try navigationState()
            case .display?: display = try displayMemory()
            case .heldOrientation?: heldOrientation = try takeNull() ? nil : try name(orientations, "orientation")
            case .activationState?:
                activationState = try takeNull() ? nil : try name(activationStates, "activation state")
            case nil: try skipValue()
            }
        }
        try requireFields(requiredSceneMembers, members, sceneFields, in: "scene state")
        return SceneState(
            id: id, device: device, size: size, traits: traits, config: config,
            revision: revision, navigation: navigation, display: display,
            heldOrientation: heldOrientation, activationState: activationState)
    }

    mutating func size() throws(StoredDocumentError) -> Size {
        var members = try beginObject("size")
        var size = Size(width: 0, height: 0)
        while let field = try nextField(sizeFields, &members) {
            switch SizeMember(rawValue: field) {
            case .width?: size.width = try double()
            case .height?: size.height = try double()
            case nil: try skipValue()
            }
        }
        try requireFields(requiredSizeMembers, members, sizeFields, in: "size")
        return size
    }

    mutating func traits() throws(StoredDocumentError) -> Traits {
        var members = try beginObject("traits")
        var traits = Traits.regularRegular
        while let field = try nextField(traitsFields, &members) {
            switch TraitsMember(rawValue: field) {
            case .horizontalSizeClass?: traits.horizontalSizeClass = try name(sizeClasses, "size class")
            case .verticalSizeClass?: traits.verticalSizeClass = try name(sizeClasses, "size class")
            case nil: try skipValue()
            }
        }
        try requireFields(requiredTraitsMembers, members, traitsFields, in: "traits")
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
            switch ConfigMember(rawValue: field) {
            case .style?: c.style = try name(splitStyles, "style")
            case .preferredDisplayMode?: c.preferredDisplayMode = try name(displayModes, "display mode")
            case .preferredSplitBehavior?: c.preferredSplitBehavior = try name(splitBehaviors, "split behavior")
            case .preferredPrimaryColumnWidth?: c.preferredPrimaryColumnWidth = try automaticWidth()
            case .preferredPrimaryColumnWidthFraction?: c.preferredPrimaryColumnWidthFraction = try automaticWidth()
            case .minimumPrimaryColumnWidth?: c.minimumPrimaryColumnWidth = try double()
            case .maximumPrimaryColumnWidth?: c.maximumPrimaryColumnWidth = try double()
            case .preferredSupplementaryColumnWidth?: c.preferredSupplementaryColumnWidth = try automaticWidth()
            case .preferredSupplementaryColumnWidthFraction?:
                c.preferredSupplementaryColumnWidthFraction = try automaticWidth()
            case .minimumSupplementaryColumnWidth?: c.minimumSupplementaryColumnWidth = try double()
            case .maximumSupplementaryColumnWidth?: c.maximumSupplementaryColumnWidth = try double()
            case .primaryEdge?: c.primaryEdge = try name(primaryEdges, "primary edge")
            case .layoutDirection?: c.layoutDirection = try name(layoutDirections, "layout direction")
            case .presentsWithGesture?: c.presentsWithGesture = try bool()
            case .showsSecondaryOnlyButton?: c.showsSecondaryOnlyButton = try bool()
            case .roots?: c.roots = try columnRoots()
            case .placeholder?: c.placeholder = try takeNull() ? nil : try string()
            case .tabs?:
                c.tabs = try array("tabs") { (scanner: inout FieldScanner) throws(StoredDocumentError) in
                    try scanner.tabConfig()
                }
            case .collapsePolicy?: c.collapsePolicy = try name(collapsePolicies, "collapse policy")
            case .expandPolicy?: c.expandPolicy = try name(expandPolicies, "expand policy")
            case .topColumnForCollapsing?: c.topColumnForCollapsing = try name(topColumns, "top column for collapsing")
            case .detailRouting?: c.detailRouting = try name(detailRoutings, "detail routing")
            case .backBehavior?: c.backBehavior = try name(backBehaviors, "back behavior")
            case .sizePolicy?: c.sizePolicy = try name(sizePolicies, "size policy")
            case .traitOverrides?: c.traitOverrides = try optionalString()
            case .displayModeButtonVisibility?:
                c.displayModeButtonVisibility = try name(buttonVisibilities, "display mode button visibility")
            case .snapshotOnBackground?: c.snapshotOnBackground = try bool()
            case .preferredInspectorColumnWidth?: c.preferredInspectorColumnWidth = try automaticWidth()
            case .preferredInspectorColumnWidthFraction?: c.preferredInspectorColumnWidthFraction = try automaticWidth()
            case .minimumInspectorColumnWidth?: c.minimumInspectorColumnWidth = try double()
            case .maximumInspectorColumnWidth?: c.maximumInspectorColumnWidth = try double()
            case nil: try skipValue()
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
            switch RootsMember(rawValue: field) {
            case .primary?: roots.primary = try optionalString()
            case .supplementary?: roots.supplementary = try optionalString()
            case .secondary?: roots.secondary = try optionalString()
            case .compact?: roots.compact = try optionalString()
            case .inspector?: roots.inspector = try optionalString()
            case nil: try skipValue()
            }
        }
        return roots
    }

    private mutating func tabConfig() throws(StoredDocumentError) -> TabConfig {
        var members = try beginObject("a tab")
        var tab = TabConfig(root: "")
        while let field = try nextField(tabConfigFields, &members) {
            switch TabConfigMember(rawValue: field) {
            case .root?: tab.root = try string()
            case .title?: tab.title = try optionalString()
            case nil: try skipValue()
            }
        }
        try requireFields(requiredTabConfigMembers, members, tabConfigFields, in: "tab")
        return tab
    }

    // MARK: Navigation

    /// NavigationState's Decodable: every field optional, absent or null meaning empty.
    mutating func navigationState() throws(StoredDocumentError) -> NavigationState {
        var members = try beginObject("navigation")
        var n = NavigationState()
        while let field = try nextField(navigationFields, &members) {
            if field < navigationFields.count, try takeNull() { continue }
            switch NavigationMember(rawValue: field) {
            case .primary?: n.primary = try strings("primary")
            case .supplementary?: n.supplementary = try strings("supplementary")
            case .secondary?: n.secondary = try strings("secondary")
            case .compact?: n.compact = try strings("compact")
            case .placeholder?: n.placeholder = try string()
            case .tabs?:
                n.tabs = try array("tabs") { (scanner: inout FieldScanner) throws(StoredDocumentError) in
                    try scanner.tabState()
                }
            case .selectedTab?: n.selectedTab = try int()
            case .presentations?:
                n.presentations = try array("presentations") {
                    (scanner: inout FieldScanner) throws(StoredDocumentError) in try scanner.presentation()
                }
            case .lastNavigated?: n.lastNavigated = try name(columns, "column")
            case .collapsed?: n.collapsed = try collapsedStack()
            case .expandedFrom?: n.expandedFrom = ExpandedFrom(try navigationState())
            case .inspector?: n.inspector = try strings("inspector")
            case .inspectorShown?: n.inspectorShown = try bool()
            case nil: try skipValue()
            }
        }
        return n
    }

    private mutating func tabState() throws(StoredDocumentError) -> TabState {
        var members = try beginObject("a tab state")
        var tab = TabState()
        while let field = try nextField(tabStateFields, &members) {
            switch TabStateMember(rawValue: field) {
            case .primary?: tab.primary = try strings("primary")
            case .savedDetail?: tab.savedDetail = try strings("savedDetail")
            case .savedSecondary?: tab.savedSecondary = try takeNull() ? nil : try strings("savedSecondary")
            case nil: try skipValue()
            }
        }
        try requireFields(requiredTabStateMembers, members, tabStateFields, in: "tab state")
        return tab
    }

    private mutating func presentation() throws(StoredDocumentError) -> Presentation {
        var members = try beginObject("a presentation")
        var presentation = Presentation(vc: "", style: .fullScreen)
        while let field = try nextField(presentationFields, &members) {
            switch PresentationMember(rawValue: field) {
            case .vc?: presentation.vc = try string()
            case .style?: presentation.style = try name(presentationStyles, "presentation style")
            case .requestedAutomatic?: presentation.requestedAutomatic = try takeNull() ? nil : try bool()
            case .anchor?: presentation.anchor = try optionalString()
            case .prefersEdgeAttachedInCompactHeight?:
                presentation.prefersEdgeAttachedInCompactHeight = try takeNull() ? nil : try bool()
            case nil: try skipValue()
            }
        }
        try requireFields(requiredPresentationMembers, members, presentationFields, in: "presentation")
        return presentation
    }

    private mutating func collapsedStack() throws(StoredDocumentError) -> CollapsedStack {
        var members = try beginObject("collapsed")
        var stack = CollapsedStack(entries: [], built: [], shares: ColumnShares())
        while let field = try nextField(collapsedFields, &members) {
            switch CollapsedMember(rawValue: field) {
            case .entries?:
                stack.entries = try array("entries") {
                    (scanner: inout FieldScanner) throws(StoredDocumentError) in try scanner.stackEntry()
                }
            case .built?:
                stack.built = try array("built") {
                    (scanner: inout FieldScanner) throws(StoredDocumentError) in try scanner.stackEntry()
                }
            case .shares?: stack.shares = try columnShares()
            case nil: try skipValue()
            }
        }
        try requireFields(requiredCollapsedMembers, members, collapsedFields, in: "collapsed stack")
        return stack
    }

    private mutating func stackEntry() throws(StoredDocumentError) -> StackEntry {
        var members = try beginObject("a stack entry")
        var entry = StackEntry(vc: "", origin: .pushed)
        while let field = try nextField(entryFields, &members) {
            switch EntryMember(rawValue: field) {
            case .vc?: entry.vc = try string()
            case .origin?: entry.origin = try name(entryOrigins, "entry origin")
            case nil: try skipValue()
            }
        }
        try requireFields(requiredEntryMembers, members, entryFields, in: "stack entry")
        return entry
    }

    private mutating func columnShares() throws(StoredDocumentError) -> ColumnShares {
        var members = try beginObject("shares")
        var shares = ColumnShares()
        while let field = try nextField(sharesFields, &members) {
            switch SharesMember(rawValue: field) {
            case .primary?: shares.primary = try int()
            case .supplementary?: shares.supplementary = try int()
            case .secondary?: shares.secondary = try int()
            case nil: try skipValue()
            }
        }
        try requireFields(requiredSharesMembers, members, sharesFields, in: "shares")
        return shares
    }

    // MARK: Display memory

    /// DisplayMemory's Decodable: both fields optional, absent or null meaning nil.
    mutating func displayMemory() throws(StoredDocumentError) -> DisplayMemory {
        var members = try beginObject("display")
        var display = DisplayMemory()
        while let field = try nextField(displayFields, &members) {
            if field < displayFields.count, try takeNull() { continue }
            switch DisplayMember(rawValue: field) {
            case .userDisplayMode?: display.userDisplayMode = try name(displayModes, "display mode")
            case .lastTraits?: display.lastTraits = try traits()
            case nil: try skipValue()
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
