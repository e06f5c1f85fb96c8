import PropertyBased
import Testing
@testable import SplitCore

/// SEMANTICS 2: size classes of the Apple device profiles.
@Suite struct TraitsTests {
    let catalog = Fixture.catalog

    func traits(_ device: String, _ width: Double, _ height: Double) throws -> Traits {
        try catalog.traits(device: device, size: Size(width: width, height: height), previous: nil)
    }

    @Test(arguments: Spec.devices.map(\.id))
    func fullScreenInBothOrientations(id: String) throws {
        let device = try #require(Spec.devices.first { $0.id == id })
        let portrait = try catalog.traits(device: id, size: device.portrait, previous: nil)
        let landscape = try catalog.traits(device: id, size: Spec.landscape(device.portrait), previous: nil)
        switch device.idiom {
        case .pad:
            #expect(portrait == .regularRegular)
            #expect(landscape == .regularRegular)
        case .phone:
            #expect(portrait == .compactRegular)
            #expect(landscape == Traits(horizontalSizeClass: device.landscapeHorizontal, verticalSizeClass: .compact))
        case .mac:
            Issue.record("no mac in the phone/pad table")
        }
    }

    /// Every published multitasking case of SEMANTICS 2.
    @Test func publishedMultitaskingCases() throws {
        #expect(try traits("ipad-pro-12.9", 981, 1024).horizontalSizeClass == .regular)
        #expect(try traits("ipad-pro-12.9", 678, 1024).horizontalSizeClass == .regular)
        #expect(try traits("ipad-pro-12.9", 375, 1024).horizontalSizeClass == .compact)
        #expect(try traits("ipad-pro-11", 809, 834).horizontalSizeClass == .regular)
        #expect(try traits("ipad-pro-11", 592, 834).horizontalSizeClass == .compact)
        // Portrait splits are all compact, on every iPad; vertical stays regular.
        for (id, widths) in Spec.multitasking {
            let height = try #require(Spec.devices.first { $0.id == id }).portrait.height
            for width in widths.portrait.values {
                #expect(try traits(id, width, height) == .compactRegular, "\(id) portrait \(width)")
            }
        }
    }

    /// Narrower than the screen: regular iff width >= 640, whatever the orientation.
    @Test(arguments: ["ipad-pro-12.9", "ipad-9.7", "ipad-mini-8.3"])
    func windowedThreshold(id: String) throws {
        #expect(try traits(id, 639, 700) == .compactRegular)
        #expect(try traits(id, 639.5, 700) == .compactRegular)
        #expect(try traits(id, 640, 700) == .regularRegular)
        #expect(try traits(id, 640, 500) == .regularRegular)
        #expect(try traits(id, 500, 300) == .compactRegular)
    }

    /// A profile's own threshold, or the catalog's, replaces 640.
    @Test func thresholdIsACatalogSetting() throws {
        let pad = try #require(catalog.profile("ipad-pro-12.9"))
        let strict = try DeviceCatalog(profiles: [pad], ruleSets: [], windowedRegularMinWidth: 700)
        #expect(
            try strict.traits(device: pad.id, size: Size(width: 678, height: 1024), previous: nil) == .compactRegular)
        #expect(
            try strict.traits(device: pad.id, size: Size(width: 1366, height: 1024), previous: nil) == .regularRegular)
        var custom = pad
        custom.windowedRegularMinWidth = 500
        let loose = try DeviceCatalog(profiles: [custom], ruleSets: [])
        #expect(
            try loose.traits(device: pad.id, size: Size(width: 504, height: 1366), previous: nil) == .regularRegular)
    }

    /// Per model, not per width: an 874-pt landscape 17 Pro is compact, a 736-pt 8 Plus regular.
    @Test func phoneLandscapeClassIsPerModel() throws {
        #expect(try traits("iphone-17-pro", 874, 402) == .compactCompact)
        #expect(try traits("iphone-8-plus", 736, 414) == .regularCompact)
        #expect(try traits("iphone-17-pro-max", 956, 440) == .regularCompact)
        #expect(try traits("iphone-se", 568, 320) == .compactCompact)
        // Any landscape-shaped window of the model gets the model's class.
        #expect(try traits("iphone-8-plus", 500, 300) == .regularCompact)
        #expect(try traits("iphone-15-pro", 2000, 1000) == .compactCompact)
    }

    /// A Plus/Max phone in Display Zoom behaves like the smaller phone.
    @Test(arguments: [
        ("iphone-8-plus-zoomed", "iphone-8"), ("iphone-11-zoomed", "iphone-x"),
        ("iphone-14-plus-zoomed", "iphone-14"), ("iphone-15-pro-max-zoomed", "iphone-15-pro"),
        ("iphone-17-pro-max-zoomed", "iphone-17-pro"),
    ])
    func zoomedPhonesBehaveLikeTheSmallerOne(zoomed: String, smaller: String) throws {
        let small = try #require(Spec.devices.first { $0.id == smaller })
        let profile = try #require(catalog.profile(zoomed))
        #expect(profile.screen == small.portrait)
        #expect(profile.zoomOf == String(zoomed.dropLast("-zoomed".count)))
        #expect(
            try catalog.traits(device: zoomed, size: Spec.landscape(small.portrait), previous: nil) == .compactCompact)
        #expect(try catalog.traits(device: zoomed, size: small.portrait, previous: nil) == .compactRegular)
        #expect(catalog.defaultSize(device: zoomed) == Spec.landscape(small.portrait))
    }

    /// Orientation comes from the window: a square window is portrait.
    @Test func orientationDerivesFromTheWindow() throws {
        #expect(try traits("iphone-8-plus", 414, 414) == .compactRegular)
        #expect(try traits("iphone-8-plus", 415, 414) == .regularCompact)
    }

    @Test func unknownDeviceAndInvalidSizes() throws {
        #expect(Fixture.code { _ = try traits("ipad-pro-13", 100, 100) } == .unknownDevice)
        for (w, h) in [
            (0.0, 100.0), (-1, 100), (100, 0), (.nan, 100), (100, .infinity), (100_000.5, 100), (100, 200_000),
        ] {
            #expect(Fixture.code { _ = try traits("ipad-pro-12.9", w, h) } == .badRequest, "\(w)x\(h)")
            #expect(Fixture.code { _ = try traits("material", w, h) } == .badRequest, "\(w)x\(h)")
        }
        #expect(try traits("mac", 100_000, 100_000) == .regularRegular)
    }

    @Test func macIsAlwaysRegular() async throws {
        await propertyCheck(count: 200, input: Gen.double(in: 1...5000), Gen.double(in: 1...5000)) { w, h in
            let traits = try traits("mac", w, h)
            #expect(traits == .regularRegular)
        }
    }

    /// Any iPad window: full screen (as wide as the screen in the window's orientation) or
    /// at least 640 wide is horizontally regular, else compact; vertical always regular.
    @Test func padWindowsFollowTheThreshold() async {
        let pads = Spec.devices.filter { $0.idiom == .pad }
        await propertyCheck(
            count: 300, input: Gen.element(of: pads), Gen.double(in: 100...1500), Gen.double(in: 100...1500)
        ) { pad, width, height in
            guard let pad else { return }
            let window = Size(width: width, height: height)
            let screen = window.orientation == .landscape ? Spec.landscape(pad.portrait) : pad.portrait
            let expected: SizeClass = width >= screen.width || width >= 640 ? .regular : .compact
            let traits = try catalog.traits(device: pad.id, size: window, previous: nil)
            #expect(traits == Traits(horizontalSizeClass: expected, verticalSizeClass: .regular))
        }
    }
}
