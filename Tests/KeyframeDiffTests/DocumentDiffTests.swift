import Foundation
import KeyframeDiff
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// `DocumentDiff` on the samples with one edit each, the figures worked out from the edit itself: a moved keyframe,
/// a changed easing, a renamed sprite, an added clip, and changes that leave the document the same.
final class DocumentDiffTests: XCTestCase {
    func sample(_ name: String) -> URL { TestPaths.packageRoot.appendingPathComponent("Samples/\(name)") }

    func load(_ name: String) throws -> (Document, RenderScene) {
        let document = try Importer.importDocument(at: sample(name))
        return (document, try RenderScene(document: document, assetsFolder: sample(name)))
    }

    func side(_ label: String, _ document: Document, _ scene: RenderScene?) throws -> DiffSide {
        guard let scene else { return DiffSide(label: label, document: document, scene: nil, missingImages: "none") }
        return DiffSide(label: label, document: document, scene: RenderScene(document: document, library: scene.library))
    }

    /// Indices of the node `id` of composition `composition`.
    func locate(_ document: Document, _ composition: String, _ id: String) throws -> (Int, Int) {
        let c = try XCTUnwrap(document.compositions.firstIndex { $0.id == composition }, "no composition \(composition)")
        let n = try XCTUnwrap(document.compositions[c].nodes.firstIndex { $0.id == id }, "no node \(id)")
        return (c, n)
    }

    func testIdenticalDocumentsHaveNoChange() throws {
        let (document, scene) = try load("animate-walker")
        let diff = DocumentDiff(before: try side("a", document, scene), after: try side("b", document, scene))
        XCTAssertFalse(diff.hasChanges)
        XCTAssertEqual(diff.structure, [])
        XCTAssertEqual(diff.motion, [])
        XCTAssertTrue(diff.text.hasSuffix("no change (tolerance 0.01 px, °, %)\n"), diff.text)
    }

    /// One held keyframe of leg_back moved by (3, 4): a 5 px change at that frame only, nothing else.
    func testMovedKeyframeIsReportedWithItsDistanceAndFrame() throws {
        let (before, scene) = try load("animate-walker")
        var after = before
        let (c, n) = try locate(after, "walker_legs", "1:leg_back/0")
        let keys = try XCTUnwrap(after.compositions[c].nodes[n].tracks.position?.keyframes)
        let k = try XCTUnwrap(keys.firstIndex { $0.frame.value == 5 }, "leg_back has a key at frame 5")
        XCTAssertFalse(keys[k].easing.interpolates, "the walker's legs are baked per frame (held keys)")
        let original = keys[k].value
        after.compositions[c].nodes[n].tracks.position!.keyframes[k].value.x += 3
        after.compositions[c].nodes[n].tracks.position!.keyframes[k].value.y += 4

        let diff = DocumentDiff(before: try side("a", before, scene), after: try side("b", after, scene))
        XCTAssertEqual(diff.structure, [])
        XCTAssertEqual(diff.motion.count, 1, diff.text)
        let change = try XCTUnwrap(diff.motion.first)
        XCTAssertEqual(change.displayName, "walker_legs › leg_back › leg_back #0")
        XCTAssertEqual(change.channels.map(\.channel), [.position])
        let position = try XCTUnwrap(change.channels.first)
        assertClose(position.largest, 5, tolerance: 1e-9)
        XCTAssertEqual(position.frame, 5)
        XCTAssertEqual(position.frames, 1, "the next key (frame 6) holds its own value")
        XCTAssertEqual(position.before, [original.x, original.y])
        assertClose(position.after[0], original.x + 3)
        assertClose(position.after[1], original.y + 4)
        XCTAssertTrue(diff.text.contains("position  5 px at frame 5"), diff.text)

        // Within a tolerance of 5 px it is no change; a tolerance just below it still reports it.
        XCTAssertFalse(DocumentDiff(before: try side("a", before, scene), after: try side("b", after, scene),
                                    options: DiffOptions(tolerance: 5)).hasChanges)
        XCTAssertTrue(DocumentDiff(before: try side("a", before, scene), after: try side("b", after, scene),
                                   options: DiffOptions(tolerance: 4.99)).hasChanges)
    }

