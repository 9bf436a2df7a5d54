import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

final class PoseSamplerTests: XCTestCase {
    private func corpusDocument(_ name: String) throws -> Document {
        let folder = try XCTUnwrap(try TestPaths.corpus("animate_atlas").first { $0.lastPathComponent == name })
        return try Importer.importDocument(at: folder)
    }

    /// Animate baked the balltest scene itself (`balltest-animate23`); BetterTextureAtlas exported the same scene
    /// with un-baked classic tweens and custom eases (`balltest-bta`). Interpolating the BTA tweens must land the
    /// ball where Animate's baked frames put it.
    func testBTATweensMatchAnimatesOwnBakedFrames() throws {
        let baked = try corpusDocument("libanimateatlas-balltest-animate23")
        let tweened = try corpusDocument("libanimateatlas-balltest-bta")
        let bakedSampler = PoseSampler(document: baked), tweenSampler = PoseSampler(document: tweened)
        // The exported symbol's own timeline (both exports place it on the stage with the same stage instance, which
        // becomes the document's root composition).
        func symbol(_ document: Document) -> String {
            let stage = document.composition(document.root)?.nodes.first { $0.id == "stage" }
            if case .composition(let instance)? = stage?.tracks.content?.keyframes.first?.value { return instance.composition }
            return document.root
        }
        let bakedRoot = try XCTUnwrap(baked.composition(symbol(baked)))
        XCTAssertEqual(bakedRoot.duration, try XCTUnwrap(tweened.composition(symbol(tweened))).duration)
        var worst = 0.0
        var worstFrame = 0
        for frame in 0..<Int(bakedRoot.duration.value) {
            // The ball instance's world transform: where the tween puts the symbol (the atlases crop the picture
            // differently, so sprites are not compared).
            func ball(_ sampler: PoseSampler, _ document: Document) throws -> Matrix2D {
                let pose = sampler.sample(composition: symbol(document), frame: Frames(Double(frame)), collectNodes: true)
                return try XCTUnwrap(pose.nodes.first { $0.path == "\(symbol(document))/0:Layer_2/0" }).transform
            }
            let x = try ball(bakedSampler, baked), y = try ball(tweenSampler, tweened)
            // Compare where the ball symbol's box (0…163 px, its drawn size) lands.
            for corner in [Vector2(x: 0, y: 0), Vector2(x: 163, y: 0), Vector2(x: 0, y: 163), Vector2(x: 163, y: 163)] {
                let p = x.apply(corner), q = y.apply(corner)
                let distance = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
                if distance > worst { worst = distance; worstFrame = frame }
            }
        }
        // Animate stores baked matrices rounded to 0.05 px and scales to 3 decimals.
        XCTAssertLessThan(worst, 0.25, "largest corner distance \(worst) px at frame \(worstFrame)")
        print("BTA tween vs Animate baked: largest corner distance \(worst) px (frame \(worstFrame))")
    }

