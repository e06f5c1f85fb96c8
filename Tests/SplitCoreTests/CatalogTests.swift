#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import SplitCore

/// The catalog data (Config/*.json), its embedding and its presets (SEMANTICS 2, 8).
@Suite struct CatalogTests {
    let catalog = Fixture.catalog

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func configFile(_ name: String) throws -> String {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Config").appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self)
    }

    /// Fails until Scripts/embed-config is run after editing Config/*.json.
    @Test func embeddedCatalogMatchesConfigFiles() throws {
        #expect(try Self.configFile("devices.json") == EmbeddedCatalog.devicesJSON + "\n")
        #expect(try Self.configFile("rulesets.json") == EmbeddedCatalog.ruleSetsJSON + "\n")
    }

    @Test func everyProfileOfTheTableIsThere() throws {
        for device in Spec.devices {
            let profile = try #require(catalog.profile(device.id), "\(device.id)")
            #expect(profile.screen == device.portrait)
            #expect(profile.idiom == device.idiom)
            #expect(profile.landscapeHorizontalClass == device.landscapeHorizontal)
            #expect(catalog.defaultSize(device: device.id) == Spec.landscape(device.portrait))
        }
        #expect(catalog.profile("mac")?.idiom == .mac)
        #expect(catalog.defaultSize(device: "mac") == Size(width: 1280, height: 800))
        for name in Spec.ruleSets {
            #expect(catalog.contains(device: name))
            #expect(catalog.defaultSize(device: name) == nil)
            #expect(catalog.presets(device: name).isEmpty)
        }
        let names = catalog.deviceNames
        #expect(Set(names).count == names.count)
        #expect(Set(names).isSuperset(of: Spec.devices.map(\.id) + Spec.ruleSets + ["mac"]))
        #expect(!catalog.contains(device: "ipad"))
    }

    /// Published widths; heights are the screen height of the orientation; Slide Over is the
    /// 1/3 width, 40 pt shorter.
    @Test(arguments: Array(Spec.multitasking.keys))
    func padPresetsMatchThePublishedSizes(id: String) throws {
        let device = try #require(Spec.devices.first { $0.id == id })
        let widths = try #require(Spec.multitasking[id])
        try checkPadPresets(
            id: id, portrait: device.portrait, landscape: widths.landscape, portraitWidths: widths.portrait)
    }