    /// The spinner's wheel turns 450° from frame 0 to 16. Linear there against Flash's full ease-out
    /// `p + p·(1 − p)`: the angles differ by 450·p·(1 − p), largest (112.5°) at p = ½, frame 8, and on the 15
    /// frames strictly between the keys.
    func testChangedEasingIsReportedWithTheLargestAngleAndWhere() throws {
        let (original, scene) = try load("bta-spinner")
        let (c, n) = try locate(original, "spinner", "0:wheel/0")
        var before = original, after = original
        before.compositions[c].nodes[n].tracks.rotation!.keyframes[0].easing = .linear
        after.compositions[c].nodes[n].tracks.rotation!.keyframes[0].easing = .flashQuadratic(strength: 1)
        let keys = try XCTUnwrap(after.compositions[c].nodes[n].tracks.rotation?.keyframes)
        XCTAssertEqual(keys.map(\.frame.value), [0, 16])
        XCTAssertEqual(abs(keys[1].value.value - keys[0].value.value), 450, accuracy: 1e-9)

        let diff = DocumentDiff(before: try side("a", before, scene), after: try side("b", after, scene))
        XCTAssertEqual(diff.structure, [])
        let change = try XCTUnwrap(diff.motion.first)
        XCTAssertEqual(diff.motion.count, 1)
        XCTAssertEqual(change.path, ["wheel", "wheel #0"])
        XCTAssertEqual(change.channels.map(\.channel), [.rotation], "only the rotation's easing changed")
        let rotation = try XCTUnwrap(change.channels.first)
        assertClose(rotation.largest, 112.5, tolerance: 1e-9)
        XCTAssertEqual(rotation.frame, 8)
        XCTAssertEqual(rotation.frames, 15)
        assertClose(rotation.after[0] - rotation.before[0], (keys[1].value.value - keys[0].value.value) / 4)
        XCTAssertEqual(rotation.clips, [MotionChange.ClipTime(clip: "spinner", frame: 8, seconds: 0.333)])
        XCTAssertTrue(diff.text.contains("rotation  112.5 ° at frame 8 (spinner frame 8, 0.333 s)"), diff.text)
    }

    /// Sprite 0003 renamed (its id, its name and every reference to it): one rename, no motion change — with the
    /// pictures to match it by, and without them (by size, origin and atlas region).
    func testRenamedSpriteIsOneRename() throws {
        let (before, scene) = try load("animate-walker")
        var after = before
        let s = try XCTUnwrap(after.assets.sprites.firstIndex { $0.id == "0003" })
        after.assets.sprites[s].id = "arm_upper"
        after.assets.sprites[s].name = "arm_upper"
        var references = 0
        for c in after.compositions.indices {
            for n in after.compositions[c].nodes.indices {
                guard var content = after.compositions[c].nodes[n].tracks.content else { continue }
                for k in content.keyframes.indices where content.keyframes[k].value == .sprite("0003") {
                    content.keyframes[k].value = .sprite("arm_upper")
                    references += 1
                }
                after.compositions[c].nodes[n].tracks.content = content
            }
        }
        XCTAssertGreaterThan(references, 0)
        let renamedScene = try RenderScene(document: after, assetsFolder: sample("animate-walker"))
        for (sceneA, sceneB) in [(Optional(scene), Optional(renamedScene)), (nil, nil)] {
            let diff = DocumentDiff(before: try side("a", before, sceneA), after: try side("b", after, sceneB))
            XCTAssertEqual(diff.structure, [StructuralChange(subject: .sprite, kind: .renamed, name: "arm_upper",
                                                             oldName: "0003")], diff.text)
            XCTAssertEqual(diff.motion, [], diff.text)
            XCTAssertTrue(diff.text.contains("~ sprite 0003 → arm_upper (renamed)"), diff.text)
        }
        // A sprite renamed and repainted is reported as removed and added (nothing ties them), and whoever shows it
        // shows another sprite.
        var bitmaps: [String: Bitmap] = [:]
        for (index, image) in after.assets.images.enumerated() { bitmaps[image.id] = scene.library.images[index] }
        let region = after.assets.sprites[s].region
        var atlas = try XCTUnwrap(bitmaps[after.assets.sprites[s].image])
        for y in Int(region.y)..<Int(region.y + region.height) {
            for x in Int(region.x)..<Int(region.x + region.width) {
                atlas.setPixel(x: x, y: y, RGBAColor(r: 255, g: 0, b: 255).premultiplied)
            }
        }
        bitmaps[after.assets.sprites[s].image] = atlas
        let repainted = DiffSide(label: "b", document: after,
                                 scene: RenderScene(document: after, library: AtlasLibrary(document: after, bitmaps: bitmaps)))
        let diff = DocumentDiff(before: try side("a", before, scene), after: repainted)
        XCTAssertFalse(diff.structure.contains { $0.kind == .renamed }, diff.text)
        XCTAssertEqual(Set(diff.structure.map(\.kind)), [.added, .removed], diff.text)
        XCTAssertTrue(diff.motion.contains { $0.properties.contains { $0.property == .content } }, diff.text)
    }

