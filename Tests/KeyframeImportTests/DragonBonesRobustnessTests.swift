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
}
