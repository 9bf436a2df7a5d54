import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Nested timelines in every loop mode and clock, built in code: each maps onto layer timing or is flattened with a
/// diagnostic, and in every case the Core Animation model matches the sampler at every frame.
final class CoreAnimationTimingTests: XCTestCase {
    /// A 4-frame child moving a sprite 0 → 30 px, shown from frame `start` of a 20-frame parent that itself moves.
    private func document(loop: LoopMode, clock: CompositionClock, first: Double, start: Double,
                          parentLoop: LoopMode? = nil) -> Document {
        let sprite = Sprite(id: "dot", name: "dot", image: "atlas", region: Rect(x: 0, y: 0, width: 4, height: 4),
                            rotated: false, origin: Vector2(x: -2, y: -2), size: Size(width: 4, height: 4))
        var dotTracks = NodeTracks()
        dotTracks.content = Track(constant: .sprite("dot"))
        dotTracks.position = Track([Keyframe(frame: Frames(0), value: Vector2(x: 0, y: 0), easing: .linear),
                                    Keyframe(frame: Frames(3), value: Vector2(x: 30, y: 5))])
        let child = Composition(id: "child", name: "child", duration: Frames(4),
                                nodes: [Node(id: "dot", name: "dot", kind: .layer, tracks: dotTracks)])
        var holderTracks = NodeTracks()
        holderTracks.content = Track([
            Keyframe(frame: Frames(0), value: NodeContent.none),
            Keyframe(frame: Frames(start), value: .composition(CompositionInstance(
                composition: "child", firstFrame: Frames(first), loop: loop, clock: clock))),
        ])
        holderTracks.rotation = Track([Keyframe(frame: Frames(0), value: Degrees(0), easing: .linear),
                                       Keyframe(frame: Frames(19), value: Degrees(90))])
        var compositions = [child, Composition(id: "middle", name: "middle", duration: Frames(20),
                                               nodes: [Node(id: "holder", name: "holder", kind: .layer, tracks: holderTracks)])]
        var root = "middle"
        if let parentLoop {
            // The middle composition nested once more, in a 6-frame window of a 30-frame root.
            var outer = NodeTracks()
            outer.content = Track(constant: .composition(CompositionInstance(
                composition: "middle", firstFrame: Frames(2), loop: parentLoop, clock: .parent)))
            outer.position = Track(constant: Vector2(x: 100, y: 50))
            compositions.append(Composition(id: "outer", name: "outer", duration: Frames(30),
                                            nodes: [Node(id: "o", name: "o", kind: .layer, tracks: outer)]))
            compositions[1].duration = Frames(6)
            root = "outer"
        }
        let clipLength = Double(root == "outer" ? 30 : 20)
        return Document(name: "timing", frameRate: FrameRate(24), source: Provenance(format: .animateAtlas),
                        assets: Assets(images: [AtlasImage(id: "atlas", path: "atlas.png", pixelSize: Size(width: 8, height: 8))],
                                       sprites: [sprite]),
                        compositions: compositions, root: root,
                        clips: [Clip(name: "all", composition: root, start: Frames(0), duration: Frames(clipLength), loopCount: 0)])
    }

    private func check(_ document: Document, flattened: Bool, _ label: String) throws {
        let folder = try TestPaths.temporaryFolder("ca-timing")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("atlas.png"))
        let result = try CoreAnimationExporter().export(document, assetsFolder: folder, options: ExportOptions())
        let tree = try CALayerTreeFile.decode(result.clips[0].main.bytes)
        XCTAssertEqual(CALayerTreeValidator.problems(in: tree), [], label)
        let figures = CoreAnimationConformance.compare(tree, clip: document.clips[0], document: document,
                                                       sampler: PoseSampler(document: document), name: label)
        XCTAssertEqual(figures.failures, [], label)
        XCTAssertGreaterThan(figures.sprites, 10, label)
        XCTAssertEqual(result.diagnostics.contains { $0.code == "ca-timeline-flattened" }, flattened,
                       "\(label): \(result.diagnostics)")
    }

    func testForwardModesBecomeLayerTiming() throws {
        for clock in CompositionClock.allCases {
            try check(document(loop: .loop, clock: clock, first: 1, start: 3), flattened: false, "loop \(clock)")
            try check(document(loop: .playOnce, clock: clock, first: 1, start: 5), flattened: false, "playOnce \(clock)")
            try check(document(loop: .singleFrame, clock: clock, first: 2, start: 5), flattened: false, "singleFrame \(clock)")
        }
    }

    func testReverseModesAreFlattenedWithADiagnostic() throws {
        try check(document(loop: .loopReverse, clock: .parent, first: 2, start: 3), flattened: true, "loopReverse")
        try check(document(loop: .playOnceReverse, clock: .parent, first: 3, start: 3), flattened: true, "playOnceReverse")
    }

    /// A looping middle composition restarts its nested span on every pass: the span's timeline cannot be the
    /// parent layer's time plus an offset, so it is flattened; a play-once parent keeps the hierarchy.
    func testSpansRestartedByALoopingParentAreFlattened() throws {
        try check(document(loop: .loop, clock: .parent, first: 0, start: 1, parentLoop: .loop), flattened: true,
                  "loop in a looping parent")
        try check(document(loop: .loop, clock: .independent, first: 0, start: 1, parentLoop: .playOnce),
                  flattened: true, "movie clip in a play-once parent that stops")
    }

    /// Alpha multiplied beyond 1 (possible in a colour transform) is clamped, as Core Animation would, and said.
    func testOpacityOutsideTheUnitRangeIsClampedWithAWarning() throws {
        var document = document(loop: .loop, clock: .parent, first: 0, start: 3)
        document.compositions[0].nodes[0].tracks.opacity = Track(constant: 1.5)
        let folder = try TestPaths.temporaryFolder("ca-opacity")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.appendingPathComponent("atlas.png"))
        let result = try CoreAnimationExporter().export(document, assetsFolder: folder, options: ExportOptions())
        XCTAssertTrue(result.diagnostics.contains { $0.code == "ca-opacity-range" && $0.severity == .warning })
        let tree = try CALayerTreeFile.decode(result.clips[0].main.bytes)
        XCTAssertEqual(CALayerTreeValidator.problems(in: tree), [])
        let drawn = CALayerTreePlayer(document: tree).draw(at: 5.0 / 24)
        XCTAssertEqual(drawn.first?.opacity ?? 0, 1, accuracy: 1e-12)
    }
}