    /// A sprite's world transform is the product of the raw matrices down the symbol chain (computed here from the
    /// raw file with Foundation's parser).
    func testSpritesLandWhereRawMatricesSay() throws {
        let folder = try XCTUnwrap(try TestPaths.corpus("animate_atlas").first { $0.lastPathComponent == "openfl-test-2018" })
        let raw = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("Animation.json"))) as! [String: Any]
        func matrix(_ instance: [String: Any]) -> Matrix2D {
            if let m = instance["Matrix3D"] as? [String: Double] {
                return Matrix2D(a: m["m00"]!, b: m["m01"]!, c: m["m10"]!, d: m["m11"]!, tx: m["m30"]!, ty: m["m31"]!)
            }
            if let p = instance["Position"] as? [String: Double] { return Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: p["x"]!, ty: p["y"]!) }
            return .identity
        }
        var symbols: [String: [String: Any]] = [:]
        for symbol in ((raw["SYMBOL_DICTIONARY"] as? [String: Any])?["Symbols"] as? [[String: Any]]) ?? [] {
            symbols[symbol["SYMBOL_name"] as! String] = symbol["TIMELINE"] as? [String: Any]
        }
        // Walk root frame 0 back to front; a graphic shows its firstFrame (age 0), a movie clip its frame 0.
        var expected: [(String, Matrix2D)] = []
        func walk(_ timeline: [String: Any], at frameNumber: Int, _ parent: Matrix2D) {
            for layer in (timeline["LAYERS"] as! [[String: Any]]).reversed() {
                guard let frame = (layer["Frames"] as! [[String: Any]]).first(where: {
                    let start = $0["index"] as! Int, length = $0["duration"] as! Int
                    return start <= frameNumber && frameNumber < start + length
                }) else { continue }
                for element in frame["elements"] as! [[String: Any]] {
                    if let si = element["SYMBOL_Instance"] as? [String: Any] {
                        let world = parent.concatenating(matrix(si))
                        let isGraphic = (si["symbolType"] as? String) == "graphic"
                        let childFrame = isGraphic ? (si["firstFrame"] as? Int ?? 0) : 0
                        if let child = symbols[si["SYMBOL_name"] as! String] { walk(child, at: childFrame, world) }
                        else if let bitmap = si["bitmap"] as? [String: Any] {
                            expected.append((bitmap["name"] as! String, world.concatenating(matrix(bitmap))))
                        }
                    } else if let asi = element["ATLAS_SPRITE_instance"] as? [String: Any] {
                        expected.append((asi["name"] as! String, parent.concatenating(matrix(asi))))
                    }
                }
            }
        }
        let animation = raw["ANIMATION"] as! [String: Any]
        walk(animation["TIMELINE"] as! [String: Any], at: 0, .identity)
        XCTAssertFalse(expected.isEmpty)

        let document = try Importer.importDocument(at: folder)
        let items = PoseSampler(document: document).sample(composition: document.root, frame: .zero).items
        XCTAssertEqual(items.map(\.sprite), expected.map(\.0))
        for (item, (_, m)) in zip(items, expected) {
            for (x, y) in [(item.transform.a, m.a), (item.transform.b, m.b), (item.transform.c, m.c),
                           (item.transform.d, m.d), (item.transform.tx, m.tx), (item.transform.ty, m.ty)] {
                XCTAssertEqual(x, y, accuracy: 1e-6)
            }
        }
    }

    func testNestedTimeMappingForEveryLoopMode() {
        func frame(_ loop: LoopMode, first: Double, age: Double) -> Double {
            PoseSampler.childFrame(CompositionInstance(composition: "c", firstFrame: Frames(first), loop: loop),
                                   age: age, length: 10).frame
        }
        XCTAssertEqual(frame(.loop, first: 7, age: 5), 2)
        XCTAssertEqual(frame(.playOnce, first: 7, age: 5), 9)
        XCTAssertEqual(frame(.singleFrame, first: 7, age: 5), 7)
        XCTAssertEqual(frame(.loopReverse, first: 2, age: 5), 7)
        XCTAssertEqual(frame(.playOnceReverse, first: 2, age: 5), 0)
        XCTAssertEqual(frame(.playOnceReverse, first: 8, age: 5), 3)
    }

    func testEasingEvaluation() {
        XCTAssertEqual(EasingEvaluator.progress(.flashQuadratic(strength: -1), at: 0.5), 0.25, accuracy: 1e-12)
        XCTAssertEqual(EasingEvaluator.progress(.flumpQuadratic(ease: -1), at: 0.5), 0.75, accuracy: 1e-12)
        XCTAssertEqual(EasingEvaluator.progress(.quadraticInOut(strength: 1), at: 0.25), (1 - 0.5.squareRoot()) / 2, accuracy: 1e-12)
        // A one-segment path equals the cubic Bézier with the same control points.
        let path = Easing.bezierPath(points: [Vector2(x: 0, y: 0), Vector2(x: 0.42, y: 0), Vector2(x: 0.58, y: 1),
                                             Vector2(x: 1, y: 1)], sampledSteps: nil)
        for p in stride(from: 0.0, through: 1.0, by: 0.1) {
            XCTAssertEqual(EasingEvaluator.progress(path, at: p),
                           EasingEvaluator.progress(.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1), at: p), accuracy: 1e-7)
        }
        XCTAssertEqual(EasingEvaluator.progress(.hold, at: 0.7), 0)
    }
}
