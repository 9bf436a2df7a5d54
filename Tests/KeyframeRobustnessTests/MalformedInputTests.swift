import Foundation
import KeyframeFuzzHarness
import KeyframeImport
import KeyframeTestSupport
import XCTest

/// Deterministically generated malformed inputs — truncations, flipped bytes, inserted JSON/XML tokens, extreme
/// numbers, duplicated slices of the bundled samples — run through every fuzz surface in `make test`, with no fuzzer
/// build. A crash kills the test process; each input must also finish within the fuzzer's time-out.
final class MalformedInputTests: XCTestCase {
    /// SplitMix64: the same inputs on every run and machine.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    }

    static let tokens: [String] = [
        "", "\"", "{", "}", "[", "]", ",", ":", "null", "true", "-1e309", "1e308", "NaN", "-0", "4294967296",
        "9223372036854775807", "-9223372036854775809", "0.000000000000000000001", "\\u0000", "\\ud800", "\u{FEFF}",
        "<", ">", "/>", "&amp;", "&#0;", "<![CDATA[", "<!--", "IDAT", "IEND", "\u{0}",
    ]

    /// One mutant of `seed`.
    static func mutate(_ seed: [UInt8], _ random: inout Generator) -> [UInt8] {
        var bytes = seed
        let at = random.below(bytes.count + 1)
        switch random.below(6) {
        case 0:  // truncate
            bytes = Array(bytes[..<at])
        case 1:  // flip a few bytes
            for _ in 0..<(1 + random.below(4)) where !bytes.isEmpty {
                bytes[random.below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            }
        case 2:  // insert a token
            bytes.insert(contentsOf: Array(tokens[random.below(tokens.count)].utf8), at: at)
        case 3:  // replace the run of digits at or after `at` with an extreme number
            if let start = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                let end = bytes[start...].firstIndex { !(0x30...0x39).contains($0) && $0 != 0x2E } ?? bytes.endIndex
                let extremes = ["1e309", "-1e309", "9223372036854775807", "0", "-1", "4294967295", "1e-320", "100000000"]
                bytes.replaceSubrange(start..<end, with: Array(extremes[random.below(extremes.count)].utf8))
            } else {
                bytes.append(contentsOf: Array("1e309".utf8))
            }
        case 4:  // duplicate a slice
            let length = min(random.below(256) + 1, bytes.count - at)
            if length > 0 { bytes.insert(contentsOf: bytes[at..<(at + length)], at: at) }
        default:  // delete a slice
            let length = min(random.below(64) + 1, bytes.count - at)
            if length > 0 { bytes.removeSubrange(at..<(at + length)) }
        }
        return bytes
    }

    /// The seeds of each surface: the bundled samples (and the committed Fuzz/Seeds).
    static func seeds() throws -> [String: [[UInt8]]] {
        let root = TestPaths.packageRoot
        func file(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: root.appendingPathComponent(path))) }
        let samples = ["animate-walker", "animate-bouncer-long", "bta-spinner", "dragonbones-waver", "flump-hopbot"]
        let documents = try samples.map { try Importer.importDocument(at: root.appendingPathComponent("Samples/\($0)")).jsonBytes() }
        let skeleton = try file("Samples/dragonbones-waver/waver_ske.json")
        var header = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(skeleton)) as? [String: Any])
        header["offset"] = Array(repeating: 0, count: 12)
        let headerBytes = [UInt8](try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        let length = UInt32(headerBytes.count)
        let dbbin = Array("DBDT".utf8) + [0, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } + headerBytes
        return [
            "json": [try file("Samples/animate-walker/spritemap1.json"), try file("Samples/scripts/walker-interaction.json")],
            "animate": [try file("Samples/animate-walker/Animation.json"), try file("Samples/animate-bouncer-long/Animation.json")],
            "spritemap": [try file("Samples/animate-walker/spritemap1.json"), try file("Samples/bta-spinner/spritemap1.json")],
            "dragonbones": [skeleton],
            "dbbin": [dbbin],
            "flump-json": [try file("Samples/flump-hopbot/library.json")],
            "flump-xml": [try file("Fuzz/Seeds/flump-xml/hopbot.xml")],
            "sheet-json": [Array(SpriteSheetFixture.data(.hash).utf8), Array(SpriteSheetFixture.data(.array).utf8)],
            "sheet-xml": [Array(SpriteSheetFixture.data(.sparrow).utf8)],
            "document": documents,
            "script": [try file("Samples/scripts/walker-interaction.json"), try file("Samples/scripts/values-stop-finish.json")],
            "png": [try file("Samples/animate-walker/spritemap1.png"), try file("Samples/flump-hopbot/atlas0.png")],
            "png-encode": [try file("Fuzz/Seeds/png-encode/sprite-premultiplied"),
                           try file("Fuzz/Seeds/png-encode/noise-gray")],
            "render": documents,
        ]
    }

    func testGeneratedMalformedInputsAcrossEverySurface() throws {
        let seeds = try Self.seeds()
        XCTAssertEqual(Set(seeds.keys), Set(FuzzSurface.all.map(\.name)), "every surface has seeds")
        var random = Generator(state: 16)
        var distinct = 0
        for surface in FuzzSurface.all {
            var seen: Set<[UInt8]> = []
            let originals = Set(try XCTUnwrap(seeds[surface.name]))
            for index in 0..<60 {
                let seed = originals.sorted { $0.count < $1.count }[index % originals.count]
                let input = Self.mutate(seed, &random)
                guard !originals.contains(input), seen.insert(input).inserted else { continue }
                let start = Date()
                surface.run(input)
                XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(surface.name) mutant \(index)")
            }
            distinct += seen.count
        }
        // The goal counts these with the committed inputs: at least 500 distinct malformed inputs.
        XCTAssertGreaterThanOrEqual(distinct, 600)
        print("MalformedInputTests: \(distinct) distinct malformed inputs over \(FuzzSurface.all.count) surfaces")
    }

    /// Files renamed away and back while an import lists and reads them: each import succeeds or fails with an
    /// ``ImportError``; nothing traps.
    func testFilesVanishingDuringImportGiveErrorsNotCrashes() throws {
        let folder = try TestPaths.temporaryFolder("vanish").appendingPathComponent("bta-spinner")
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner"), to: folder)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let hub = folder.appendingPathComponent("LIBRARY/parts/hub.json").path
        let spritemap = folder.appendingPathComponent("spritemap1.json").path
        let stop = ManagedAtomicFlag()
        let churn = Thread {
            while !stop.isSet {
                for path in [hub, spritemap] {
                    rename(path, path + ".away")
                    rename(path + ".away", path)
                }
            }
        }
        churn.start()
        var outcomes = (converted: 0, failed: 0)
        for _ in 0..<60 {
            do {
                _ = try Importer.importDocument(at: folder)
                outcomes.converted += 1
            } catch {
                outcomes.failed += 1
                XCTAssertTrue("\(error)".contains("hub.json") || "\(error)".contains("spritemap1.json")
                              || "\(error)".contains("hub"), "\(error)")
            }
        }
        stop.set()
        while !churn.isFinished { usleep(1000) }
        XCTAssertEqual(outcomes.converted + outcomes.failed, 60)
        print("MalformedInputTests: vanishing files: \(outcomes.converted) converted, \(outcomes.failed) clear errors")
    }
}

/// A flag one thread sets and another polls.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
