// The wire form of SplitConfigPatch (same keys as SplitConfig).

extension SplitConfigPatch: Codable {
    /// Every key optional. For preferred widths and fractions, `null` or `"automatic"` means
    /// "reset to automatic" (`.some(nil)`); for `placeholder`, `null` means none; other keys
    /// refuse `null` (it would be ambiguous between "keep" and "reset").
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: SplitConfigKey.self)
        style = try c.decodeValue(SplitStyle.self, .style)
        preferredDisplayMode = try c.decodeValue(DisplayMode.self, .preferredDisplayMode)
        preferredSplitBehavior = try c.decodeValue(SplitBehavior.self, .preferredSplitBehavior)
        preferredPrimaryColumnWidth = try c.decodeAutomatic(.preferredPrimaryColumnWidth)
        preferredPrimaryColumnWidthFraction = try c.decodeAutomatic(.preferredPrimaryColumnWidthFraction)
        minimumPrimaryColumnWidth = try c.decodeValue(Double.self, .minimumPrimaryColumnWidth)
        maximumPrimaryColumnWidth = try c.decodeValue(Double.self, .maximumPrimaryColumnWidth)
        preferredSupplementaryColumnWidth = try c.decodeAutomatic(.preferredSupplementaryColumnWidth)
        preferredSupplementaryColumnWidthFraction = try c.decodeAutomatic(.preferredSupplementaryColumnWidthFraction)
        minimumSupplementaryColumnWidth = try c.decodeValue(Double.self, .minimumSupplementaryColumnWidth)
        maximumSupplementaryColumnWidth = try c.decodeValue(Double.self, .maximumSupplementaryColumnWidth)
        primaryEdge = try c.decodeValue(PrimaryEdge.self, .primaryEdge)
        layoutDirection = try c.decodeValue(LayoutDirection.self, .layoutDirection)
        presentsWithGesture = try c.decodeValue(Bool.self, .presentsWithGesture)
        showsSecondaryOnlyButton = try c.decodeValue(Bool.self, .showsSecondaryOnlyButton)
        roots = try c.decodeValue(ColumnRoots.self, .roots)
        placeholder = try c.decodeNullable(.placeholder)
        tabs = try c.decodeValue([TabConfig].self, .tabs)
        collapsePolicy = try c.decodeValue(CollapsePolicy.self, .collapsePolicy)
        expandPolicy = try c.decodeValue(ExpandPolicy.self, .expandPolicy)
        topColumnForCollapsing = try c.decodeValue(TopColumnForCollapsing.self, .topColumnForCollapsing)
        detailRouting = try c.decodeValue(DetailRouting.self, .detailRouting)
        backBehavior = try c.decodeValue(BackBehavior.self, .backBehavior)
        sizePolicy = try c.decodeValue(SizePolicy.self, .sizePolicy)
        traitOverrides = try c.decodeNullable(.traitOverrides)
        displayModeButtonVisibility = try c.decodeValue(DisplayModeButtonVisibility.self, .displayModeButtonVisibility)
        snapshotOnBackground = try c.decodeValue(Bool.self, .snapshotOnBackground)
        preferredInspectorColumnWidth = try c.decodeAutomatic(.preferredInspectorColumnWidth)
        preferredInspectorColumnWidthFraction = try c.decodeAutomatic(.preferredInspectorColumnWidthFraction)
        minimumInspectorColumnWidth = try c.decodeValue(Double.self, .minimumInspectorColumnWidth)
        maximumInspectorColumnWidth = try c.decodeValue(Double.self, .maximumInspectorColumnWidth)
    }

    /// Only the keys the patch sets; `.some(nil)` as `null`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SplitConfigKey.self)
        try c.encodeIfPresent(style, forKey: .style)
        try c.encodeIfPresent(preferredDisplayMode, forKey: .preferredDisplayMode)
        try c.encodeIfPresent(preferredSplitBehavior, forKey: .preferredSplitBehavior)
        try c.encodeSet(preferredPrimaryColumnWidth, forKey: .preferredPrimaryColumnWidth)
        try c.encodeSet(preferredPrimaryColumnWidthFraction, forKey: .preferredPrimaryColumnWidthFraction)
        try c.encodeIfPresent(minimumPrimaryColumnWidth, forKey: .minimumPrimaryColumnWidth)
        try c.encodeIfPresent(maximumPrimaryColumnWidth, forKey: .maximumPrimaryColumnWidth)
        try c.encodeSet(preferredSupplementaryColumnWidth, forKey: .preferredSupplementaryColumnWidth)
        try c.encodeSet(preferredSupplementaryColumnWidthFraction, forKey: .preferredSupplementaryColumnWidthFraction)
        try c.encodeIfPresent(minimumSupplementaryColumnWidth, forKey: .minimumSupplementaryColumnWidth)
        try c.encodeIfPresent(maximumSupplementaryColumnWidth, forKey: .maximumSupplementaryColumnWidth)
        try c.encodeIfPresent(primaryEdge, forKey: .primaryEdge)
        try c.encodeIfPresent(layoutDirection, forKey: .layoutDirection)
        try c.encodeIfPresent(presentsWithGesture, forKey: .presentsWithGesture)
        try c.encodeIfPresent(showsSecondaryOnlyButton, forKey: .showsSecondaryOnlyButton)
        try c.encodeIfPresent(roots, forKey: .roots)
        try c.encodeSet(placeholder, forKey: .placeholder)
        try c.encodeIfPresent(tabs, forKey: .tabs)
        try c.encodeIfPresent(collapsePolicy, forKey: .collapsePolicy)
        try c.encodeIfPresent(expandPolicy, forKey: .expandPolicy)
        try c.encodeIfPresent(topColumnForCollapsing, forKey: .topColumnForCollapsing)
        try c.encodeIfPresent(detailRouting, forKey: .detailRouting)
        try c.encodeIfPresent(backBehavior, forKey: .backBehavior)
        try c.encodeIfPresent(sizePolicy, forKey: .sizePolicy)
        try c.encodeSet(traitOverrides, forKey: .traitOverrides)
        try c.encodeIfPresent(displayModeButtonVisibility, forKey: .displayModeButtonVisibility)
        try c.encodeIfPresent(snapshotOnBackground, forKey: .snapshotOnBackground)
        try c.encodeSet(preferredInspectorColumnWidth, forKey: .preferredInspectorColumnWidth)
        try c.encodeSet(preferredInspectorColumnWidthFraction, forKey: .preferredInspectorColumnWidthFraction)
        try c.encodeIfPresent(minimumInspectorColumnWidth, forKey: .minimumInspectorColumnWidth)
        try c.encodeIfPresent(maximumInspectorColumnWidth, forKey: .maximumInspectorColumnWidth)
    }

    /// `config` with every set field of this patch written over it, not validated (the
    /// decoding of a full configuration; `SplitConfig.applying` validates).
    func overwriting(_ config: SplitConfig) -> SplitConfig {
        var c = config
        style.map { c.style = $0 }
        preferredDisplayMode.map { c.preferredDisplayMode = $0 }
        preferredSplitBehavior.map { c.preferredSplitBehavior = $0 }
        preferredPrimaryColumnWidth.map { c.preferredPrimaryColumnWidth = $0 }
        preferredPrimaryColumnWidthFraction.map { c.preferredPrimaryColumnWidthFraction = $0 }
        minimumPrimaryColumnWidth.map { c.minimumPrimaryColumnWidth = $0 }
        maximumPrimaryColumnWidth.map { c.maximumPrimaryColumnWidth = $0 }
        preferredSupplementaryColumnWidth.map { c.preferredSupplementaryColumnWidth = $0 }
        preferredSupplementaryColumnWidthFraction.map { c.preferredSupplementaryColumnWidthFraction = $0 }
        minimumSupplementaryColumnWidth.map { c.minimumSupplementaryColumnWidth = $0 }
        maximumSupplementaryColumnWidth.map { c.maximumSupplementaryColumnWidth = $0 }
        primaryEdge.map { c.primaryEdge = $0 }
        layoutDirection.map { c.layoutDirection = $0 }
        presentsWithGesture.map { c.presentsWithGesture = $0 }
        showsSecondaryOnlyButton.map { c.showsSecondaryOnlyButton = $0 }
        roots.map { c.roots = $0 }
        placeholder.map { c.placeholder = $0 }
        tabs.map { c.tabs = $0 }
        collapsePolicy.map { c.collapsePolicy = $0 }
        expandPolicy.map { c.expandPolicy = $0 }
        topColumnForCollapsing.map { c.topColumnForCollapsing = $0 }
        detailRouting.map { c.detailRouting = $0 }
        backBehavior.map { c.backBehavior = $0 }
        sizePolicy.map { c.sizePolicy = $0 }
        traitOverrides.map { c.traitOverrides = $0 }
        displayModeButtonVisibility.map { c.displayModeButtonVisibility = $0 }
        snapshotOnBackground.map { c.snapshotOnBackground = $0 }
        preferredInspectorColumnWidth.map { c.preferredInspectorColumnWidth = $0 }
        preferredInspectorColumnWidthFraction.map { c.preferredInspectorColumnWidthFraction = $0 }
        minimumInspectorColumnWidth.map { c.minimumInspectorColumnWidth = $0 }
        maximumInspectorColumnWidth.map { c.maximumInspectorColumnWidth = $0 }
        return c
    }
}

extension KeyedEncodingContainer where Key == SplitConfigKey {
    /// Absent when the outer optional is nil; `null` for `.some(nil)`.
    mutating func encodeSet<T: Encodable>(_ value: T??, forKey key: Key) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }
}
