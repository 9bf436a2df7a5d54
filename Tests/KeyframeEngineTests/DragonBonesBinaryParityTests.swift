import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// A `.dbbin` converts to the same document as its JSON twin: the same compositions, nodes, clips, sprites and
/// meshes, and at every frame and half frame of every clip the same sprites drawn in the same order, placed within
/// the tolerance below, with the same colours and mesh vertices.
///
/// The tolerance is what the binary format stores: 32-bit floats (values, mesh vertices, bind poses: 10⁻⁴ px at the
/// sizes of real rigs) and Bézier easing sampled once per frame and rounded to 10⁻⁴ by the exporter, where the JSON
/// reader samples the curve itself as DragonBonesJS does (at most 10⁻⁴ of a tween's change, 0.003 px in these
/// files). Pairs: the corpus' `mecha_1406` (binary written by DragonBones Pro) and our own exports converted by
/// DragonBones/Tools (`Fixtures/dragonbones-binary/README.md`).
final class DragonBonesBinaryParityTests: XCTestCase {
    /// Largest differences between the two documents.
    struct Figures: CustomStringConvertible {
        var frames = 0, items = 0, meshVertices = 0
        var position = 0.0, angle = 0.0, vertex = 0.0, color = 0.0
        var mismatches: [String] = []
        var wherePosition = "", whereVertex = ""
        var description: String {
            String(format: "%d clip frames, %d items, %d mesh vertices: position %.6f px, angle %.6f°, vertex %.6f px, colour %.2g",
                   frames, items, meshVertices, position, angle, vertex, color)
                + (mismatches.isEmpty ? "" : "; \(mismatches.count) mismatches, first: \(mismatches[0])")
                + (position > 0.001 ? "; worst position at \(wherePosition)" : "") + (vertex > 0.001 ? "; worst vertex at \(whereVertex)" : "")
        }
    }

    static let positionTolerance = 0.005, angleTolerance = 0.005, colorTolerance = 1e-6

    /// Compares the documents of `json` and `binary` (paths to skeleton files or folders).
    static func compare(json: URL, binary: URL) throws -> Figures {
        let a = try Importer.importDocument(at: json), b = try Importer.importDocument(at: binary)
        var figures = Figures()
        func mismatch(_ text: String) { if figures.mismatches.count < 20 { figures.mismatches.append(text) } }
        if a.compositions.map(\.id) != b.compositions.map(\.id) { mismatch("compositions \(a.compositions.map(\.id)) vs \(b.compositions.map(\.id))") }
        for (ca, cb) in zip(a.compositions, b.compositions) {
            // (The tools' conversion may list slots in another order; the draw order is compared by the poses.)
            if Set(ca.nodes.map(\.id)) != Set(cb.nodes.map(\.id)) { mismatch("\(ca.id): nodes differ") }
            if ca.duration != cb.duration { mismatch("\(ca.id): \(ca.duration.value) vs \(cb.duration.value) frames") }
        }
        let clipsA = a.clips.map { "\($0.name) \($0.duration.value) \($0.loopCount)" }
        let clipsB = b.clips.map { "\($0.name) \($0.duration.value) \($0.loopCount)" }
        if clipsA != clipsB { mismatch("clips \(clipsA) vs \(clipsB)") }
        if a.assets.sprites.map(\.id) != b.assets.sprites.map(\.id) { mismatch("sprites differ") }
        if a.assets.meshes.map(\.id) != b.assets.meshes.map(\.id) { mismatch("meshes \(a.assets.meshes.map(\.id)) vs \(b.assets.meshes.map(\.id))") }
        let samplerA = PoseSampler(document: a), samplerB = PoseSampler(document: b)
        for clip in a.clips {
            guard let other = b.clips.first(where: { $0.name == clip.name }) else { continue }
            for step in 0..<Int(clip.duration.value * 2) {
                let time = Frames(Double(step) / 2)
                let pa = samplerA.sample(clip: clip, time: time), pb = samplerB.sample(clip: other, time: time)
                figures.frames += 1
                let label = "\(clip.name) frame \(time.value)"
                guard pa.items.map(\.sprite) == pb.items.map(\.sprite) else {
                    mismatch("\(label): drawn \(pa.items.map(\.sprite)) vs \(pb.items.map(\.sprite))")
                    continue
                }
                for (x, y) in zip(pa.items, pb.items) {
                    figures.items += 1
                    let m = x.transform, n = y.transform
                    let d = hypot(m.tx - n.tx, m.ty - n.ty)
                    if d > figures.position { figures.position = d; figures.wherePosition = "\(label) \(x.path)" }
                    figures.angle = max(figures.angle, DragonBonesGoldenTests.angleDifference(m, n))
                    let ca = x.color, cb = y.color
                    let colors = [ca.redMultiplier - cb.redMultiplier, ca.greenMultiplier - cb.greenMultiplier,
                                  ca.blueMultiplier - cb.blueMultiplier, ca.alphaMultiplier - cb.alphaMultiplier,
                                  ca.redOffset - cb.redOffset, ca.greenOffset - cb.greenOffset,
                                  ca.blueOffset - cb.blueOffset, ca.alphaOffset - cb.alphaOffset]
                    figures.color = max(figures.color, colors.map(abs).max() ?? 0)
                    if (x.mesh == nil) != (y.mesh == nil) { mismatch("\(label) \(x.path): mesh on one side only") }
                    if let p = x.mesh?.positions, let q = y.mesh?.positions {
                        guard p.count == q.count, x.mesh?.triangles == y.mesh?.triangles else {
                            mismatch("\(label) \(x.path): mesh topology differs")
                            continue
                        }
                        for (u, v) in zip(p, q) {
                            figures.meshVertices += 1
                            let d = hypot(u.x - v.x, u.y - v.y)
                            if d > figures.vertex { figures.vertex = d; figures.whereVertex = "\(label) \(x.path)" }
                        }
                    }
                }
            }
        }
        return figures
    }

