import Testing
@testable import SplitCore

/// SEMANTICS 8: snapshot sessions as pure functions of a base state.
@Suite struct SnapshotTests {
    func base() throws -> SceneState {
        try run(
            [.push(column: .primary, vc: "p1"), .showDetail(vc: "d1")],
            on: makeScene {
                $0.roots = ColumnRoots(primary: "p"); $0.placeholder = "ph"
            })
    }

    let sizes = [padPortrait, padThird, padHalf, Size(width: 981, height: 1024)]

    @Test func eachSnapshotIsTheLayoutAfterOneResizeFromTheBase() throws {
        let s = try base()
        let result = try engine.snapshot(s, sizes: sizes)
        #expect(result.baseRevision == s.revision)
        #expect(result.snapshots.map(\.size) == sizes)
        for snap in result.snapshots {
            #expect(snap.layout == (try resized(s, snap.size).layout))
        }
    }

    @Test func snapshotsDoNotDependOnTheOrderOfSizes() throws {
        let s = try base()
        let forward = try engine.snapshot(s, sizes: sizes)
        let backward = try engine.snapshot(s, sizes: sizes.reversed())
        #expect(forward.snapshots == Array(backward.snapshots.reversed()))
    }

    @Test func theBaseSizeItselfIsTheCurrentLayout() throws {
        let s = try base()
        #expect(try engine.snapshot(s, sizes: [s.size]).snapshots.first?.layout == s.layout)
    }

    @Test func theSequentialReplayIsLossless() throws {
        let s = try base()
        let report = try engine.snapshot(s, sizes: sizes).roundTrip
        #expect(report.lossless && report.differences.isEmpty)
        let collapsed = try resized(s, padThird).state
        #expect(try engine.snapshot(collapsed, sizes: sizes).roundTrip.lossless)
    }

    /// A collapsed scene navigated under UIKit's collapse and seed 000's expand: the expand
    /// redistributes its stack, and the collapse back gives the navigated stack back exactly.
    @Test func aNavigatedCollapsedSceneReplaysLosslessly() throws {
        let s = try makeScene {
            $0.roots = ColumnRoots(primary: "list")
            $0.placeholder = "ph"
            $0.expandPolicy = .moveAllButRoot
        }
        let c = try run(
            [.push(column: .primary, vc: "item"), .pop(column: .primary)],
            on: resized(run([.push(column: .primary, vc: "item")], on: s), padThird).state)
        let navigated = try run([.push(column: .primary, vc: "x")], on: c)
        let report = try engine.snapshot(navigated, sizes: [padLandscape]).roundTrip
        #expect(report.lossless, "\(report.differences)")
    }

    /// A loss is a finding, not hidden: the comparison names what differs.
    @Test func aLossIsReported() throws {
        let base = try run([.push(column: .secondary, vc: "d1")], on: resized(makeScene(), padThird).state)
        let other = try run([.push(column: .secondary, vc: "d2")], on: base)
        let differences = RoundTripComparison.differences(base, other)
        #expect(differences.contains { $0.hasPrefix("visible stack") })
        #expect(RoundTripComparison.differences(base, base).isEmpty)
    }

    /// The report is stored, hashed and compared with golden files: its values are written in
    /// the wire's words, not as Swift debug text that would change with a type's name.
    @Test func aLossIsWrittenInTheWiresWords() throws {
        let base = try run([.push(column: .secondary, vc: "d1")], on: resized(makeScene(), padThird).state)
        var other = try run([.push(column: .secondary, vc: "d2")], on: base)
        other.size = Size(width: 375.5, height: 1024)
        other.traits = Traits(horizontalSizeClass: .regular, verticalSizeClass: .compact)
        other.navigation.presentations = [Presentation(vc: "m", style: .pageSheet)]
        let differences = RoundTripComparison.differences(base, other)
        #expect(differences.contains("size: was 375x1024, now 375.5x1024"), "\(differences)")
        #expect(
            differences.contains(
                "traits: was horizontal compact, vertical regular, now horizontal regular, vertical compact"),
            "\(differences)")
        #expect(
            differences.contains { $0.hasPrefix("visible stack: was [\"") && $0.hasSuffix("\"d1\", \"d2\"]") },
            "\(differences)")
        #expect(differences.contains("presentations: was [], now [\"m\" (pageSheet)]"), "\(differences)")
        #expect(!differences.joined().contains("SplitCore"), "\(differences)")
        // Ids are JSON strings: one id holding `", "` never reads as two ids.
        #expect(RoundTripComparison.list(["x\", \"y"]) == #"["x\", \"y"]"#)
        #expect(RoundTripComparison.list(["x", "y"]) == #"["x", "y"]"#)
        #expect(RoundTripComparison.list(["a\\b\u{1}"]) == #"["a\\b\u0001"]"#)
    }

    @Test func presetsComeFromTheCatalog() throws {
        let s = try base()
        let sizes = try #require(engine.catalog.presetSizes("appSwitcher", device: s.device, current: s.size))
        let result = try engine.snapshot(s, preset: "appSwitcher")
        #expect(result.snapshots.map(\.size) == sizes)
        #expect(errorCode { _ = try engine.snapshot(s, preset: "no-such-preset") } == .badRequest)
    }

    @Test func invalidSessionsAreRefused() throws {
        let s = try base()
        #expect(errorCode { _ = try engine.snapshot(s, sizes: []) } == .badRequest)
        #expect(errorCode { _ = try engine.snapshot(s, sizes: [Size(width: 0, height: 5)]) } == .badRequest)
        let tooMany = Array(repeating: padThird, count: engine.limits.maxSnapshotSizes + 1)
        #expect(errorCode { _ = try engine.snapshot(s, sizes: tooMany) } == .limitExceeded)
    }

    @Test func theInputStateIsUntouched() throws {
        let s = try base()
        let copy = s
        _ = try engine.snapshot(s, sizes: sizes)
        #expect(s == copy && s.revision == copy.revision)
    }
}
