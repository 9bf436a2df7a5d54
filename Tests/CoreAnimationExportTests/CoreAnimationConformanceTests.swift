import Foundation
import KeyframeExport
import KeyframeTestSupport
import XCTest

/// Every frame of every clip of every bundled sample and corpus export, as Core Animation would show the exported
/// layer tree, against the engine's `PoseSampler` (docs/conformance.md, "Core Animation export").
final class CoreAnimationConformanceTests: XCTestCase {
    static let samples = ["animate-bouncer-long", "animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot",
                          "animate-blend"]

    func testSamplesMatchTheSamplerAtEveryFrame() throws {
        var figures = CoreAnimationConformance.Figures()
        for sample in Self.samples {
            for format in CALayerTreeFile.Format.allCases {
                let url = TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)")
                let result = try CoreAnimationConformance.check(url, format: format)
                if format == .json { figures.add(result) } else { figures.failures += result.failures }
            }
        }
        print("CoreAnimationConformance samples: \(figures)")
        XCTAssertEqual(figures.failures, [], figures.failures.prefix(10).joined(separator: "\n"))
        XCTAssertGreaterThan(figures.sprites, 0)
    }

    func testAnimateCorpusMatchesTheSamplerAtEveryFrame() throws { try checkCorpus(["animate_atlas"]) }
    func testDragonBonesCorpusMatchesTheSamplerAtEveryFrame() throws { try checkCorpus(["dragonbones"]) }
    func testFlumpCorpusMatchesTheSamplerAtEveryFrame() throws { try checkCorpus(["flump", "flump_xml"]) }

    private func checkCorpus(_ families: [String]) throws {
        var figures = CoreAnimationConformance.Figures()
        for family in families {
            for export in try TestPaths.corpus(family) {
                figures.add(try CoreAnimationConformance.check(export))
            }
        }
        print("CoreAnimationConformance \(families.joined(separator: "+")): \(figures)")
        XCTAssertEqual(figures.failures, [], figures.failures.prefix(10).joined(separator: "\n"))
        XCTAssertGreaterThan(figures.sprites, 0)
    }
}