    func assertParity(_ name: String, json: URL, binary: URL, expectMeshes: Bool = false) throws {
        let figures = try Self.compare(json: json, binary: binary)
        print("\(name): \(figures)")
        XCTAssert(figures.mismatches.isEmpty, "\(name): \(figures)")
        XCTAssertGreaterThan(figures.items, 0, name)
        if expectMeshes { XCTAssertGreaterThan(figures.meshVertices, 0, name) }
        XCTAssertLessThanOrEqual(figures.position, Self.positionTolerance, "\(name): \(figures)")
        XCTAssertLessThanOrEqual(figures.angle, Self.angleTolerance, "\(name): \(figures)")
        XCTAssertLessThanOrEqual(figures.vertex, Self.positionTolerance, "\(name): \(figures)")
        XCTAssertLessThanOrEqual(figures.color, Self.colorTolerance, "\(name): \(figures)")
    }

    func testCorpusBinaryMatchesItsJSONTwin() throws {
        let folder = TestPaths.shared.appendingPathComponent("corpus/dragonbones/db5.5-mecha1406-with-dbbin")
        guard FileManager.default.fileExists(atPath: folder.path) else { throw XCTSkip("../shared/corpus is absent") }
        try assertParity("mecha_1406", json: folder.appendingPathComponent("mecha_1406_ske.json"),
                         binary: folder.appendingPathComponent("mecha_1406_ske.dbbin"))
    }

    /// Our waver converted by DragonBones/Tools: weighted mesh, deform, curves, z-order, colour, display changes.
    func testOwnBinaryMatchesItsJSONTwin() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver/waver_ske.json")
        let binary = DragonBonesOwnExportTests.binaryFolder.appendingPathComponent("waver/export/waver_ske.dbbin")
        try assertParity("waver", json: sample, binary: binary, expectMeshes: true)
    }

    /// The comparison sees a difference: the binary with one deform keyframe's value moved by 2 px.
    func testTheComparisonSeesAMovedDeformValue() throws {
        let source = DragonBonesOwnExportTests.binaryFolder.appendingPathComponent("waver/export")
        let folder = try TestPaths.temporaryFolder("keyframe-dbbin-moved")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        for name in ["waver_tex.json", "waver_tex.png"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        var bytes = [UInt8](try Data(contentsOf: source.appendingPathComponent("waver_ske.dbbin")))
        // The frame float array holds the deform values; move the last value stored there.
        let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let header = try JSONSerialization.jsonObject(with: Data(bytes[12..<(12 + headerLength)])) as! [String: Any]
        let offsets = header["offset"] as! [Int]
        let last = 12 + headerLength + offsets[6] + offsets[7] - 4
        var value = Float(bitPattern: UInt32(bytes[last]) | UInt32(bytes[last + 1]) << 8 | UInt32(bytes[last + 2]) << 16
            | UInt32(bytes[last + 3]) << 24)
        value += 2
        for k in 0..<4 { bytes[last + k] = UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt32(k))) }
        try Data(bytes).write(to: folder.appendingPathComponent("waver_ske.dbbin"))
        let figures = try Self.compare(json: TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver/waver_ske.json"),
                                       binary: folder.appendingPathComponent("waver_ske.dbbin"))
        XCTAssertGreaterThan(figures.vertex, 1, "\(figures)")
    }
}
