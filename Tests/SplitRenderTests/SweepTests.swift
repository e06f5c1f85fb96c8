import Foundation
import PropertyBased
import SplitCore
import Testing
@testable import SplitRender

/// SplitCore's sweep (WIRE.md "Explain and sweep"): intervals agree with resizing a scene.
@Suite struct SweepTests {
    let engine = SplitEngine()

    static let styles = [
        #"{"roots":{"primary":"inbox","secondary":"detail"}}"#,
        #"{"style":"doubleColumn"}"#,
        #"{"style":"tripleColumn"}"#,
    ]

    /// The summary a scene created at `from` shows after a resize to `width` (what a
    /// sweep's interval claims for every point in it).
    func resized(
        _ device: String, config: String, from: Double, to width: Double, height: Double
    ) throws -> SweepSummary {
        let state = try engine.createScene(
            id: "s", device: device, size: Size(width: from, height: height), config: Scenes.patch(config))
        return SweepSummary(try engine.apply(.resize(Size(width: width, height: height)), to: state).layout)
    }

    func checkShape(_ intervals: [SweepInterval], from: Double, to: Double) {
        #expect(intervals.first?.from == from)
        #expect(intervals.last?.to == to)
        for (a, b) in zip(intervals, intervals.dropFirst()) {
            #expect(b.from == a.to + 1, "contiguous in 1-pt steps")
            #expect(a.summary != b.summary, "adjacent intervals differ")
        }
        for interval in intervals { #expect(interval.from <= interval.to) }
    }

    @Test func seedRuleSetsBreakExactly() throws {
        let compact = try engine.sweep(device: "compact-below-1000", config: nil, from: 900, to: 1100, fixed: 800)
        checkShape(compact, from: 900, to: 1100)
        #expect(compact.map(\.summary.horizontalSizeClass).first == .compact)
        let flip = try #require(compact.firstIndex { $0.summary.horizontalSizeClass == .regular })
        #expect(compact[flip].from == 1000 && compact[flip - 1].to == 999)
        #expect(compact[flip - 1].summary.collapsed && !compact[flip].summary.collapsed)

        let regular = try engine.sweep(device: "regular-above-414", config: nil, from: 300, to: 500, fixed: 800)
        checkShape(regular, from: 300, to: 500)
        let expand = try #require(regular.firstIndex { $0.summary.horizontalSizeClass == .regular })
        #expect(regular[expand - 1].to == 414 && regular[expand].from == 415)
        #expect(regular[expand - 1].summary.collapsed)
    }

    /// Every device profile × style: each interval's ends resolve (by resizing a scene) to
    /// the interval's summary, and the points just outside to the neighbours'.
    @Test func everyDeviceAndStyleAgreesWithResizing() throws {
        for device in engine.catalog.profiles.map(\.id) {
            let screen = try #require(engine.catalog.defaultSize(device: device))
            for config in Self.styles {
                let to = screen.width + 200
                let intervals = try engine.sweep(device: device, config: Scenes.patch(config), from: 200, to: to)
                checkShape(intervals, from: 200, to: to)
                for interval in intervals {
                    for end in Set([interval.from, interval.to]) {
                        #expect(
                            try resized(device, config: config, from: 200, to: end, height: screen.height)
                                == interval.summary,
                            "\(device) \(config) at \(end)")
                    }
                }
            }
        }
    }

    /// Random points inside random sweeps agree with resizing there.
    @Test func randomPointsAgree() async {
        let devices =
            engine.catalog.profiles.map(\.id) + ["material", "adwaita", "compact-below-1000", "regular-above-414"]
        await propertyCheck(
            count: 60, input: Gen.element(of: devices), Gen.element(of: Self.styles),
            Gen.double(in: 100...1500), Gen.double(in: 300...1400)
        ) { device, config, start, height in
            guard let device, let config else { return }
            let from = start.rounded(), to = from + 300
            let intervals = try engine.sweep(
                device: device, config: Scenes.patch(config), from: from, to: to, fixed: height)
            checkShape(intervals, from: from, to: to)
            for point in stride(from: from, through: to, by: 37) {
                let interval = try #require(intervals.first { $0.from <= point && point <= $0.to })
                #expect(try resized(device, config: config, from: from, to: point, height: height) == interval.summary)
            }
        }
    }

    @Test func heightAxisAndLimits() throws {
        let material = try engine.sweep(device: "material", config: nil, axis: .height, from: 400, to: 600, fixed: 900)
        let flip = try #require(material.firstIndex { $0.summary.verticalSizeClass == .regular })
        #expect(material[flip].from == 480)
        #expect(throws: CoreError.self) {
            try engine.sweep(device: "material", config: nil, from: 1, to: 100_001, fixed: 500)
        }
        #expect(throws: CoreError.self) { try engine.sweep(device: "material", config: nil, from: 10, to: 100) }
        #expect(throws: CoreError.self) { try engine.sweep(device: "nope", config: nil, from: 10, to: 100, fixed: 100) }
        #expect(throws: CoreError.self) { try engine.sweep(device: "mac", config: nil, from: 100, to: 50) }
        // A fractional end is the last point.
        let fractional = try engine.sweep(device: "mac", config: nil, from: 500, to: 600.5, fixed: 700)
        #expect(fractional.last?.to == 600.5)
    }

    @Test func chart() throws {
        let intervals = try engine.sweep(
            device: "ipad-pro-12.9", config: Scenes.patch(Self.styles[0]), from: 300, to: 1366)
        let marks = engine.catalog.presets(device: "ipad-pro-12.9").filter { $0.orientation == .landscape }
            .map { SweepRenderer.Mark(name: $0.name, at: $0.size.width) }
        let svg = SweepRenderer.svg(intervals, title: "ipad-pro-12.9 classic", marks: marks)
        try Golden.check("sweep-ipad-pro-12.9.svg", svg)
        let elements = try SVGElements.parse(svg)
        #expect(elements.filter { $0.attributes["class"] == "band" }.count == intervals.count)
        #expect(
            elements.filter { $0.attributes["class"] == "mark" }.map { $0.attributes["data-at"] }
                == marks.map { svgNumber($0.at) })
    }
}
