#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PropertyBased
import Testing
@testable import SplitCore

/// SEMANTICS 2, rule sets: conditions, last match wins, and/or, hysteresis.
@Suite struct RuleSetTests {
    let catalog = Fixture.catalog

    func traits(_ device: String, _ width: Double, _ height: Double = 800, previous: Traits? = nil) throws -> Traits {
        try catalog.traits(device: device, size: Size(width: width, height: height), previous: previous)
    }

    func ruleSet(_ json: String) throws -> RuleSet {
        let catalog = try DeviceCatalog(devicesJSON: nil, ruleSetsJSON: Data("{\"ruleSets\": [\(json)]}".utf8))
        return try #require(catalog.ruleSets.first)
    }

    /// Material: collapsed below 840 (compact < 600 and medium < 840 both compact).
    @Test func material() throws {
        for width in [1.0, 599, 600, 700, 839, 839.9] {
            #expect(try traits("material", width).horizontalSizeClass == .compact, "\(width)")
        }
        for width in [840.0, 900, 1366, 5000] {
            #expect(try traits("material", width).horizontalSizeClass == .regular, "\(width)")
        }
        // Vertical: Material's compact height class, below 480.
        #expect(try traits("material", 1000, 479.5).verticalSizeClass == .compact)
        #expect(try traits("material", 1000, 480).verticalSizeClass == .regular)
        #expect(try traits("material", 844, 390) == .regularCompact)
        #expect(try traits("material", 390, 844) == .compactRegular)
    }

    /// libadwaita: max-width 400 (inclusive) is compact.
    @Test func adwaita() throws {
        #expect(try traits("adwaita", 360) == .compactRegular)
        #expect(try traits("adwaita", 400) == .compactRegular)
        #expect(try traits("adwaita", 400.5) == .regularRegular)
        #expect(try traits("adwaita", 401, 200) == .regularRegular)
    }

    /// Seed 000: width < 1000 is compact. Seed 004: width > 414 is regular.
    @Test func seedOverrides() throws {
        #expect(try traits("compact-below-1000", 999.9).horizontalSizeClass == .compact)
        #expect(try traits("compact-below-1000", 1000).horizontalSizeClass == .regular)
        #expect(try traits("compact-below-1000", 1366, 1024) == .regularRegular)
        #expect(try traits("compact-below-1000", 834, 1194) == .compactRegular)
        #expect(try traits("regular-above-414", 414).horizontalSizeClass == .compact)
        #expect(try traits("regular-above-414", 414.5).horizontalSizeClass == .regular)
        #expect(try traits("regular-above-414", 736, 414) == .regularRegular)
        #expect(try traits("regular-above-414", 375, 667) == .compactRegular)
    }

    @Test func lastMatchingRuleWinsPerClass() throws {
        let set = try ruleSet(
            """
            {"name": "t", "defaults": {"horizontal": "compact", "vertical": "compact"}, "rules": [
              {"when": {"min-width": 500}, "horizontal": "regular", "vertical": "regular"},
              {"when": {"min-width": 800}, "horizontal": "compact"},
              {"when": {"min-width": 1000}, "horizontal": "regular"}]}
            """)
        #expect(set.traits(for: Size(width: 400, height: 100), previous: nil) == .compactCompact)
        #expect(set.traits(for: Size(width: 600, height: 100), previous: nil) == .regularRegular)
        // The second rule overrides only the horizontal class; vertical keeps the first rule's.
        #expect(set.traits(for: Size(width: 900, height: 100), previous: nil) == .compactRegular)
        #expect(set.traits(for: Size(width: 1000, height: 100), previous: nil) == .regularRegular)
    }

    @Test func allAnyAndNesting() throws {
        // Regular when (wide and tall) or (very wide and landscape-shaped).
        let set = try ruleSet(
            """
            {"name": "t", "defaults": {"horizontal": "compact"}, "rules": [
              {"when": {"any": [{"min-width": 700, "min-height": 700},
                                {"all": [{"min-width": 1000}, {"min-aspect": 1.5}]}]},
               "horizontal": "regular"}]}
            """)
        func horizontal(_ w: Double, _ h: Double) -> SizeClass {
            set.traits(for: Size(width: w, height: h), previous: nil).horizontalSizeClass
        }
        #expect(horizontal(700, 700) == .regular)
        #expect(horizontal(700, 699) == .compact)
        #expect(horizontal(1200, 600) == .regular)  // aspect 2
        #expect(horizontal(1200, 500) == .regular)
        #expect(horizontal(999, 500) == .compact)  // aspect ~2 but narrower than 1000
        #expect(horizontal(600, 1000) == .compact)
        #expect(set.traits(for: Size(width: 1, height: 1), previous: nil).verticalSizeClass == .regular)
    }

    @Test func aspectAndHeightBounds() throws {
        let set = try ruleSet(
            """
            {"name": "t", "rules": [
              {"when": {"max-aspect": 0.75}, "horizontal": "compact"},
              {"when": {"max-height": 500}, "vertical": "compact"}]}
            """)
        #expect(set.traits(for: Size(width: 750, height: 1000), previous: nil) == .compactRegular)
        #expect(set.traits(for: Size(width: 751, height: 1000), previous: nil) == .regularRegular)
        #expect(set.traits(for: Size(width: 900, height: 500), previous: nil) == .regularCompact)
        #expect(set.traits(for: Size(width: 300, height: 500), previous: nil) == .compactCompact)
    }

