import XCTest
@testable import SplitCluster

final class ClusterKeysTests: XCTestCase {
    func testSceneIDsAreOneKeySegment() {
        let keys = ClusterKeys(prefix: "/t/")
        XCTAssertEqual(String(decoding: keys.head("a/b%c"), as: UTF8.self), "/t/head/a%2Fb%25c")
        XCTAssertEqual(keys.scene(ofSceneKey: keys.head("a/b%c")), "a/b%c")
        let entry = keys.journalEntry(ofKey: keys.journal("x/y", 42))
        XCTAssertEqual(entry?.scene, "x/y")
        XCTAssertEqual(entry?.revision, 42)
        XCTAssertEqual(String(decoding: keys.journal("m", 7), as: UTF8.self), "/t/journal/m/00000000000000000007")
    }

    func testPrefixRangeEnd() {
        XCTAssertEqual(ClusterKeys.rangeEnd(ofPrefix: Array("/a/".utf8)), Array("/a0".utf8))
        XCTAssertEqual(ClusterKeys.rangeEnd(ofPrefix: [0x61, 0xff]), [0x62])
    }
}