    func testAddedClipIsReportedWithItsRange() throws {
        let (before, scene) = try load("animate-walker")
        var after = before
        after.clips.append(Clip(name: "run", composition: "walker", start: Frames(12), duration: Frames(12), loopCount: 0))
        let diff = DocumentDiff(before: try side("a", before, scene), after: try side("b", after, scene))
        XCTAssertEqual(diff.structure, [StructuralChange(subject: .clip, kind: .added, name: "run",
                                                         details: "walker, frames 12–23")])
        XCTAssertEqual(diff.motion, [])
        XCTAssertTrue(diff.text.contains("+ clip run added (walker, frames 12–23)"), diff.text)
        XCTAssertTrue(diff.text.hasSuffix("1 change(s): 1 structural, 0 node(s) with changed motion\n"), diff.text)
        let json = try JSONParser.parse(diff.jsonBytes)
        XCTAssertEqual(json["changed"], .bool(true))
        let entry = try XCTUnwrap(json["structure"]?.arrayValue?.first)
        XCTAssertEqual(entry["subject"], .string("clip"))
        XCTAssertEqual(entry["change"], .string("added"))

        // A renamed clip (same composition and range) is a rename, not a removal and an addition.
        var renamed = before
        renamed.clips[0].name = "stroll"
        let rename = DocumentDiff(before: try side("a", before, scene), after: try side("b", renamed, scene))
        XCTAssertEqual(rename.structure, [StructuralChange(subject: .clip, kind: .renamed, name: "stroll", oldName: "walk")])
        XCTAssertEqual(rename.matchedClips.map(\.before), before.clips.map(\.name))
    }

    /// The same document however it is written: its normalized JSON, and the export with its atlas re-encoded.
    func testRenderingOnlyChangesAreNoChange() throws {
        let (document, scene) = try load("animate-walker")
        let normalized = try Document(jsonBytes: document.jsonBytes())
        XCTAssertFalse(DocumentDiff(before: try side("a", document, scene),
                                    after: try side("b", normalized, scene)).hasChanges)

        let root = try TestPaths.temporaryFolder("diff-reencoded")
        defer { try? FileManager.default.removeItem(at: root) }
        let copy = root.appendingPathComponent("walker")
        try FileManager.default.copyItem(at: sample("animate-walker"), to: copy)
        var reencoded = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) where name.hasSuffix(".png") {
            let path = copy.appendingPathComponent(name).path
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let bitmap = try PNGDecoder().decode(contentsOf: path)
            for preset in [PNGEncodingOptions.fast, .compact] where try Data(contentsOf: URL(fileURLWithPath: path)) == before {
                var encoder = PNGEncoder(options: preset)
                try encoder.write(bitmap, to: path)
            }
            if try Data(contentsOf: URL(fileURLWithPath: path)) != before { reencoded += 1 }
        }
        XCTAssertGreaterThan(reencoded, 0, "the atlas bytes changed")
        let other = try Importer.importDocument(at: copy)
        let otherScene = try RenderScene(document: other, assetsFolder: copy)
        let diff = DocumentDiff(before: try side("a", document, scene), after: try side("b", other, otherScene))
        XCTAssertFalse(diff.hasChanges, diff.text)
        XCTAssertEqual(DiffFrames(diff: diff, before: try side("a", document, scene),
                                  after: try side("b", other, otherScene)).clips.map(\.differing), [0, 0, 0])
    }

    /// The frames of a changed clip: both versions drawn in one framing, the differing frames counted and shown.
    func testFramesShowWhereTheMovedNodeDraws() throws {
        let (before, scene) = try load("bta-spinner")
        var after = before
        let (c, n) = try locate(after, "spinner", "1:stand/0")
        after.compositions[c].nodes[n].tracks.position!.keyframes[0].value.x += 6
        let a = try side("a", before, scene), b = try side("b", after, scene)
        let diff = DocumentDiff(before: a, after: b)
        XCTAssertEqual(diff.motion.first?.channels.first?.largest, 6)
        let frames = DiffFrames(diff: diff, before: a, after: b, perClip: 4)
        let clip = try XCTUnwrap(frames.clips.first)
        XCTAssertEqual(clip.compared, 24)
        XCTAssertEqual(clip.differing, 24, "the stand is drawn on every frame")
        XCTAssertEqual(clip.shown.count, 4)
        XCTAssertEqual(clip.shown.map(\.frame), clip.shown.map(\.frame).sorted())
        for pair in clip.shown {
            XCTAssertEqual(pair.before.width, pair.after.width)
            XCTAssertNotNil(pair.difference.bounds)
        }
        // The overlay is grey where both agree, red where only the older version draws, cyan where only the newer.
        let pair = clip.shown[0]
        let overlay = DiffFrames.overlay(pair.before, pair.after)
        let bounds = try XCTUnwrap(pair.difference.bounds)
        var red: [Int] = [], cyan: [Int] = []
        for y in bounds.y..<bounds.maxY {
            for x in bounds.x..<bounds.maxX {
                let p = overlay.pixel(x: x, y: y)
                if Int(p.r) - Int(p.g) > 100 { red.append(x) }
                if Int(p.g) - Int(p.r) > 100 { cyan.append(x) }
            }
        }
        XCTAssertTrue(!red.isEmpty && !cyan.isEmpty, "a shifted shape leaves red behind and cyan ahead")
        // The stand moved right: what only the older version draws (red) lies left of what only the newer draws.
        XCTAssertLessThan(Double(red.reduce(0, +)) / Double(max(1, red.count)),
                          Double(cyan.reduce(0, +)) / Double(max(1, cyan.count)), "red behind, cyan ahead")
    }
}
