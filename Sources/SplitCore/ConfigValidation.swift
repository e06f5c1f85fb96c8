// Validation of split configurations and application of patches.

extension SplitConfig {
    /// Longest accepted view-controller id (roots, placeholder, tab roots).
    public static let maximumIdLength = 128

    /// Throws `bad_request`, naming the field, for impossible values: widths that are
    /// negative, NaN, infinite or > 100000; fractions outside 0...1; empty ids or ids longer
    /// than 128 characters (roots, placeholder, tab roots). A minimum above the maximum is
    /// not refused: the minimum wins (`ColumnWidths`), so a minimum set alone above the
    /// default maximum of 320 means what it says.
    public func validate() throws(CoreError) {
        try Self.checkWidth(preferredPrimaryColumnWidth, "preferredPrimaryColumnWidth")
        try Self.checkFraction(preferredPrimaryColumnWidthFraction, "preferredPrimaryColumnWidthFraction")
        try Self.checkWidth(minimumPrimaryColumnWidth, "minimumPrimaryColumnWidth")
        try Self.checkWidth(maximumPrimaryColumnWidth, "maximumPrimaryColumnWidth")
        try Self.checkWidth(preferredSupplementaryColumnWidth, "preferredSupplementaryColumnWidth")
        try Self.checkFraction(preferredSupplementaryColumnWidthFraction, "preferredSupplementaryColumnWidthFraction")
        try Self.checkWidth(minimumSupplementaryColumnWidth, "minimumSupplementaryColumnWidth")
        try Self.checkWidth(maximumSupplementaryColumnWidth, "maximumSupplementaryColumnWidth")
        try Self.checkId(roots.primary, "roots.primary")
        try Self.checkId(roots.supplementary, "roots.supplementary")
        try Self.checkId(roots.secondary, "roots.secondary")
        try Self.checkId(roots.compact, "roots.compact")
        try Self.checkId(roots.inspector, "roots.inspector")
        if roots.inspector != nil, style == .classic {
            throw .badRequest(
                "roots.inspector: the inspector column needs a column style (doubleColumn or tripleColumn)")
        }
        try Self.checkWidth(preferredInspectorColumnWidth, "preferredInspectorColumnWidth")
        try Self.checkFraction(preferredInspectorColumnWidthFraction, "preferredInspectorColumnWidthFraction")
        try Self.checkWidth(minimumInspectorColumnWidth, "minimumInspectorColumnWidth")
        try Self.checkWidth(maximumInspectorColumnWidth, "maximumInspectorColumnWidth")
        try Self.checkId(placeholder, "placeholder")
        if let traitOverrides, traitOverrides.isEmpty { throw .badRequest("traitOverrides must not be empty") }
        for (index, tab) in tabs.enumerated() {
            try Self.checkId(tab.root, "tabs[\(index)].root")
        }
    }

    /// The configuration with `patch` applied, validated.
    public func applying(_ patch: SplitConfigPatch) throws(CoreError) -> SplitConfig {
        let config = patch.overwriting(self)
        try config.validate()
        return config
    }

    private static func checkWidth(_ value: Double?, _ field: String) throws(CoreError) {
        guard let value else { return }
        guard value.isFinite, value >= 0, value <= Size.maximumSide else {
            throw .badRequest(
                "\(field) must be a number of points in 0...\(formatPoints(Size.maximumSide)), got \(value)")
        }
    }

    private static func checkFraction(_ value: Double?, _ field: String) throws(CoreError) {
        guard let value else { return }
        guard value.isFinite, (0...1).contains(value) else {
            throw .badRequest("\(field) must be a fraction in 0...1, got \(value)")
        }
    }

    private static func checkId(_ id: String?, _ field: String) throws(CoreError) {
        guard let id else { return }
        guard !id.isEmpty else { throw .badRequest("\(field) must not be empty") }
        guard id.count <= maximumIdLength else {
            throw .badRequest("\(field) is longer than \(maximumIdLength) characters")
        }
    }
}

extension SplitConfigPatch {
    /// `config` with this patch applied, validated (same as `config.applying(self)`).
    public func apply(to config: SplitConfig) throws(CoreError) -> SplitConfig {
        try config.applying(self)
    }
}
