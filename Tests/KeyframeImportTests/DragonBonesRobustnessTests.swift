import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Mutated DragonBones data never crashes the importer: every number of the waver sample (bones, IK, meshes, deform,
/// z-order, curves) is replaced in turn by values that break assumptions, and every array loses its last element;
/// each import either succeeds with a valid document or throws an error that names the skeleton file.
final class DragonBonesRobustnessTests: XCTestCase {
    static let sample = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")

    func testMutatedSkeletonsNeverCrash() throws {
        let skeletonURL = Self.sample.appendingPathComponent("waver_ske.json")
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: skeletonURL))
        let folder = try TestPaths.temporaryFolder("keyframe-db-mutate")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["waver_tex.json", "waver_tex.png"] {
            try FileManager.default.copyItem(at: Self.sample.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        let (numbers, arrays) = JSONMutation.paths(original)
        XCTAssertGreaterThan(numbers.count, 200)
        var mutants: [Any] = []
        for path in numbers {
            for replacement in [-1.0, 0, 0.5, 7, 1e7, -1e9, 1e308, -1e308] as [Double] {
                mutants.append(JSONMutation.replacing(original, at: path[...]) { _ in replacement })
            }
            mutants.append(JSONMutation.replacing(original, at: path[...]) { _ in "x" })
        }
        for path in arrays {
            mutants.append(JSONMutation.replacing(original, at: path[...]) { value in
                var array = value as! [Any]
                if !array.isEmpty { array.removeLast() }
                return array
            })
        }
        var succeeded = 0, failed = 0
        for mutant in mutants {
            try JSONSerialization.data(withJSONObject: mutant).write(to: folder.appendingPathComponent("waver_ske.json"))
            do {
                let document = try Importer.importDocument(at: folder)
                XCTAssertNoThrow(try document.validate())
                succeeded += 1
            } catch {
                XCTAssert("\(error)".contains("waver_ske.json"), "\(error)")
                failed += 1
            }
        }
        XCTAssertEqual(succeeded + failed, mutants.count)
        XCTAssertGreaterThan(failed, 0)
        XCTAssertGreaterThan(succeeded, 0)
    }

    /// Corrupted binary data never crashes the importer either: in our waver `.dbbin` (mesh, weights, deform, curves,
    /// z-order), 2,000 seeded mutants each overwrite 1–4 bytes of the packed arrays with random values, or one int16
    /// with an extreme one (0x7FFF, 0x8000, 0xFFFF); each import succeeds with a valid document or names the file.
    func testCorruptedBinaryDataNeverCrashes() throws {
        let source = TestPaths.packageRoot.appendingPathComponent("Tests/KeyframeEngineTests/Fixtures/dragonbones-binary/waver/export")
        let original = [UInt8](try Data(contentsOf: source.appendingPathComponent("waver_ske.dbbin")))
        let folder = try TestPaths.temporaryFolder("keyframe-dbbin-mutate")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["waver_tex.json", "waver_tex.png"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let headerLength = Int(original[8]) | Int(original[9]) << 8 | Int(original[10]) << 16 | Int(original[11]) << 24
        let arrays = (12 + headerLength)..<original.count
        var generator = SeededGenerator(seed: 26)
        var succeeded = 0, failed = 0
        for mutant in 0..<2_000 {
            var bytes = original
            if mutant % 4 == 0 {
                let at = arrays.lowerBound + 2 * Int.random(in: 0..<(arrays.count / 2), using: &generator)
                let value: UInt16 = [0x7FFF, 0x8000, 0xFFFF][Int.random(in: 0..<3, using: &generator)]
                bytes[at] = UInt8(value & 0xFF)
                bytes[at + 1] = UInt8(value >> 8)
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: arrays, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            try Data(bytes).write(to: folder.appendingPathComponent("waver_ske.dbbin"))
            do {
                let document = try Importer.importDocument(at: folder)
                XCTAssertNoThrow(try document.validate())
                succeeded += 1
            } catch {
                XCTAssert("\(error)".contains("waver_ske.dbbin"), "\(error)")
                failed += 1
            }
        }
        XCTAssertGreaterThan(succeeded, 0)
        XCTAssertGreaterThan(failed, 0)
    }
}
