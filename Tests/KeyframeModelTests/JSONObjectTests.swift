import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// ``JSONObject`` answers as a dictionary of its members would, on both sides of the size where it starts keeping a
/// hash table (``JSONObject/indexedSize``), while iterating in the order the members were written.
final class JSONObjectTests: XCTestCase {
    let names = ["x", "y", "duration", "tweenEasing", "a-much-longer-member-name-than-inline-strings", "caf\u{E9}",
                 "", "0", "X", "rotate", "skX", "skY", "scX", "scY", "displayIndex", "z"]

    func testLookupsAgreeWithADictionaryAtEverySize() throws {
        var generator = SeededGenerator(seed: 27)
        for size in 0...(JSONObject.indexedSize + 6) {
            let chosen = Array(names.shuffled(using: &generator).prefix(size))
            var dictionary: JSONObject = [:]
            var object = JSONObject()
            for name in chosen {
                dictionary[name] = .number(Double(dictionary.count))
                object[name] = .number(Double(object.count))
            }
            XCTAssertEqual(object.count, size)
            XCTAssertEqual(object.keys, chosen, "members keep the order they were added in")
            let value = JSONValue.object(object)
            // "cafe" + combining acute accent: the same text as "café" with the precomposed letter.
            for key in names + ["absent", "cafe\u{301}", "x "] {
                XCTAssertEqual(object[key], dictionary[key], "\(key) in \(size) members")
                XCTAssertEqual(value[key], dictionary[key], "\(key) in \(size) members")
            }
            // Replacing and removing keep the answers a dictionary's.
            for name in chosen.prefix(3) {
                dictionary[name] = .string("replaced")
                object[name] = .string("replaced")
            }
            if let removed = chosen.last {
                dictionary[removed] = nil
                object[removed] = nil
            }
            XCTAssertEqual(object.count, dictionary.count)
            for key in names { XCTAssertEqual(object[key], dictionary[key], "\(key) after edits, \(size) members") }
            XCTAssertEqual(object, JSONObject(dictionary))
        }
    }

    func testParsedObjectsKeepFileOrderAndTheLastOfARepeatedKey() throws {
        for size in [3, JSONObject.indexedSize, JSONObject.indexedSize + 1, 40] {
            let keys = (0..<size).map { "k\((size - $0) * 7 % 101)" }
            let text = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ")
                + ", \"\(keys[1])\": \"again\"}"
            guard case .object(let object) = try JSONParser.parse(text) else { return XCTFail("not an object") }
            XCTAssertEqual(object.keys, keys, "\(size) members")
            XCTAssertEqual(object[keys[1]], .string("again"), "the last of a repeated key wins (\(size) members)")
            XCTAssertEqual(object[keys[0]], .number(0))
        }
    }

    func testEqualityAndHashingIgnoreOrder() {
        for size in [2, JSONObject.indexedSize, JSONObject.indexedSize + 3] {
            let members = names.prefix(size).enumerated().map { (key: $1, value: JSONValue.number(Double($0))) }
            let forward = JSONObject(members)
            let backward = JSONObject(members.reversed())
            XCTAssertEqual(forward, backward)
            XCTAssertEqual(forward.hashValue, backward.hashValue)
            XCTAssertEqual(Set([JSONValue.object(forward), .object(backward)]).count, 1)
            var changed = backward
            changed[members[0].key] = .number(-1)
            XCTAssertNotEqual(forward, changed)
            var fewer = forward
            fewer[members[0].key] = nil
            XCTAssertNotEqual(forward, fewer)
            XCTAssertNotEqual(fewer, forward)
        }
    }

    func testWriterSortsMembersWhateverTheirOrder() {
        let members = names.enumerated().map { (key: $1, value: JSONValue.number(Double($0))) }
        let forward = JSONWriter.write(.object(JSONObject(members)))
        XCTAssertEqual(forward, JSONWriter.write(.object(JSONObject(members.reversed()))))
        let text = String(decoding: forward, as: UTF8.self)
        let positions = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { text.range(of: "\"\($0)\"")!.lowerBound }
        XCTAssertEqual(positions, positions.sorted(), "keys are written in the order of their UTF-8 bytes")
    }
}
