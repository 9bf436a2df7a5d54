import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// `PoseSampler.nodeValues` (what the Core Animation exporter samples) against the node states of a full
/// `sample(collectNodes: true)`: the same nodes, bit-identical transforms and colours.
final class PoseSamplerNodeValuesTests: XCTestCase {
    /// The samples, and the corpus exports that exercise the sampler most: DragonBones (skeleton solving, IK,
    /// inheritance flags), Flump (nested movies) and an Animate export with masks.
    private static func folders() throws -> [URL] {
        let samples = TestPaths.packageRoot.appendingPathComponent("Samples")
        var folders = try FileManager.default.contentsOfDirectory(atPath: samples.path)
            .sorted().filter { $0 != "scripts" && $0 != "README.md" }
            .map { samples.appendingPathComponent($0) }
        for family in ["dragonbones", "flump"] { folders += (try? TestPaths.corpus(family)) ?? [] }
        folders += ((try? TestPaths.corpus("animate_atlas")) ?? []).filter { $0.lastPathComponent.contains("mask") }
        return folders
    }

    func testSameStatesAsAFullSampleOnSamplesAndCorpus() throws {
        let folders = try Self.folders()
        var compared = 0
        for folder in folders {
            let document = try Importer.importDocument(at: folder)
            let sampler = PoseSampler(document: document)
            for composition in document.compositions {
                let length = max(Int(composition.duration.value.rounded(.up)), 1)
                for frame in stride(from: 0.0, to: Double(length), by: max(Double(length) / 7, 1)) + [Double(length) - 0.5] {
                    let pose = sampler.sample(composition: composition.id, frame: Frames(frame), collectNodes: true)
                    var expected = [Pose.NodeValues?](repeating: nil, count: composition.nodes.count)
                    for (index, node) in composition.nodes.enumerated() {
                        // The composition's own nodes are named "<composition>/<node>" (nested ones add ">…").
                        if let state = pose.nodes.first(where: { $0.path == "\(composition.id)/\(node.id)" }) {
                            expected[index] = Pose.NodeValues(transform: state.transform, color: state.color)
                        }
                    }
                    let actual = sampler.nodeValues(composition: composition.id, frame: Frames(frame))
                    XCTAssertEqual(actual, expected, "\(folder.lastPathComponent) \(composition.id) at \(frame)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 100)
        XCTAssertEqual(PoseSampler(document: try Importer.importDocument(at: folders[0])).nodeValues(composition: "no such", frame: Frames(0)), [])
    }

    /// `sampleWithRootValues` (what the Lottie exporter samples when it frames a clip on its content): the pose of
    /// `sample(clip:time:)`, and the root composition's `nodeValues` at the frame shown, from one evaluation.
    func testSampleWithRootValuesIsBothEvaluations() throws {
        let folders = try Self.folders()
        var compared = 0
        for folder in folders {
            let document = try Importer.importDocument(at: folder)
            let sampler = PoseSampler(document: document)
            for clip in document.clips {
                let length = max(Int(clip.duration.value.rounded(.up)), 1)
                // Whole and half frames, and times before the start and past the end (clamped alike).
                for time in stride(from: 0.0, to: Double(length), by: max(Double(length) / 9, 1)) + [-2, Double(length) - 0.5, Double(length) + 3] {
                    let both = sampler.sampleWithRootValues(clip: clip, time: Frames(time))
                    let local = clip.start.value + min(max(time, 0), max(clip.duration.value - 1e-9, 0))
                    let label = "\(folder.lastPathComponent) \(clip.name) at \(time)"
                    XCTAssertEqual(both.rootValues, sampler.nodeValues(composition: clip.composition, frame: Frames(local)), label)
                    XCTAssertEqual(both.pose, sampler.sample(clip: clip, time: Frames(time)), label)
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 300)
    }
}
