@testable import SplitServer
import Testing

/// `Sessions` keeps the scenes whose window left in a turn whose commit failed, for a resize
/// retried later.
@Suite("Window-left resizes to retry")
struct WindowLeftRetryTests {
    @Test func aSceneIsKeptOnceInIdOrderAndWasLatestIfAnyLeaverWas() {
        var sessions = Sessions()
        #expect(!sessions.hasWindowLeftResizesToRetry)
        sessions.retryWindowLeftResize(of: "b", leaverWasLatest: true)
        sessions.retryWindowLeftResize(of: "a", leaverWasLatest: false)
        sessions.retryWindowLeftResize(of: "b", leaverWasLatest: false)
        let retries = sessions.takeWindowLeftResizesToRetry()
        #expect(retries.map { $0.scene } == ["a", "b"])
        #expect(retries.map { $0.leaverWasLatest } == [false, true])
        #expect(!sessions.hasWindowLeftResizesToRetry)
    }
}
