import Foundation
import Testing
@testable import SplitCore

/// SEMANTICS 4 / WIRE.md: decoding, encoding, validation and patches of split configurations.
@Suite struct ConfigTests {
    func config(_ json: String) throws -> SplitConfig {
        try JSONDecoder().decode(SplitConfig.self, from: Data(json.utf8))
    }

    func patch(_ json: String) throws -> SplitConfigPatch {
        try JSONDecoder().decode(SplitConfigPatch.self, from: Data(json.utf8))
    }

    func object(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func emptyObjectGivesUIKitDefaults() throws {
        let decoded = try config("{}")
        #expect(decoded == SplitConfig())
        #expect(decoded.style == .classic)
        #expect(decoded.preferredDisplayMode == .automatic)
        #expect(decoded.preferredSplitBehavior == .automatic)
        #expect(decoded.preferredPrimaryColumnWidth == nil)
        #expect(decoded.minimumPrimaryColumnWidth == 0)
        #expect(decoded.maximumPrimaryColumnWidth == 320)
        #expect(decoded.maximumSupplementaryColumnWidth == 320)
        #expect(decoded.primaryEdge == .leading)
        #expect(decoded.presentsWithGesture)
        #expect(!decoded.showsSecondaryOnlyButton)
        #expect(decoded.sizePolicy == .latest)
    }

    @Test func partialObjectKeepsOtherDefaults() throws {
        let decoded = try config(
            """
            {"style": "tripleColumn", "preferredPrimaryColumnWidth": 280, "roots": {"primary": "inbox"},
             "tabs": [{"root": "chats"}, {"root": "contacts", "title": "Contacts"}], "placeholder": "empty",
             "collapsePolicy": "moveDetailExceptRoot", "expandPolicy": "moveAllButRoot", "detailRouting": "resetAndPush",
             "topColumnForCollapsing": "lastNavigated", "sizePolicy": "smallest", "futureKey": 1}
            """)
        var expected = SplitConfig()
        expected.style = .tripleColumn
        expected.preferredPrimaryColumnWidth = 280
        expected.roots = ColumnRoots(primary: "inbox")
        expected.tabs = [TabConfig(root: "chats"), TabConfig(root: "contacts", title: "Contacts")]
        expected.placeholder = "empty"
        expected.collapsePolicy = .moveDetailExceptRoot
        expected.expandPolicy = .moveAllButRoot
        expected.detailRouting = .resetAndPush
        expected.topColumnForCollapsing = .lastNavigated
        expected.sizePolicy = .smallest
        #expect(decoded == expected)
    }

    @Test(arguments: [
        ("allVisible", DisplayMode.oneBesideSecondary), ("primaryHidden", .secondaryOnly),
        ("primaryOverlay", .oneOverSecondary), ("twoDisplaceSecondary", .twoDisplaceSecondary),
    ])
    func deprecatedDisplayModeAliases(name: String, mode: DisplayMode) throws {
        #expect(try config("{\"preferredDisplayMode\": \"\(name)\"}").preferredDisplayMode == mode)
        #expect(try patch("{\"preferredDisplayMode\": \"\(name)\"}").preferredDisplayMode == mode)
    }

    @Test func automaticWidths() throws {
        for value in ["null", "\"automatic\""] {
            let decoded = try config(
                "{\"preferredPrimaryColumnWidth\": \(value), \"preferredSupplementaryColumnWidthFraction\": \(value)}")
            #expect(decoded.preferredPrimaryColumnWidth == nil)
            #expect(decoded.preferredSupplementaryColumnWidthFraction == nil)
        }
        #expect(try config(#"{"preferredPrimaryColumnWidthFraction": 0.3}"#).preferredPrimaryColumnWidthFraction == 0.3)
    }

    @Test func wrongTypesAndUnknownValuesFailToDecode() {
        for json in [
            #"{"style": "quadColumn"}"#, #"{"preferredDisplayMode": "allHidden"}"#,
            #"{"preferredPrimaryColumnWidth": "wide"}"#, #"{"minimumPrimaryColumnWidth": null}"#,
            #"{"presentsWithGesture": "yes"}"#, #"{"tabs": [{"title": "no root"}]}"#, "[]",
        ] {
            #expect(throws: (any Error).self, "\(json)") { try config(json) }
        }
    }

    /// Encoding writes every WIRE.md key; decoding it back is the identity.
    @Test func encodingUsesTheWireNamesAndRoundTrips() throws {
        var original = SplitConfig()
        original.style = .doubleColumn
        original.preferredDisplayMode = .oneOverSecondary
        original.preferredSupplementaryColumnWidth = 250
        original.placeholder = "ph"
        original.roots = ColumnRoots(primary: "list", secondary: "detail")
        let encoded = try object(original)
        let wireKeys = [
            "style", "preferredDisplayMode", "preferredSplitBehavior", "preferredPrimaryColumnWidth",
            "preferredPrimaryColumnWidthFraction", "minimumPrimaryColumnWidth", "maximumPrimaryColumnWidth",
            "preferredSupplementaryColumnWidth", "preferredSupplementaryColumnWidthFraction",
            "minimumSupplementaryColumnWidth", "maximumSupplementaryColumnWidth", "primaryEdge",
            "presentsWithGesture", "roots", "placeholder", "tabs", "collapsePolicy", "expandPolicy",
            "topColumnForCollapsing", "detailRouting", "sizePolicy",
        ]
        #expect(Set(wireKeys).isSubset(of: Set(encoded.keys)))
        #expect(encoded["style"] as? String == "doubleColumn")
        #expect(encoded["preferredDisplayMode"] as? String == "oneOverSecondary")
        #expect(encoded["preferredPrimaryColumnWidth"] is NSNull)
        #expect((encoded["roots"] as? [String: Any])?["primary"] as? String == "list")
        let decoded = try JSONDecoder().decode(SplitConfig.self, from: JSONEncoder().encode(original))
        #expect(decoded == original)
    }

    @Test func patchDistinguishesAbsentNullAndValue() throws {
        let empty = try patch("{}")
        #expect(empty == SplitConfigPatch())
        let reset = try patch(
            #"{"preferredPrimaryColumnWidth": null, "preferredPrimaryColumnWidthFraction": "automatic", "placeholder": null}"#
        )
        #expect(reset.preferredPrimaryColumnWidth == .some(nil))
        #expect(reset.preferredPrimaryColumnWidthFraction == .some(nil))
        #expect(reset.placeholder == .some(nil))
        #expect(reset.preferredSupplementaryColumnWidth == nil)
        #expect(reset.style == nil)
        let set = try patch(
            #"{"preferredPrimaryColumnWidth": 300, "placeholder": "ph", "maximumPrimaryColumnWidth": 500}"#)
        #expect(set.preferredPrimaryColumnWidth == .some(300))
        #expect(set.placeholder == .some("ph"))
        #expect(set.maximumPrimaryColumnWidth == 500)
        #expect(throws: (any Error).self) { try patch(#"{"preferredPrimaryColumnWidth": "narrow"}"#) }
    }

    @Test func patchEncodingRoundTrips() throws {
        var original = SplitConfigPatch()
        original.preferredPrimaryColumnWidth = .some(nil)
        original.preferredSupplementaryColumnWidth = .some(200)
        original.placeholder = .some(nil)
        original.style = .tripleColumn
        let encoded = try object(original)
        #expect(
            Set(encoded.keys) == [
                "preferredPrimaryColumnWidth", "preferredSupplementaryColumnWidth", "placeholder", "style",
            ])
        #expect(encoded["preferredPrimaryColumnWidth"] is NSNull)
        #expect(try JSONDecoder().decode(SplitConfigPatch.self, from: JSONEncoder().encode(original)) == original)
    }

    @Test func applyingAPatch() throws {
        var base = SplitConfig()
        base.preferredPrimaryColumnWidth = 300
        base.placeholder = "ph"
        let changed = try base.applying(
            try patch(#"{"preferredPrimaryColumnWidth": null, "style": "doubleColumn", "placeholder": null}"#))
        #expect(changed.preferredPrimaryColumnWidth == nil)
        #expect(changed.placeholder == nil)
        #expect(changed.style == .doubleColumn)
        var expected = base
        expected.preferredPrimaryColumnWidth = nil
        expected.placeholder = nil
        expected.style = .doubleColumn
        #expect(changed == expected)
        #expect(try base.applying(SplitConfigPatch()) == base)
        #expect(try patch(#"{"style": "tripleColumn"}"#).apply(to: base).style == .tripleColumn)
        // A minimum above the (default) maximum is taken: the minimum wins in the widths.
        #expect(try base.applying(try patch(#"{"minimumPrimaryColumnWidth": 400}"#)).minimumPrimaryColumnWidth == 400)
        #expect(
            try base.applying(try patch(#"{"minimumPrimaryColumnWidth": 400, "maximumPrimaryColumnWidth": 500}"#))
                .minimumPrimaryColumnWidth == 400)
        // An invalid result is refused.
        #expect(Fixture.code { _ = try base.applying(try patch(#"{"minimumPrimaryColumnWidth": -1}"#)) } == .badRequest)
    }

    /// Each impossible value is a bad_request whose message names the field.
    nonisolated(unsafe) static let invalidChanges: [(String, (inout SplitConfig) -> Void)] = [
        ("preferredPrimaryColumnWidth", { (c: inout SplitConfig) in c.preferredPrimaryColumnWidth = -1 }),
        ("preferredPrimaryColumnWidth", { (c: inout SplitConfig) in c.preferredPrimaryColumnWidth = .nan }),
        ("preferredPrimaryColumnWidth", { (c: inout SplitConfig) in c.preferredPrimaryColumnWidth = .infinity }),
        ("preferredPrimaryColumnWidth", { (c: inout SplitConfig) in c.preferredPrimaryColumnWidth = 100_001 }),
        (
            "preferredPrimaryColumnWidthFraction",
            { (c: inout SplitConfig) in c.preferredPrimaryColumnWidthFraction = 1.5 }
        ),
        (
            "preferredPrimaryColumnWidthFraction",
            { (c: inout SplitConfig) in c.preferredPrimaryColumnWidthFraction = -0.1 }
        ),
        ("minimumPrimaryColumnWidth", { (c: inout SplitConfig) in c.minimumPrimaryColumnWidth = -5 }),
        ("maximumPrimaryColumnWidth", { (c: inout SplitConfig) in c.maximumPrimaryColumnWidth = .infinity }),
        ("preferredSupplementaryColumnWidth", { (c: inout SplitConfig) in c.preferredSupplementaryColumnWidth = -0.5 }),
        (
            "preferredSupplementaryColumnWidthFraction",
            { (c: inout SplitConfig) in c.preferredSupplementaryColumnWidthFraction = .nan }
        ),
        ("minimumSupplementaryColumnWidth", { (c: inout SplitConfig) in c.minimumSupplementaryColumnWidth = 100_001 }),
        ("maximumSupplementaryColumnWidth", { (c: inout SplitConfig) in c.maximumSupplementaryColumnWidth = 200_000 }),
        ("tabs[1].root", { (c: inout SplitConfig) in c.tabs = [TabConfig(root: "a"), TabConfig(root: "")] }),
        ("roots.primary", { (c: inout SplitConfig) in c.roots.primary = "" }),
        ("roots.secondary", { (c: inout SplitConfig) in c.roots.secondary = String(repeating: "x", count: 129) }),
        ("placeholder", { (c: inout SplitConfig) in c.placeholder = "" }),
    ]

    @Test(arguments: invalidChanges.indices)
    func validationNamesTheField(index: Int) {
        let (field, change) = Self.invalidChanges[index]
        let error = Fixture.error { try Fixture.config(change).validate() }
        #expect(error?.code == .badRequest)
        #expect(error?.message.contains(field) == true, "\(error?.message ?? "no error")")
    }

    @Test func validValuesPass() throws {
        try SplitConfig().validate()
        try Fixture.config {
            $0.preferredPrimaryColumnWidth = 0
            $0.preferredPrimaryColumnWidthFraction = 1
            $0.minimumPrimaryColumnWidth = 100_000
            $0.maximumPrimaryColumnWidth = 100_000
            $0.roots.secondary = String(repeating: "x", count: 128)
            $0.tabs = [TabConfig(root: "a")]
        }.validate()
    }
}
