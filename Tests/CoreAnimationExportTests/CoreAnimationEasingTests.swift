import Foundation
import KeyframeEngine
@testable import KeyframeExport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Source easing written as Core Animation timing functions (docs/core-animation.md §5.1): the curves themselves, the
/// player's evaluation of them against Chromium's, and exported layer trees that match the sampler between frames
/// too, where the export is exact.
final class CoreAnimationEasingTests: XCTestCase {
    // MARK: The curves

    /// Flash's quadratic `p + s·p·(1−p)` is the cubic timing function (⅓, (1+s)/3, ⅔, (2+s)/3): checked by the
    /// Bézier's own Bernstein form at parameter u (x(u) = u), and through the engine's timing-function solver.
    func testFlashQuadraticIsItsDegreeElevatedCubic() {
        for s in [-1.0, -0.55, 0, 0.3, 1] {
            let c = CASourceKeys.quadraticControls(strength: s)
            let solver = CubicBezier(c[0], c[1], c[2], c[3])
            for step in 0...100 {
                let u = Double(step) / 100
                let w = 1 - u
                let x = 3 * w * w * u * c[0] + 3 * w * u * u * c[2] + u * u * u
                let y = 3 * w * w * u * c[1] + 3 * w * u * u * c[3] + u * u * u
                let quadratic = Easing.flashQuadratic(strength: s).closedFormProgress(at: u)!
                XCTAssertEqual(x, u, accuracy: 1e-12, "strength \(s): x(u) is not u")
                XCTAssertEqual(y, quadratic, accuracy: 1e-12, "strength \(s) at \(u)")
                XCTAssertEqual(solver.progress(at: u), quadratic, accuracy: 1e-9, "solver, strength \(s) at \(u)")
            }
        }
        // Flump's sign is the opposite one.
        let flump = CASourceKeys.pieces(.flumpQuadratic(ease: 0.4))![0].controls
        XCTAssertEqual(flump, CASourceKeys.quadraticControls(strength: -0.4))
    }

    /// A cut piece of a curve, rescaled to the unit square, is that piece: `y'(u) = (y(a + u·(b−a)) − y(a)) /
    /// (y(b) − y(a))` for CSS `ease` and an overshooting curve.
    func testCutPieceIsThatPartOfTheCurve() throws {
        for controls in [[0.25, 0.1, 0.25, 1.0], [0.3, -0.4, 0.7, 1.5]] {
            let whole = CubicBezier(controls[0], controls[1], controls[2], controls[3])
            for (a, b) in [(0.2, 0.7), (0.0, 0.35), (0.6, 1.0)] {
                let piece = try XCTUnwrap(CASourceKeys.cut(controls, from: a, to: b), "\(controls) \(a)…\(b)")
                let solver = CubicBezier(piece[0], piece[1], piece[2], piece[3])
                let ya = whole.progress(at: a), yb = whole.progress(at: b)
                for step in 0...50 {
                    let u = Double(step) / 50
                    let expected = (whole.progress(at: a + u * (b - a)) - ya) / (yb - ya)
                    XCTAssertEqual(solver.progress(at: u), expected, accuracy: 2e-6, "\(controls) \(a)…\(b) at \(u)")
                }
            }
        }
        XCTAssertEqual(CASourceKeys.cut([0.25, 0.1, 0.25, 1], from: 0, to: 1), [0.25, 0.1, 0.25, 1])
    }

