import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeTestSupport
import XCTest

/// The validator catches each defect Core Animation would fail on at run time (one mutation per test case of a
/// valid exported tree), and passes every exported tree (the conformance tests run it on all of them).
final class CALayerTreeValidatorTests: XCTestCase {
    private func tree() throws -> CALayerTreeDocument {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let result = try CoreAnimationExporter().export(try Importer.importDocument(at: url),
                                                        assetsFolder: try Importer.detect(url).folder,
                                                        options: ExportOptions(clips: ["walk"]))
        return try CALayerTreeFile.decode(result.clips[0].main.bytes)
    }

    /// Applies `change` to the first animation with `mode` and returns the validator's problems.
    private func problems(mode: String, _ change: (inout CAKeyframeAnimationSpec) -> Void) throws -> [String] {
        var document = try tree()
        var done = false
        func visit(_ layer: inout CALayerSpec) {
            if !done, var group = layer.animation,
                let index = group.animations.firstIndex(where: { $0.calculationMode == mode }) {
                change(&group.animations[index])
                layer.animation = group
                done = true
                return
            }
            for i in layer.sublayers.indices { visit(&layer.sublayers[i]) }
        }
        visit(&document.root)
        XCTAssertTrue(done, "no \(mode) animation in the walker")
        return CALayerTreeValidator.problems(in: document)
    }

    func testAnExportedTreeIsValid() throws {
        XCTAssertEqual(CALayerTreeValidator.problems(in: try tree()), [])
    }

    /// A shape layer's `path` must be x, y pairs of at least three finite points.
    func testShapePathsMustBePolygons() throws {
        for (path, message) in [([0.0, 0, 1, 0], "path has 4 numbers"), ([0, 0, 1, 0, 1], "path has 5 numbers"),
                                ([0, 0, 1, 0, .nan, 1], "path is not finite")] {
            var document = try tree()
            document.root.sublayers[0].path = path
            let found = CALayerTreeValidator.problems(in: document)
            XCTAssertTrue(found.contains { $0.contains(message) }, "\(path): \(found)")
        }
        var document = try tree()
        document.root.sublayers[0].path = [0, 0, 4, 0, 0, 4]
        XCTAssertEqual(CALayerTreeValidator.problems(in: document), [])
    }

    func testKeyTimesCountMustMatchValues() throws {
        let found = try problems(mode: "linear") { $0.keyTimes.removeLast() }
        XCTAssertTrue(found.contains { $0.contains("keyTimes for") }, "\(found)")
    }

    func testDiscreteNeedsOneMoreKeyTimeThanValues() throws {
        let found = try problems(mode: "discrete") { $0.keyTimes.remove(at: 1) }
        XCTAssertTrue(found.contains { $0.contains("discrete needs") }, "\(found)")
    }

    func testKeyTimesMustNotDecrease() throws {
        let found = try problems(mode: "linear") { a in
            a.values.insert(a.values[0], at: 1)
            a.keyTimes.insert(0.9, at: 1)
            a.timingFunctions.append([0, 0, 1, 1])
        }
        XCTAssertTrue(found.contains { $0.contains("keyTimes decrease") }, "\(found)")
    }

    func testTimingFunctionsCountIsValuesMinusOne() throws {
        let found = try problems(mode: "linear") { $0.timingFunctions.append([0.4, 0, 0.6, 1]) }
        XCTAssertTrue(found.contains { $0.contains("timingFunctions for") }, "\(found)")
    }

    func testNumbersMustBeFinite() throws {
        let found = try problems(mode: "linear") { $0.values[0][0] = .nan }
        XCTAssertTrue(found.contains { $0.contains("not finite") }, "\(found)")
    }

    func testKeyPathAndValueTypeMustAgree() throws {
        let found = try problems(mode: "linear") { $0.keyPath = "bounds.size" }
        XCTAssertTrue(found.contains { $0.contains("unknown key path") }, "\(found)")
    }

    func testRemovedOnCompletionIsRejected() throws {
        let found = try problems(mode: "discrete") { $0.isRemovedOnCompletion = true }
        XCTAssertTrue(found.contains { $0.contains("isRemovedOnCompletion") }, "\(found)")
    }

    func testContentsMustNameAListedImage() throws {
        var document = try tree()
        document.images = []
        XCTAssertTrue(CALayerTreeValidator.problems(in: document).contains { $0.contains("unknown image") })
    }
}