    /// max-width 400 with a 16-pt band: a class flips only once the window is 16 points past
    /// the breakpoint, in each direction.
    @Test func hysteresisOnAMaximum() throws {
        let set = try ruleSet(
            #"{"name": "t", "hysteresis": 16, "rules": [{"when": {"max-width": 400}, "horizontal": "compact"}]}"#)
        func horizontal(_ w: Double, after previous: Traits?) -> SizeClass {
            set.traits(for: Size(width: w, height: 800), previous: previous).horizontalSizeClass
        }
        // Growing from compact: 400 + 16 is still within the band.
        for w in [401.0, 410, 416] { #expect(horizontal(w, after: .compactRegular) == .compact, "\(w)") }
        for w in [416.5, 417, 900] { #expect(horizontal(w, after: .compactRegular) == .regular, "\(w)") }
        // Shrinking from regular: compact from 384 down.
        for w in [400.0, 390, 384.5] { #expect(horizontal(w, after: .regularRegular) == .regular, "\(w)") }
        for w in [384.0, 300] { #expect(horizontal(w, after: .regularRegular) == .compact, "\(w)") }
        // Without a previous value the breakpoint is exact.
        #expect(horizontal(401, after: nil) == .regular)
        #expect(horizontal(400, after: nil) == .compact)
    }

    @Test func hysteresisOnAMinimumAndOnBothClasses() throws {
        let set = try ruleSet(
            """
            {"name": "t", "defaults": {"horizontal": "compact", "vertical": "compact"}, "hysteresis": 10, "rules": [
              {"when": {"min-width": 840}, "horizontal": "regular"},
              {"when": {"min-height": 480}, "vertical": "regular"}]}
            """)
        func traits(_ w: Double, _ h: Double, after previous: Traits?) -> Traits {
            set.traits(for: Size(width: w, height: h), previous: previous)
        }
        #expect(traits(849, 600, after: .compactRegular) == .compactRegular)
        #expect(traits(850, 600, after: .compactRegular) == .regularRegular)
        #expect(traits(831, 600, after: .regularRegular) == .regularRegular)
        #expect(traits(829.5, 600, after: .regularRegular) == .compactRegular)
        // Each class has its own breakpoint: only the vertical one is still within its band.
        #expect(traits(900, 485, after: .compactCompact) == .regularCompact)
        #expect(traits(900, 495, after: .compactCompact) == .regularRegular)
    }

    /// With no hysteresis the previous traits never matter.
    @Test func noHysteresisIgnoresPrevious() async throws {
        let sets = Spec.ruleSets
        await propertyCheck(
            count: 300, input: Gen.element(of: sets), Gen.double(in: 1...2000), Gen.double(in: 1...2000),
            Gen.element(of: [Traits.compactCompact, .compactRegular, .regularCompact, .regularRegular])
        ) { name, w, h, previous in
            guard let name, let previous else { return }
            let exact = try catalog.traits(device: name, size: Size(width: w, height: h), previous: nil)
            let after = try catalog.traits(device: name, size: Size(width: w, height: h), previous: previous)
            #expect(exact == after)
        }
    }

    /// With hysteresis h, each class is either the exact one or the previous one, and it is
    /// the exact one when the window is more than h away from every breakpoint.
    @Test func hysteresisOnlyDelaysFlips() async throws {
        let set = try ruleSet(
            """
            {"name": "t", "hysteresis": 16, "rules": [
              {"when": {"max-width": 400}, "horizontal": "compact"},
              {"when": {"min-width": 1000}, "horizontal": "compact"},
              {"when": {"max-height": 300}, "vertical": "compact"}]}
            """)
        let widthBreaks = [400.0, 1000], heightBreaks = [300.0]
        await propertyCheck(
            count: 500, input: Gen.double(in: 1...1400), Gen.double(in: 1...700),
            Gen.element(of: [Traits.compactCompact, .compactRegular, .regularCompact, .regularRegular])
        ) { w, h, previous in
            guard let previous else { return }
            let size = Size(width: w, height: h)
            let exact = set.traits(for: size, previous: nil)
            let sticky = set.traits(for: size, previous: previous)
            #expect([exact.horizontalSizeClass, previous.horizontalSizeClass].contains(sticky.horizontalSizeClass))
            #expect([exact.verticalSizeClass, previous.verticalSizeClass].contains(sticky.verticalSizeClass))
            if widthBreaks.allSatisfy({ abs(w - $0) > 17 }) {
                #expect(sticky.horizontalSizeClass == exact.horizontalSizeClass)
            }
            if heightBreaks.allSatisfy({ abs(h - $0) > 17 }) {
                #expect(sticky.verticalSizeClass == exact.verticalSizeClass)
            }
        }
    }

    @Test func userDefinedSetsWithoutWhenOrDefaults() throws {
        let set = try ruleSet(#"{"name": "always-compact", "rules": [{"horizontal": "compact"}]}"#)
        #expect(set.defaults == .regularRegular)
        #expect(set.traits(for: Size(width: 5000, height: 5000), previous: nil) == .compactRegular)
        #expect(throws: CoreError.self) {
            try RuleSet(
                name: "bad",
                rules: [SizeClassRule(when: .bound(RuleBound(.minimum, .width, .nan)), horizontal: .compact)]
            ).validate()
        }
    }
}