    /// The player evaluates a timing function as Core Animation does — solve x(s) = t, then y(s) — checked against
    /// Chromium's CSS `cubic-bezier()` (the same curve as `CAMediaTimingFunction`): a position animation from x = 0
    /// to 1000 over one second shows Chromium's progress at every golden point.
    func testPlayerTimingFunctionsMatchChromium() throws {
        let url = TestPaths.shared.appendingPathComponent("golden/bezier.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("golden table not found at \(url.path); ../shared must sit beside the checkout")
        }
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let curves = try XCTUnwrap(root["curves"] as? [String: [String: Any]])
        var checked = 0
        for (name, curve) in curves.sorted(by: { $0.key < $1.key }) {
            let cp = try XCTUnwrap(curve["control_points"] as? [Double])
            var layer = CALayerSpec(name: "dot")
            layer.contents = "atlas"
            layer.bounds = [0, 0, 1, 1]
            layer.anchorPoint = [0, 0]
            layer.animation = CAAnimationGroupSpec(beginTime: 0, duration: 1, animations: [CAKeyframeAnimationSpec(
                keyPath: "position", valueType: .point, values: [[0, 0], [1000, 0]], keyTimes: [0, 1], timingFunctions: [cp],
                calculationMode: "linear", duration: 1)])
            var top = CALayerSpec(name: "root")
            top.sublayers = [layer]
            let tree = CALayerTreeDocument(clip: name, frameRate: 1, frameCount: 1, duration: 1, loopCount: 0, stage: nil,
                                           images: [.init(id: "atlas", path: "a.png", pixelWidth: 1, pixelHeight: 1)],
                                           root: top)
            XCTAssertEqual(CALayerTreeValidator.problems(in: tree), [])
            let player = CALayerTreePlayer(document: tree)
            for point in try XCTUnwrap(curve["points"] as? [[String: Any]]) {
                let x = try XCTUnwrap(point["x"] as? Double), y = try XCTUnwrap(point["y"] as? Double)
                let drawn = try XCTUnwrap(player.draw(at: x).first)
                XCTAssertEqual(drawn.transform.tx / 1000, y, accuracy: 1e-6, "\(name) at \(x)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    // MARK: Exported trees

    /// A dot whose position, rotation and opacity use every exact easing (Flash quadratic, cubic Bézier, hold, a
    /// two-segment Bézier path, Flump quadratic, linear), under a layer node that only translates, exported over a clip
    /// that cuts segments at both ends: the keys are the source's (not one per frame), curved segments carry their
    /// timing functions, and the Core Animation model matches the sampler every tenth of a frame, not only at frames.
    func testExactEasingsAreKeyedAtTheSourceKeyframes() throws {
        let document = Self.document(scaleEasing: .linear)
        let (tree, clip) = try export(document)
        let dot = try XCTUnwrap(Self.layer(named: "dot", in: tree.root))
        let animations = try XCTUnwrap(dot.animation?.animations)
        let position = try XCTUnwrap(animations.first { $0.keyPath == "position" })
        // Keys inside frames 3…27: the cut ends, the keyframes at 6, 12, 15 (twice: the hold's jump), the path's inner
        // point at 17 and the keyframe at 20 and 26.
        XCTAssertEqual(position.calculationMode, "linear")
        XCTAssertEqual(position.values.count, 9, "\(position.keyTimes.map { $0 * 24 + 3 })")
        XCTAssertTrue(position.timingFunctions.contains(where: { $0 != [0, 0, 1, 1] }))
        XCTAssertEqual(position.keyTimes.filter { abs($0 * 24 + 3 - 15) < 1e-9 }.count, 2, "the hold jumps at frame 15")
        // The parent layer node's translation is added to the position.
        XCTAssertEqual(position.values[0][0], document.compositions[0].nodes[1].tracks.position!.value(at: Frames(3))!.x + 100,
                       accuracy: 1e-9)
        let rotation = try XCTUnwrap(animations.first { $0.keyPath == "transform.rotation.z" })
        XCTAssertEqual(rotation.values.count, 2, "one segment cut at both ends")
        XCTAssertNotEqual(rotation.timingFunctions, [[0, 0, 1, 1]])
        let opacity = try XCTUnwrap(animations.first { $0.keyPath == "opacity" })
        XCTAssertEqual(opacity.calculationMode, "discrete", "an opacity that only holds switches")
        let figures = CoreAnimationConformance.compare(tree, clip: clip, document: document,
                                                       sampler: PoseSampler(document: document), name: "easings")
        XCTAssertEqual(figures.failures, [])
        // Between frames as well.
        let worst = try Self.worstError(tree, document: document, clip: clip)
        XCTAssertLessThan(worst, 1e-3, "between frames")
    }

    /// DragonBones' half-cosine in-out has no timing function: that key path (scale here) is sampled per frame while
    /// the others stay keyed at the source; the model still matches the sampler at every frame.
    func testInexactEasingSamplesOnlyItsKeyPath() throws {
        let document = Self.document(scaleEasing: .quadraticInOut(strength: 0.8))
        let (tree, clip) = try export(document)
        let animations = try XCTUnwrap(Self.layer(named: "dot", in: tree.root)?.animation?.animations)
        let scale = try XCTUnwrap(animations.first { $0.keyPath == "transform.scale.x" })
        XCTAssertGreaterThan(scale.values.count, 15, "sampled per frame")
        XCTAssertTrue(scale.timingFunctions.allSatisfy { $0 == [0, 0, 1, 1] })
        XCTAssertLessThan(try XCTUnwrap(animations.first { $0.keyPath == "position" }).values.count, 10)
        let figures = CoreAnimationConformance.compare(tree, clip: clip, document: document,
                                                       sampler: PoseSampler(document: document), name: "sampled")
        XCTAssertEqual(figures.failures, [])
        XCTAssertGreaterThan(figures.sprites, 20)
    }

    /// A skewed node cannot be said by components: its whole transform is sampled per frame.
    func testSkewIsSampled() throws {
        var document = Self.document(scaleEasing: .linear)
        document.compositions[0].nodes[1].tracks.skew = Track([
            Keyframe(frame: Frames(0), value: Degrees(0), easing: .flashQuadratic(strength: 0.5)),
            Keyframe(frame: Frames(30), value: Degrees(20))])
        let (tree, clip) = try export(document)
        let animations = try XCTUnwrap(Self.layer(named: "dot", in: tree.root)?.animation?.animations)
        XCTAssertGreaterThan(animations.first { $0.keyPath == "transform" }?.values.count ?? 0, 15)
        let figures = CoreAnimationConformance.compare(tree, clip: clip, document: document,
                                                       sampler: PoseSampler(document: document), name: "skew")
        XCTAssertEqual(figures.failures, [])
    }

    // MARK: Helpers

    private static func document(scaleEasing: Easing) -> Document {
        let sprite = Sprite(id: "dot", name: "dot", image: "atlas", region: Rect(x: 0, y: 0, width: 6, height: 4),
                            rotated: false, origin: Vector2(x: -3, y: -2), size: Size(width: 6, height: 4))
        var t = NodeTracks()
        t.content = Track(constant: .sprite("dot"))
        t.pivot = Track(constant: Vector2(x: 2, y: -1))
        let path: [Vector2] = [Vector2(x: 0, y: 0), Vector2(x: 0.1, y: 0.3), Vector2(x: 0.2, y: 0.5), Vector2(x: 0.4, y: 0.6),
                               Vector2(x: 0.6, y: 0.7), Vector2(x: 0.9, y: 0.8), Vector2(x: 1, y: 1)]
        t.position = Track([
            Keyframe(frame: Frames(0), value: Vector2(x: 0, y: 0), easing: .flashQuadratic(strength: 0.7)),
            Keyframe(frame: Frames(6), value: Vector2(x: 40, y: 10), easing: .cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)),
            Keyframe(frame: Frames(12), value: Vector2(x: 10, y: 60), easing: .hold),
            Keyframe(frame: Frames(15), value: Vector2(x: 30, y: 30), easing: .bezierPath(points: path, sampledSteps: nil)),
            Keyframe(frame: Frames(20), value: Vector2(x: 80, y: 0), easing: .flumpQuadratic(ease: -0.6)),
            Keyframe(frame: Frames(26), value: Vector2(x: 0, y: 40), easing: .linear),
            Keyframe(frame: Frames(30), value: Vector2(x: 5, y: 5)),
        ])
        t.rotation = Track([Keyframe(frame: Frames(0), value: Degrees(-30), easing: .flashQuadratic(strength: -1)),
                            Keyframe(frame: Frames(30), value: Degrees(400))])
        t.scale = Track([Keyframe(frame: Frames(0), value: Vector2(x: 1, y: 2), easing: scaleEasing),
                         Keyframe(frame: Frames(30), value: Vector2(x: 3, y: 0.5))])
        t.opacity = Track([Keyframe(frame: Frames(0), value: 1), Keyframe(frame: Frames(10), value: 0.5),
                           Keyframe(frame: Frames(20), value: 0.25)])
        var group = NodeTracks()
        group.position = Track(constant: Vector2(x: 100, y: 50))
        let nodes = [Node(id: "group", name: "group", kind: .layer, tracks: group),
                     Node(id: "dot", name: "dot", kind: .layer, parent: "group", tracks: t)]
        return Document(name: "easings", frameRate: FrameRate(24), source: Provenance(format: .animateAtlas),
                        assets: Assets(images: [AtlasImage(id: "atlas", path: "atlas.png", pixelSize: Size(width: 8, height: 8))],
                                       sprites: [sprite]),
                        compositions: [Composition(id: "main", name: "main", duration: Frames(30), nodes: nodes)],
                        root: "main",
                        clips: [Clip(name: "cut", composition: "main", start: Frames(3), duration: Frames(25), loopCount: 0)])
    }

    private func export(_ document: Document) throws -> (CALayerTreeDocument, Clip) {
        let folder = try TestPaths.temporaryFolder("ca-easing")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("atlas.png"))
        let result = try CoreAnimationExporter().export(document, assetsFolder: folder, options: ExportOptions())
        let tree = try CALayerTreeFile.decode(result.clips[0].main.bytes)
        XCTAssertEqual(CALayerTreeValidator.problems(in: tree), [])
        return (tree, document.clips[0])
    }

    private static func layer(named name: String, in layer: CALayerSpec) -> CALayerSpec? {
        if layer.name == name && layer.animation != nil { return layer }
        for sublayer in layer.sublayers {
            if let found = Self.layer(named: name, in: sublayer) { return found }
        }
        return nil
    }

    /// The largest corner distance between the model and the sampler every tenth of a frame of the clip.
    private static func worstError(_ tree: CALayerTreeDocument, document: Document, clip: Clip) throws -> Double {
        let player = CALayerTreePlayer(document: tree)
        let sampler = PoseSampler(document: document)
        let sprite = document.assets.sprites[0]
        let image = try XCTUnwrap(tree.images.first)
        var worst = 0.0
        for step in 0..<Int(clip.duration.value - 1) * 10 {
            let t = Double(step) / 10
            let items = sampler.sample(clip: clip, time: Frames(t)).items
            let drawn = player.draw(at: t / document.frameRate.framesPerSecond)
            XCTAssertEqual(items.count, drawn.count, "at \(t)")
            for (layer, item) in zip(drawn, items) {
                worst = max(worst, CoreAnimationConformance.cornerError(layer, item: item, sprite: sprite, image: image))
                XCTAssertEqual(layer.opacity, item.color.alphaMultiplier, accuracy: 1e-4, "opacity at \(t)")
            }
        }
        return worst
    }
}
