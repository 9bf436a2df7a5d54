import KeyframeJSON
import XCTest

/// Small objects are searched key by key instead of hashed (``JSONValue/member(_:of:)``): the answers must be the
/// dictionary's own, on both sides of the size where the search changes, for keys present, absent, and written in
/// another Unicode form of the same text.
final class JSONValueMemberTests: XCTestCase {
    func testMemberLookupAgreesWithTheDictionaryAtEverySize() throws {
        var generator = SystemRandomNumberGenerator()
        let names = ["x", "y", "duration", "tweenEasing", "a-much-longer-member-name-than-inline-strings", "caf\u{E9}",
                     "", "0", "X", "rotate", "skX", "skY", "scX", "scY", "displayIndex", "z"]
        for size in 0...(JSONValue.scannedObjectSize + 4) {
            var members: [String: JSONValue] = [:]
            for name in names.shuffled(using: &generator).prefix(size) {
                members[name] = .number(Double(members.count))
            }
            XCTAssertEqual(members.count, size)
            let object = JSONValue.object(members)
            // "cafe" + combining acute accent: the same text as "café" with the precomposed letter.
            for key in names + ["absent", "cafe\u{301}", "x "] {
                XCTAssertEqual(JSONValue.member(key, of: members), members[key], "\(key) in \(size) members")
                XCTAssertEqual(object[key], members[key], "\(key) in \(size) members")
            }
        }
    }
}
