// The wire form of SplitConfig (WIRE.md "Config keys").

/// The JSON keys of a split configuration (and of a patch), named as in WIRE.md.
enum SplitConfigKey: String, CodingKey, CaseIterable {
    case style, preferredDisplayMode, preferredSplitBehavior
    case preferredPrimaryColumnWidth, preferredPrimaryColumnWidthFraction
    case minimumPrimaryColumnWidth, maximumPrimaryColumnWidth
    case preferredSupplementaryColumnWidth, preferredSupplementaryColumnWidthFraction
    case minimumSupplementaryColumnWidth, maximumSupplementaryColumnWidth
    case primaryEdge, layoutDirection, presentsWithGesture, showsSecondaryOnlyButton
    case roots, placeholder, tabs
    case collapsePolicy, expandPolicy, topColumnForCollapsing, detailRouting, backBehavior, sizePolicy
    case traitOverrides, displayModeButtonVisibility, snapshotOnBackground
    case preferredInspectorColumnWidth, preferredInspectorColumnWidthFraction
    case minimumInspectorColumnWidth, maximumInspectorColumnWidth
}

extension KeyedDecodingContainer where Key == SplitConfigKey {
    /// A key that may hold a number, `null` or `"automatic"`: absent -> nil,
    /// null / "automatic" -> .some(nil), a number -> .some(value).
    func decodeAutomatic(_ key: Key) throws -> Double?? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) { return .some(nil) }
        if let name = try? decode(String.self, forKey: key) {
            guard name == "automatic" else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self,
                    debugDescription: "expected a number, null or \"automatic\", got \"\(name)\"")
            }
            return .some(nil)
        }
        return .some(try decode(Double.self, forKey: key))
    }

    /// A key that may be absent (nil) but not `null`.
    func decodeValue<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard contains(key) else { return nil }
        guard try !decodeNil(forKey: key) else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "'\(key.stringValue)' cannot be null"))
        }
        return try decode(type, forKey: key)
    }

    /// A key that may hold a string or `null`: absent -> nil, null -> .some(nil).
    func decodeNullable(_ key: Key) throws -> String?? {
        guard contains(key) else { return nil }
        return try decodeNil(forKey: key) ? .some(nil) : .some(try decode(String.self, forKey: key))
    }
}

extension SplitConfig {
    /// Accepts partial objects: every absent key keeps UIKit's default (SEMANTICS 4).
    /// Display modes accept the deprecated aliases; preferred widths and fractions accept
    /// `null` or `"automatic"`. Unknown keys are ignored. Values are not validated here
    /// (`validate()`).
    public init(from decoder: any Decoder) throws {
        self.init()
        let patch = try SplitConfigPatch(from: decoder)
        self = patch.overwriting(self)
    }

    /// Every protocol-1 key, with `null` for automatic widths and for no placeholder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SplitConfigKey.self)
        try c.encode(style, forKey: .style)
        try c.encode(preferredDisplayMode, forKey: .preferredDisplayMode)
        try c.encode(preferredSplitBehavior, forKey: .preferredSplitBehavior)
        try c.encode(preferredPrimaryColumnWidth, forKey: .preferredPrimaryColumnWidth)
        try c.encode(preferredPrimaryColumnWidthFraction, forKey: .preferredPrimaryColumnWidthFraction)
        try c.encode(minimumPrimaryColumnWidth, forKey: .minimumPrimaryColumnWidth)
        try c.encode(maximumPrimaryColumnWidth, forKey: .maximumPrimaryColumnWidth)
        try c.encode(preferredSupplementaryColumnWidth, forKey: .preferredSupplementaryColumnWidth)
        try c.encode(preferredSupplementaryColumnWidthFraction, forKey: .preferredSupplementaryColumnWidthFraction)
        try c.encode(minimumSupplementaryColumnWidth, forKey: .minimumSupplementaryColumnWidth)
        try c.encode(maximumSupplementaryColumnWidth, forKey: .maximumSupplementaryColumnWidth)
        try c.encode(primaryEdge, forKey: .primaryEdge)
        try c.encode(layoutDirection, forKey: .layoutDirection)
        try c.encode(presentsWithGesture, forKey: .presentsWithGesture)
        try c.encode(showsSecondaryOnlyButton, forKey: .showsSecondaryOnlyButton)
        try c.encode(roots, forKey: .roots)
        try c.encode(placeholder, forKey: .placeholder)
        try c.encode(tabs, forKey: .tabs)
        try c.encode(collapsePolicy, forKey: .collapsePolicy)
        try c.encode(expandPolicy, forKey: .expandPolicy)
        try c.encode(topColumnForCollapsing, forKey: .topColumnForCollapsing)
        try c.encode(detailRouting, forKey: .detailRouting)
        try c.encode(backBehavior, forKey: .backBehavior)
        try c.encode(sizePolicy, forKey: .sizePolicy)
        // Revision 2's keys only when not at their default, so that a config of protocol 1
        // encodes to the bytes earlier builds stored (StoredFormatFixtures); absent keys read
        // back as the defaults.
        try c.encodeIfPresent(traitOverrides, forKey: .traitOverrides)
        if displayModeButtonVisibility != .automatic {
            try c.encode(displayModeButtonVisibility, forKey: .displayModeButtonVisibility)
        }
        if !snapshotOnBackground { try c.encode(snapshotOnBackground, forKey: .snapshotOnBackground) }
        try c.encodeIfPresent(preferredInspectorColumnWidth, forKey: .preferredInspectorColumnWidth)
        try c.encodeIfPresent(preferredInspectorColumnWidthFraction, forKey: .preferredInspectorColumnWidthFraction)
        if minimumInspectorColumnWidth != 0 {
            try c.encode(minimumInspectorColumnWidth, forKey: .minimumInspectorColumnWidth)
        }
        if maximumInspectorColumnWidth != 400 {
            try c.encode(maximumInspectorColumnWidth, forKey: .maximumInspectorColumnWidth)
        }
    }
}
