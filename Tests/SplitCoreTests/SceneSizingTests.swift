import PropertyBased
import SplitCore
import Testing

@Suite("SceneSizing (size policies, SEMANTICS 9)")
struct SceneSizingTests {
    private static let sizes = Gen.int(in: 1...3000).array(of: 2).map {
        Size(width: Double($0[0]), height: Double($0[1]))
    }

    private func windows(_ sizes: [Size]) -> [SceneSizing.Window] {
        sizes.enumerated().map { SceneSizing.Window(size: $0.element, reportedAt: UInt64($0.offset + 1)) }
    }

    @Test func largestAndSmallestAreComponentWise() async {
        await propertyCheck(count: 200, input: Self.sizes.array(of: 1...6)) { sizes in
            let largest = SceneSizing.aggregate(.largest, windows: windows(sizes))!
            let smallest = SceneSizing.aggregate(.smallest, windows: windows(sizes))!
            #expect(largest.width == sizes.map(\.width).max())
            #expect(largest.height == sizes.map(\.height).max())
            #expect(smallest.width == sizes.map(\.width).min())
            #expect(smallest.height == sizes.map(\.height).min())
        }
    }

    @Test func componentWiseMeansTheResultNeedNotBeAnyWindow() {
        let result = SceneSizing.aggregate(
            .largest, windows: windows([Size(width: 1366, height: 500), Size(width: 500, height: 1024)]))
        #expect(result == Size(width: 1366, height: 1024))
    }

    @Test func latestAndManualNeverAggregate() {
        let some = windows([Size(width: 100, height: 100)])
        #expect(SceneSizing.aggregate(.latest, windows: some) == nil)
        #expect(SceneSizing.aggregate(.manual, windows: some) == nil)
        #expect(SceneSizing.aggregate(.largest, windows: []) == nil)
    }

    @Test func latestFallsBackToTheMostRecentRemainingWindowOnlyWhenTheSourceLeft() {
        let remaining = [
            SceneSizing.Window(size: Size(width: 300, height: 300), reportedAt: 9),
            SceneSizing.Window(size: Size(width: 700, height: 700), reportedAt: 4),
        ]
        #expect(
            SceneSizing.afterWindowLeft(.latest, remaining: remaining, leaverWasLatest: true)
                == Size(width: 300, height: 300))
        #expect(SceneSizing.afterWindowLeft(.latest, remaining: remaining, leaverWasLatest: false) == nil)
        #expect(SceneSizing.afterWindowLeft(.manual, remaining: remaining, leaverWasLatest: true) == nil)
        #expect(
            SceneSizing.afterWindowLeft(.smallest, remaining: remaining, leaverWasLatest: false)
                == Size(width: 300, height: 300))
    }

    @Test func onlyWindowsMayResizeUnderLargestAndSmallest() {
        for policy in [SizePolicy.largest, .smallest] {
            #expect(SceneSizing.acceptsResize(policy, from: .window))
            #expect(!SceneSizing.acceptsResize(policy, from: .viewer))
            #expect(!SceneSizing.acceptsResize(policy, from: nil))
        }
        for policy in [SizePolicy.latest, .manual] {
            #expect(SceneSizing.acceptsResize(policy, from: nil))
        }
    }
}
