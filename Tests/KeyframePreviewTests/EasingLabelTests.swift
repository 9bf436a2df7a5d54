import Foundation
import KeyframeImport
import KeyframeModel
@testable import KeyframePreview
import KeyframeTestSupport
import XCTest

/// How the preview's timeline labels a tween: "linear" is what the curve does, not how the source spelled it.
final class EasingLabelTests: XCTestCase {
    /// A DragonBones armature whose bone moves in three tweens: `curve: [0, 0, 1, 1]` (linear, spelled as a curve),
    /// `curve: [0.5, 0, 0.5, 1]` (eased), and `tweenEasing: 0` (linear).
    static let skeleton = """
        {"frameRate": 24, "name": "curves", "version": "5.5", "armature": [{"name": "a", "frameRate": 24,
          "bone": [{"name": "root"}], "slot": [], "skin": [],
          "animation": [{"name": "move", "duration": 30, "bone": [{"name": "root", "translateFrame": [
            {"duration": 10, "curve": [0, 0, 1, 1], "x": 0},
            {"duration": 10, "curve": [0.5, 0, 0.5, 1], "x": 10},
            {"duration": 10, "tweenEasing": 0, "x": 20},
            {"duration": 0, "x": 30}]}]}]}]}
        """

    func testACurveOnTheDiagonalIsLabelledLinear() throws {
        let atlas = #"{"name": "curves", "imagePath": "curves_tex.png", "width": 4, "height": 4, "SubTexture": []}"#
        let document = try Importer.importDocument(files: ["curves_ske.json": Array(Self.skeleton.utf8),
                                                           "curves_tex.json": Array(atlas.utf8),
                                                           "curves_tex.png": StoredPNG.make(width: 4, height: 4) { _, _ in
                                                               (0, 0, 0, 0)
                                                           }])
        let clip = try XCTUnwrap(document.clips.first)
        let root = try XCTUnwrap(NodeCurves.make(document: document, clip: clip).first { $0.name == "root" })
        let x = try XCTUnwrap(root.curves.first { $0.name == "position.x" && !$0.keys.isEmpty }, "\(root.curves.map(\.name))")
        let segments = x.keys.dropLast().map(\.segment)
        XCTAssertEqual(segments, [.linear, .eased, .linear], "\(x.keys)")
    }

    /// Easings named as their formats define them (``Easing``'s documentation): Flash's and DragonBones' quadratic
    /// `p + s·p·(1−p)` is an ease-out for s > 0 (fast start), Flump's `p − e·p·(1−p)` an ease-in for e > 0, a Bézier
    /// path of 7 points two segments, an identity curve linear whatever its spelling, a track's last keyframe a hold.
    func testEasingsAreNamedAsTheSourceMeansThem() {
        XCTAssertEqual(EasingName.of(.flashQuadratic(strength: 0.4), last: false), "ease out 40 % (quadratic 0.4)")
        XCTAssertEqual(EasingName.of(.flashQuadratic(strength: -1), last: false), "ease in 100 % (quadratic -1)")
        XCTAssertEqual(EasingName.of(.flumpQuadratic(ease: 0.5), last: false), "ease in 50 % (Flump ease 0.5)")
        XCTAssertEqual(EasingName.of(.flumpQuadratic(ease: -1), last: false), "ease out 100 % (Flump ease -1)")
        XCTAssertEqual(EasingName.of(.quadraticInOut(strength: 1), last: false), "ease in-out 100 % (QuadInOut)")
        XCTAssertEqual(EasingName.of(.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1), last: false),
                       "cubic Bézier (0.42, 0, 0.58, 1)")
        XCTAssertEqual(EasingName.of(.cubicBezier(x1: 0.3, y1: 0.3, x2: 0.8, y2: 0.8), last: false), "linear")
        XCTAssertEqual(EasingName.of(.flashQuadratic(strength: 0), last: false), "linear")
        let path = (0..<7).map { Vector2(x: Double($0) / 6, y: Double($0 * $0) / 36) }
        XCTAssertEqual(EasingName.of(.bezierPath(points: path, sampledSteps: nil), last: false),
                       "custom ease (2 Bézier segments)")
        XCTAssertEqual(EasingName.of(.bezierPath(points: Array(path.prefix(4)), sampledSteps: 8), last: false),
                       "custom ease (1 Bézier segment, sampled in 8 steps)")
        XCTAssertEqual(EasingName.of(.hold, last: false), "hold")
        XCTAssertEqual(EasingName.of(.linear, last: true), "hold (last keyframe)")
    }

    func testIsLinearAgreesWithTheCurvesItClassifies() {
        let easings: [Easing] = [
            .linear, .hold, .cubicBezier(x1: 0.3, y1: 0.3, x2: 0.8, y2: 0.8), .cubicBezier(x1: 0.3, y1: 0.2, x2: 0.8, y2: 0.8),
            .bezierPath(points: [Vector2(x: 0, y: 0), Vector2(x: 0.2, y: 0.2), Vector2(x: 0.4, y: 0.4),
                                 Vector2(x: 0.5, y: 0.5), Vector2(x: 0.6, y: 0.6), Vector2(x: 0.9, y: 0.9),
                                 Vector2(x: 1, y: 1)], sampledSteps: nil),
            .bezierPath(points: [Vector2(x: 0, y: 0), Vector2(x: 0.2, y: 0.5), Vector2(x: 0.4, y: 0.4),
                                 Vector2(x: 1, y: 1)], sampledSteps: 8),
            .flashQuadratic(strength: 0), .flashQuadratic(strength: 0.4), .quadraticInOut(strength: 0),
            .quadraticInOut(strength: 1), .flumpQuadratic(ease: 0), .flumpQuadratic(ease: -0.5),
        ]
        for easing in easings {
            // The curve evaluated here: the model's closed forms, and for a single Bézier its parametric form solved
            // by bisection on x.
            func progress(_ p: Double) -> Double {
                if case .cubicBezier(let x1, let y1, let x2, let y2) = easing {
                    func c(_ a: Double, _ b: Double, _ t: Double) -> Double {
                        3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t
                    }
                    var low = 0.0, high = 1.0
                    for _ in 0..<60 { let m = (low + high) / 2; if c(x1, x2, m) < p { low = m } else { high = m } }
                    return c(y1, y2, (low + high) / 2)
                }
                return easing.closedFormProgress(at: p) ?? .nan
            }
            let deviation = stride(from: 0.05, through: 0.95, by: 0.05).map { abs(progress($0) - $0) }.max() ?? 0
            XCTAssertEqual(easing.isLinear, deviation < 1e-3, "\(easing): deviation \(deviation)")
        }
    }
}
