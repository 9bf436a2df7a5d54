import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
@testable import KeyframePreview
import KeyframeTestSupport
import XCTest

/// Curves of nodes inside nested compositions, checked against the engine's own poses: at a spread of sample times,
/// the curves' values must rebuild the transform `PoseSampler` gives the node relative to its instance, and the
/// nested frame must be the one the sampler shows.
final class NestedCurvesTests: XCTestCase {
    private func document(_ sample: String) throws -> Document {
        try Importer.importDocument(at: TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"))
    }

    /// The sample positions `NodeCurves` uses: `count` local frames spread evenly over the clip.
    private func localFrames(_ clip: Clip, count: Int) -> [Double] {
        (0..<count).map { max(clip.duration.value, 0) * Double($0) / Double(count - 1) }
    }

    private func inverse(_ m: Matrix2D) -> Matrix2D {
        let det = m.a * m.d - m.b * m.c
        let a = m.d / det, b = -m.b / det, c = -m.c / det, d = m.a / det
        return Matrix2D(a: a, b: b, c: c, d: d, tx: -(a * m.tx + c * m.ty), ty: -(b * m.tx + d * m.ty))
    }

    func testNestedCurvesRebuildThePosesOfThePoseSampler() throws {
        var checked = 0, gaps = 0
        for sample in ["animate-walker", "flump-hopbot", "bta-spinner"] {
            let document = try document(sample)
            let sampler = PoseSampler(document: document)
            for clip in document.clips {
                let all = NodeCurves.make(document: document, clip: clip)
                let nested = all.filter { $0.nesting != nil }
                if clip.composition == document.clips.first?.composition && sample != "bta-spinner" {
                    XCTAssertFalse(nested.isEmpty, "\(sample) \(clip.name): no nested node graphed")
                }
                for curves in nested {
                    let nesting = try XCTUnwrap(curves.nesting)
                    let marker = ">" + nesting.composition + "/"
                    let split = try XCTUnwrap(curves.id.range(of: marker, options: .backwards))
                    let instancePath = String(curves.id[..<split.lowerBound])
                    let nodeID = String(curves.id[split.upperBound...])
                    let composition = try XCTUnwrap(document.composition(nesting.composition))
                    let node = try XCTUnwrap(composition.nodes.first { $0.id == nodeID })
                    // Parent-free, non-skeleton nodes: their world transform is the instance's times their own.
                    guard node.parent == nil, node.kind != .bone else { continue }
                    let frames = localFrames(clip, count: nesting.frames.count)
                    func value(_ name: String, _ index: Int) -> Double? {
                        curves.curves.first { $0.name == name }?.values[index]
                    }
                    for index in stride(from: 0, to: frames.count, by: max(1, frames.count / 25)) {
                        let pose = sampler.sample(clip: clip, time: Frames(frames[index]), collectNodes: true)
                        let states = Dictionary(pose.nodes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
                        let context = "\(sample) \(clip.name) \(curves.id) sample \(index)"
                        guard let instance = states[instancePath], let own = states[curves.id],
                            case .composition(let shown) = instance.content, shown.composition == nesting.composition
                        else {
                            XCTAssertNil(nesting.frames[index], "\(context): a value where the instance is not shown")
                            gaps += 1
                            continue
                        }
                        let childFrame = try XCTUnwrap(instance.childFrame)
                        XCTAssertEqual(try XCTUnwrap(nesting.frames[index], context), childFrame, accuracy: 1e-5, context)
                        let tracks = node.tracks
                        let at = Frames(childFrame)
                        let expected = TransformComponents(
                            position: Vector2(x: value("position.x", index) ?? 0, y: value("position.y", index) ?? 0),
                            scale: Vector2(x: value("scale.x", index) ?? 1, y: value("scale.y", index) ?? 1),
                            rotation: Degrees(value("rotation", index) ?? 0),
                            skew: tracks.skew?.value(at: at) ?? Degrees(0),
                            pivot: tracks.pivot?.heldValue(at: at) ?? .zero).matrix
                        let local = inverse(instance.transform).concatenating(own.transform)
                        for (name, a, e) in [("a", local.a, expected.a), ("b", local.b, expected.b), ("c", local.c, expected.c),
                                             ("d", local.d, expected.d), ("tx", local.tx, expected.tx), ("ty", local.ty, expected.ty)] {
                            XCTAssertEqual(a, e, accuracy: 1e-3 * max(1, abs(e)), "\(context): \(name)")
                        }
                        if let opacity = value("opacity", index), tracks.color == nil, instance.color.alphaMultiplier > 0 {
                            XCTAssertEqual(own.color.alphaMultiplier / instance.color.alphaMultiplier, opacity,
                                           accuracy: 1e-4, "\(context): opacity")
                        }
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "too few samples compared (\(checked), \(gaps) gaps)")
    }

    /// Flump's nested movies keep their own clock (Samples/README.md): in `robot:wave` the 9-frame antenna shows
    /// `(clip start + t − appearance) mod 9`, the documented loop formula, and the curve follows that frame.
    func testOwnClockMovieInALaterClipStartsWhereItsClockIs() throws {
        let document = try document("flump-hopbot")
        let clip = try XCTUnwrap(document.clip(named: "robot:wave"))
        XCTAssertGreaterThan(clip.start.value, 0)
        let stick = try XCTUnwrap(NodeCurves.make(document: document, clip: clip).first {
            $0.nesting?.composition == "antenna" && $0.isAnimated
        })
        let nesting = try XCTUnwrap(stick.nesting)
        let root = try XCTUnwrap(document.composition(clip.composition))
        func shown(_ content: NodeContent) -> CompositionInstance? {
            if case .composition(let instance) = content { return instance }
            return nil
        }
        let holder = try XCTUnwrap(root.nodes.first { node in
            node.tracks.content?.keyframes.contains { shown($0.value)?.composition == "antenna" } ?? false
        })
        let key = try XCTUnwrap(holder.tracks.content?.keyframes.first { shown($0.value)?.composition == "antenna" })
        let instance = try XCTUnwrap(shown(key.value))
        XCTAssertEqual(instance.clock, .independent)
        let length = try XCTUnwrap(document.composition("antenna")).duration.value
        let frames = localFrames(clip, count: nesting.frames.count)
        for (index, local) in frames.enumerated() where local < clip.duration.value - 1e-6 {
            let age = clip.start.value + local - key.frame.value
            let expected = (instance.firstFrame.value + age).truncatingRemainder(dividingBy: length)
            XCTAssertEqual(try XCTUnwrap(nesting.frames[index]), expected, accuracy: 1e-5, "sample \(index)")
        }
        // And the rotation curve is the antenna track at that frame.
        let node = try XCTUnwrap(document.composition("antenna")?.nodes.first { stick.id.hasSuffix("/" + $0.id) })
        let rotation = try XCTUnwrap(stick.curves.first { $0.name == "rotation" })
        for index in [0, 7, 19, 33] where index < frames.count {
            let expected = try XCTUnwrap(node.tracks.rotation?.value(at: Frames(nesting.frames[index]!))).value
            XCTAssertEqual(try XCTUnwrap(rotation.values[index]), expected, accuracy: 1e-5)
        }
    }

    /// Keyframes are marked where the nested playhead passes them: forwards, across a loop's wrap, and backwards.
    func testKeyframeMarksFollowTheNestedPlayhead() {
        let times = [0.0, 1, 2, 3, 4, 5]
        let keys: [(frame: Double, value: Double, segment: NodeCurves.Segment)] = [(0, 10, .linear), (2, 20, .hold)]
        let forward = NodeCurves.keyCrossings(keys, frames: [0, 1, 2, 3, 0, 1], times: times, length: 4)
        XCTAssertEqual(forward.map(\.seconds), [0, 2, 4])
        XCTAssertEqual(forward.map(\.value), [10, 20, 10])
        XCTAssertEqual(forward.map(\.segment), [.linear, .hold, .linear], "each mark says how its keyframe's segment eases")
        let halfSteps = NodeCurves.keyCrossings(keys, frames: [1.5, 2.5, 3.5, 0.5, nil, 2], times: times, length: 4)
        XCTAssertEqual(halfSteps.map(\.seconds), [0.5, 2.5, 5], "crossings interpolated; reappearing on a key marks it")
        let backward = NodeCurves.keyCrossings(keys, frames: [3, 2, 1, 0, 3, 2], times: times, length: 4)
        XCTAssertEqual(backward.map(\.seconds), [1, 3, 5])
        XCTAssertTrue(NodeCurves.keyCrossings(keys, frames: [1, 1, 1], times: [0, 1, 2], length: 4).isEmpty, "a hold")
    }
}
