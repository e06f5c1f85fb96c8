import XCTest
@testable import SplitCluster

final class OwnershipTests: XCTestCase {
    func head(_ revision: Int64, writer: Int64) -> SceneHead {
        SceneHead(revision: revision, device: "ipad", checkpointRevision: 0, createdAt: 1, updatedAt: 2, writer: writer)
    }

    func testRefusedTransactionKeepsTheSceneOnlyWhileBothComparesHold() {
        let claim = SceneClaim(token: 10, headModRevision: 20, head: head(5, writer: 10))
        let same = SceneObservation(ownerCreateRevision: 10, headModRevision: 20, head: head(5, writer: 10))
        XCTAssertEqual(Ownership.afterFailedCompare(claim: claim, observed: same), .stillOwned)
        let gone = SceneObservation(ownerCreateRevision: 0, headModRevision: 20, head: head(5, writer: 10))
        XCTAssertEqual(Ownership.afterFailedCompare(claim: claim, observed: gone), .fenced(.ownerGone))
        let other = SceneObservation(ownerCreateRevision: 30, headModRevision: 20, head: head(5, writer: 10))
        XCTAssertEqual(Ownership.afterFailedCompare(claim: claim, observed: other), .fenced(.ownedByAnother(token: 30)))
        let moved = SceneObservation(ownerCreateRevision: 10, headModRevision: 25, head: head(6, writer: 10))
        XCTAssertEqual(Ownership.afterFailedCompare(claim: claim, observed: moved), .fenced(.headMovedUnderUs))
    }

    func testUnknownOutcomeWithUnchangedHeadDidNotApply() {
        let claim = SceneClaim(token: 10, headModRevision: 20, head: head(5, writer: 10))
        let unchanged = SceneObservation(ownerCreateRevision: 10, headModRevision: 20, head: head(5, writer: 10))
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: head(6, writer: 10), observed: unchanged), .notApplied)
        let lost = SceneObservation(ownerCreateRevision: 0, headModRevision: 20, head: head(5, writer: 10))
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: head(6, writer: 10), observed: lost),
            .notAppliedFenced(.ownerGone))
    }

    func testUnknownOutcomeWithOurHeadApplied() {
        let claim = SceneClaim(token: 10, headModRevision: 20, head: head(5, writer: 10))
        let intended = head(6, writer: 10)
        let ours = SceneObservation(ownerCreateRevision: 10, headModRevision: 33, head: intended)
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: intended, observed: ours),
            .applied(SceneClaim(token: 10, headModRevision: 33, head: intended)))
        // Applied, then the lease expired before the read: durable, but the scene stops.
        let oursThenGone = SceneObservation(ownerCreateRevision: 0, headModRevision: 33, head: intended)
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: intended, observed: oursThenGone),
            .appliedThenFenced(.ownerGone))
    }

    func testUnknownOutcomeAfterTakeoverIsDecidedByTheJournalEntrysWriter() {
        let claim = SceneClaim(token: 10, headModRevision: 20, head: head(5, writer: 10))
        let intended = head(6, writer: 10)
        // The new owner (token 40) continued after our revision 6: our record is there.
        let continued = SceneObservation(
            ownerCreateRevision: 40, headModRevision: 50, head: head(8, writer: 40),
            journalWriterAtIntended: 10)
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: intended, observed: continued),
            .appliedThenFenced(.ownedByAnother(token: 40)))
        // The new owner wrote revision 6 itself: ours never applied.
        let replaced = SceneObservation(
            ownerCreateRevision: 40, headModRevision: 50, head: head(8, writer: 40),
            journalWriterAtIntended: 40)
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: intended, observed: replaced),
            .notAppliedFenced(.ownedByAnother(token: 40)))
        // A checkpoint of the new owner covered revision 6: the read cannot tell.
        let covered = SceneObservation(ownerCreateRevision: 40, headModRevision: 50, head: head(9, writer: 40))
        XCTAssertEqual(
            Ownership.resolveUnknown(claim: claim, intended: intended, observed: covered),
            .indeterminate(.ownedByAnother(token: 40)))
    }

    func testOnlyAnAbsentOwnerMayBeReplaced() {
        XCTAssertTrue(Ownership.mayAcquire(ownerCreateRevision: 0))
        XCTAssertFalse(Ownership.mayAcquire(ownerCreateRevision: 7))
    }
}