    /// ipad-mini-8.3 (not published) follows the rule every published row follows: a 10-pt
    /// divider, 2/3 = screen - 10 - 1/3, 1/2 = floor((screen - 10) / 2); its 1/3 is 320, as on
    /// every screen narrower than 1180 pt in landscape.
    @Test func miniPresetsFollowThePublishedRule() throws {
        func derived(_ screenWidth: Double, third: Double, half: Bool) -> [String: Double] {
            var widths = ["2/3": screenWidth - 10 - third, "1/3": third]
            if half { widths["1/2"] = ((screenWidth - 10) / 2).rounded(.down) }
            return widths
        }
        for device in Spec.devices where Spec.multitasking[device.id] != nil {
            let published = try #require(Spec.multitasking[device.id])
            let landscapeThird = try #require(published.landscape["1/3"])
            let portraitThird = try #require(published.portrait["1/3"])
            #expect(
                derived(device.portrait.height, third: landscapeThird, half: true) == published.landscape,
                "\(device.id)")
            #expect(
                derived(device.portrait.width, third: portraitThird, half: false) == published.portrait, "\(device.id)")
            #expect(device.portrait.height >= 1180 || landscapeThird == 320, "\(device.id)")
        }
        let mini = Size(width: 744, height: 1133)
        try checkPadPresets(
            id: "ipad-mini-8.3", portrait: mini, landscape: derived(1133, third: 320, half: true),
            portraitWidths: derived(744, third: 320, half: false))
    }

    func checkPadPresets(
        id: String, portrait: Size, landscape: [String: Double], portraitWidths: [String: Double]
    ) throws {
        let presets = catalog.presets(device: id)
        func preset(_ orientation: Orientation, _ name: String) -> Size? {
            presets.first { $0.orientation == orientation && $0.name == name }?.size
        }
        let landscapeScreen = Spec.landscape(portrait)
        #expect(preset(.landscape, "full") == landscapeScreen)
        #expect(preset(.portrait, "full") == portrait)
        for (name, width) in landscape {
            #expect(preset(.landscape, name) == Size(width: width, height: landscapeScreen.height), "\(id) \(name)")
        }
        for (name, width) in portraitWidths {
            #expect(preset(.portrait, name) == Size(width: width, height: portrait.height), "\(id) \(name)")
        }
        #expect(preset(.portrait, "1/2") == nil)
        #expect(preset(.landscape, "slideOver") == Size(width: landscape["1/3"]!, height: landscapeScreen.height - 40))
        #expect(preset(.portrait, "slideOver") == Size(width: portraitWidths["1/3"]!, height: portrait.height - 40))
        #expect(presets.count == 9)
    }

    /// Every preset of every profile resolves the classes SEMANTICS 2 gives it.
    @Test func everyPresetHasTheSpecifiedClasses() throws {
        for profile in catalog.profiles {
            #expect(!profile.presets.isEmpty, "\(profile.id)")
            for preset in profile.presets {
                #expect(
                    preset.size.orientation == preset.orientation || preset.name != "full",
                    "\(profile.id) \(preset.name)")
                let traits = try catalog.traits(device: profile.id, size: preset.size, previous: nil)
                let expected: Traits =
                    switch profile.idiom {
                    case .mac: .regularRegular
                    case .phone:
                        preset.orientation == .portrait
                            ? .compactRegular
                            : Traits(horizontalSizeClass: profile.landscapeHorizontalClass, verticalSizeClass: .compact)
                    case .pad: preset.name == "full" || preset.size.width >= 640 ? .regularRegular : .compactRegular
                    }
                #expect(traits == expected, "\(profile.id) \(preset.orientation)/\(preset.name)")
            }
        }
    }

    @Test func phonePresetsAreFullScreenBothWays() throws {
        for device in Spec.devices where device.idiom == .phone {
            #expect(
                catalog.presets(device: device.id) == [
                    NamedSize(name: "full", orientation: .landscape, size: Spec.landscape(device.portrait)),
                    NamedSize(name: "full", orientation: .portrait, size: device.portrait),
                ])
        }
    }

    @Test func namedPresets() {
        let current = Size(width: 1366, height: 1024)
        #expect(
            catalog.presetSizes("portrait/1/3", device: "ipad-pro-12.9", current: current) == [
                Size(width: 375, height: 1366)
            ])
        #expect(catalog.presetSizes("landscape/full", device: "ipad-pro-12.9", current: current) == [current])
        #expect(
            catalog.presetSizes("landscape/slideOver", device: "ipad-pro-11", current: current) == [
                Size(width: 375, height: 794)
            ])
        // A bare name is taken in the device orientation.
        #expect(
            catalog.presetSizes("1/2", device: "ipad-pro-12.9", current: current) == [Size(width: 678, height: 1024)])
        #expect(
            catalog.presetSizes("full", device: "ipad-pro-12.9", current: Size(width: 1024, height: 1366)) == [
                Size(width: 1024, height: 1366)
            ])
        // The 1/3 window is portrait-shaped but the device is in landscape.
        #expect(
            catalog.presetSizes("full", device: "ipad-pro-12.9", current: Size(width: 375, height: 1024)) == [current])
        // Held in landscape while a window is as high as the landscape screen, in portrait
        // while as high as the portrait screen, whatever its width (splitctl's rule too).
        #expect(
            catalog.presetSizes("1/3", device: "ipad-pro-12.9", current: Size(width: 700, height: 1024)) == [
                Size(width: 375, height: 1024)
            ])
        #expect(
            catalog.presetSizes("1/3", device: "ipad-pro-12.9", current: Size(width: 1300, height: 1366)) == [
                Size(width: 375, height: 1366)
            ])
        #expect(
            catalog.presetSizes("full", device: "ipad-pro-12.9", current: Size(width: 500, height: 900)) == [
                Size(width: 1024, height: 1366)
            ])
        #expect(catalog.presetSizes("portrait/1/2", device: "ipad-pro-12.9", current: current) == nil)
        #expect(catalog.presetSizes("sideways/full", device: "ipad-pro-12.9", current: current) == nil)
        #expect(catalog.presetSizes("portrait/full", device: "nope", current: current) == nil)
        #expect(catalog.presetSizes("portrait/full", device: "material", current: current) == nil)
        #expect(
            catalog.presetSizes("portrait/full", device: "iphone-14", current: current) == [
                Size(width: 390, height: 844)
            ])
    }

    /// appSwitcher: the other orientation, the multitasking sizes of SEMANTICS 2 of both
    /// orientations (Slide Over included), the current size.
    @Test func appSwitcherOnAnIPad() throws {
        let full = Size(width: 1366, height: 1024)
        let splits = [
            Size(width: 981, height: 1024), Size(width: 678, height: 1024), Size(width: 375, height: 1024),
            Size(width: 375, height: 984),
            Size(width: 639, height: 1366), Size(width: 375, height: 1366), Size(width: 375, height: 1326),
        ]
        let sizes = try #require(catalog.presetSizes("appSwitcher", device: "ipad-pro-12.9", current: full))
        #expect(sizes == [Size(width: 1024, height: 1366)] + splits + [full])
        // In a landscape half split the device is landscape: the other orientation is portrait.
        let half = Size(width: 678, height: 1024)
        #expect(
            catalog.presetSizes("appSwitcher", device: "ipad-pro-12.9", current: half) == [
                Size(width: 1024, height: 1366)
            ] + splits)
        // Portrait full screen: the other orientation is landscape.
        let portrait = Size(width: 1024, height: 1366)
        #expect(
            catalog.presetSizes("appSwitcher", device: "ipad-pro-12.9", current: portrait) == [full] + splits + [
                portrait
            ])
        // A Split View window taller than wide is still on a landscape screen.
        let tall = Size(width: 700, height: 1024)
        #expect(
            catalog.presetSizes("appSwitcher", device: "ipad-pro-12.9", current: tall) == [portrait] + splits + [tall])
        // A free-form (Stage Manager) window keeps its own orientation and comes last.
        let free = Size(width: 900, height: 700)
        #expect(
            catalog.presetSizes("appSwitcher", device: "ipad-pro-12.9", current: free) == [portrait] + splits + [free])
    }

    @Test func appSwitcherOnPhonesMacAndRuleSets() {
        let phone = Size(width: 844, height: 390)
        #expect(
            catalog.presetSizes("appSwitcher", device: "iphone-14", current: phone) == [
                Size(width: 390, height: 844), phone,
            ])
        #expect(
            catalog.presetSizes("appSwitcher", device: "iphone-14", current: Size(width: 390, height: 844))
                == [phone, Size(width: 390, height: 844)])
        let window = Size(width: 1000, height: 700)
        #expect(
            catalog.presetSizes("appSwitcher", device: "material", current: window) == [
                Size(width: 700, height: 1000), window,
            ])
        #expect(
            catalog.presetSizes("appSwitcher", device: "mac", current: window) == [
                Size(width: 700, height: 1000), window,
            ])
        #expect(
            catalog.presetSizes("appSwitcher", device: "adwaita", current: Size(width: 500, height: 500)) == [
                Size(width: 500, height: 500)
            ])
        #expect(catalog.presetSizes("appSwitcher", device: "nope", current: window) == nil)
        #expect(catalog.presetSizes("lockScreen", device: "material", current: window) == nil)
    }

    @Test func catalogFromJSON() throws {
        let devices = #"""
            {"windowedRegularMinWidth": 500, "profiles": [
              {"id": "tablet", "idiom": "pad", "screen": {"width": 600, "height": 960}, "landscapeHorizontalClass": "regular",
               "presets": [{"name": "full", "orientation": "landscape", "size": {"width": 960, "height": 600}}]}]}
            """#
        let rules =
            #"{"ruleSets": [{"name": "narrow", "rules": [{"when": {"max-width": 300}, "horizontal": "compact"}]}]}"#
        let custom = try DeviceCatalog(devicesJSON: Data(devices.utf8), ruleSetsJSON: Data(rules.utf8))
        #expect(custom.deviceNames == ["tablet", "narrow"])
        #expect(custom.windowedRegularMinWidth == 500)
        #expect(
            try custom.traits(device: "tablet", size: Size(width: 499, height: 600), previous: nil) == .compactRegular)
        #expect(
            try custom.traits(device: "tablet", size: Size(width: 500, height: 600), previous: nil) == .regularRegular)
        #expect(
            try custom.traits(device: "narrow", size: Size(width: 300, height: 600), previous: nil) == .compactRegular)
        #expect(
            try custom.traits(device: "narrow", size: Size(width: 301, height: 600), previous: nil) == .regularRegular)
        let onlyRules = try DeviceCatalog(devicesJSON: nil, ruleSetsJSON: Data(rules.utf8))
        #expect(onlyRules.deviceNames == ["narrow"])
    }

    @Test func addingUserRuleSets() throws {
        let rules = #"{"ruleSets": [{"name": "kiosk", "defaults": {"horizontal": "compact"}, "rules": []}]}"#
        let extended = try catalog.adding(ruleSetsJSON: Data(rules.utf8))
        #expect(extended.deviceNames == catalog.deviceNames + ["kiosk"])
        #expect(
            try extended.traits(device: "kiosk", size: Size(width: 3000, height: 2000), previous: nil)
                == .compactRegular)
        #expect(!catalog.contains(device: "kiosk"))
        let clash = RuleSet(name: "material", rules: [])
        #expect(Fixture.code { _ = try catalog.adding(ruleSets: [clash]) } == .badRequest)
        let clashProfile = RuleSet(name: "iphone-8", rules: [])
        #expect(Fixture.code { _ = try catalog.adding(ruleSets: [clashProfile]) } == .badRequest)
    }

    @Test func invalidCatalogsAreRefused() {
        func load(_ devices: String?, _ rules: String?) -> CoreError? {
            Fixture.error {
                _ = try DeviceCatalog(
                    devicesJSON: devices.map { Data($0.utf8) }, ruleSetsJSON: rules.map { Data($0.utf8) })
            }
        }
        let profile =
            #"{"id": "p", "idiom": "phone", "screen": {"width": 300, "height": 600}, "landscapeHorizontalClass": "compact", "presets": []}"#
        #expect(load("{\"profiles\": [\(profile), \(profile)]}", nil)?.code == .badRequest)
        #expect(
            load("{\"profiles\": [\(profile.replacingOccurrences(of: "300", with: "-300"))]}", nil)?.code == .badRequest
        )
        #expect(
            load("{\"profiles\": [\(profile.replacingOccurrences(of: "phone", with: "watch"))]}", nil)?.code
                == .badRequest)
        #expect(load("not json", nil)?.code == .badRequest)
        #expect(
            load(
                nil, #"{"ruleSets": [{"name": "x", "rules": [{"when": {"min_width": 3}, "horizontal": "compact"}]}]}"#)?
                .code == .badRequest)
        #expect(
            load(nil, #"{"ruleSets": [{"name": "x", "rules": [{"when": {"min-width": 3}}]}]}"#)?.code == .badRequest)
        #expect(load(nil, #"{"ruleSets": [{"name": "x", "hysteresis": -1, "rules": []}]}"#)?.code == .badRequest)
        let missing = load(nil, #"{"ruleSets": [{"rules": []}]}"#)
        #expect(missing?.message.contains("name") == true)
    }
}
