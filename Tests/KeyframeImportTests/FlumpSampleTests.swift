import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Facts about Samples/flump-hopbot known from authoring it (Scripts/make-flump-sample.py), checked through the
/// converted document and the pose sampler. The byte-for-byte golden is in SamplesGoldenTests.
final class FlumpSampleTests: XCTestCase {
    private let folder = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")

    private func pose(_ document: Document, _ composition: String, _ frame: Double) -> Pose {
        PoseSampler(document: document).sample(composition: composition, frame: Frames(frame), collectNodes: true)
    }

    func testStructure() throws {
        let document = try Importer.importDocument(at: folder)
        XCTAssertEqual(document.name, "flump-hopbot")
        XCTAssertEqual(document.frameRate.framesPerSecond, 24)
        XCTAssertEqual(document.source.format, .flump)
        XCTAssertEqual(document.source.variant, "json")
        XCTAssertEqual(document.diagnostics.filter { $0.severity == .warning }, [])
        XCTAssertEqual(document.root, "robot")
        XCTAssertEqual(document.compositions.map(\.id), ["robot", "blink", "antenna"])
        XCTAssertEqual(document.compositions.map(\.duration.value), [48, 12, 9])
        XCTAssertEqual(document.clips.map(\.name), ["robot", "robot:hop", "robot:wave", "blink", "antenna"])
        XCTAssertEqual(document.clips.map(\.start.value), [0, 0, 24, 0, 0])
        XCTAssertEqual(document.clips.map(\.duration.value), [48, 24, 24, 12, 9])
        XCTAssertEqual(document.composition("robot")?.nodes.map(\.name),
                       ["shadow", "body", "head", "eyes", "antenna", "sign"])
        // Seven textures at 1×; the 2× group has the same sizes in document pixels.
        let sizes: [String: (Double, Double, Double, Double)] = [
            "body": (36, 40, 18, 40), "head": (32, 26, 16, 26), "blink_flipbook_0": (20, 8, 10, 4),
            "blink_flipbook_9": (20, 8, 10, 4), "antenna_stick": (8, 18, 4, 18), "shadow": (44, 10, 22, 5),
            "sign": (30, 16, 15, 16),
        ]
        for factor in [nil, 2.0] as [Double?] {
            let doc = try Importer.importDocument(at: folder, options: ImportOptions(scaleFactor: factor))
            XCTAssertEqual(doc.assets.images.map(\.path), [factor == nil ? "atlas0.png" : "atlas0@2x.png"])
            XCTAssertEqual(doc.assets.images.first?.resolution, factor ?? 1)
            XCTAssertEqual(doc.assets.sprites.count, 7)
            for sprite in doc.assets.sprites {
                let expected = try XCTUnwrap(sizes[sprite.id], sprite.id)
                XCTAssertEqual(sprite.size, Size(width: expected.0, height: expected.1), sprite.id)
                XCTAssertEqual(sprite.origin, Vector2(x: -expected.2, y: -expected.3), sprite.id)
            }
            XCTAssertEqual(doc.compositions, document.compositions, "the scale factor changes only the assets")
        }
    }

    /// The hop: up 30 px over frames 0–12 with ease −1 (fast start), down with ease 1 (slow start). Half-way up,
    /// p = 0.5 becomes 0.5 + 0.5·0.5 = 0.75; half-way down, 0.5 − 0.5·0.5 = 0.25 of the way back.
    func testHopEases() throws {
        let document = try Importer.importDocument(at: folder)
        for (frame, height) in [(0.0, 0.0), (6, -22.5), (12, -30), (18, -22.5), (24, 0)] {
            let body = try XCTUnwrap(pose(document, "robot", frame).items.first { $0.sprite == "body" })
            let feet = body.transform.apply(Vector2(x: 18, y: 40))
            XCTAssertEqual(feet.x, 0, accuracy: 1e-9, "frame \(frame)")
            XCTAssertEqual(feet.y, height, accuracy: 1e-9, "frame \(frame)")
        }
        let easing = document.composition("robot")?.nodes[1].tracks.position?.keyframes.map(\.easing)
        XCTAssertEqual(easing, [.flumpQuadratic(ease: -1), .flumpQuadratic(ease: 1), .linear, .flumpQuadratic(ease: 0.5), .hold])
    }

    /// While waving the body shears (skewX 0.15 rad, skewY 0) and the head turns −0.2 rad about its neck.
    func testShearAndTilt() throws {
        let document = try Importer.importDocument(at: folder)
        let frame36 = pose(document, "robot", 36)
        let body = try XCTUnwrap(frame36.items.first { $0.sprite == "body" })
        XCTAssertEqual(body.transform.a, 1, accuracy: 1e-12)
        XCTAssertEqual(body.transform.b, 0, accuracy: 1e-12)
        XCTAssertEqual(body.transform.c, -sin(0.15), accuracy: 1e-12)
        XCTAssertEqual(body.transform.d, cos(0.15), accuracy: 1e-12)
        let head = try XCTUnwrap(frame36.items.first { $0.sprite == "head" })
        XCTAssertEqual(atan2(head.transform.b, head.transform.a), -0.2, accuracy: 1e-12)
        let neck = head.transform.apply(Vector2(x: 16, y: 26))
        XCTAssertEqual(neck.x, -3, accuracy: 1e-9)
        XCTAssertEqual(neck.y, -38, accuracy: 1e-9)
    }

    /// The eyes are one "blink" instance on its own clock: closed on its frames 9–11, so at robot frames 9–11 and
    /// 21–23, open again at 12; the antenna sways on its own 9-frame loop.
    func testNestedMoviesRunOnTheirOwnClocks() throws {
        let document = try Importer.importDocument(at: folder)
        let eyes = try XCTUnwrap(document.composition("robot")?.nodes[3].tracks.content)
        XCTAssertEqual(eyes.keyframes.count, 1, "one instance all through")
        for frame in 0..<48 {
            let shown = pose(document, "robot", Double(frame)).items.first { $0.sprite.hasPrefix("blink_flipbook") }?.sprite
            XCTAssertEqual(shown, frame % 12 >= 9 ? "blink_flipbook_9" : "blink_flipbook_0", "frame \(frame)")
        }
        // Antenna frame 2: half-way from −0.25 to 0.25 rad with ease 1 → −0.25 + 0.5·0.25 = −0.125 rad.
        let antenna = try XCTUnwrap(pose(document, "antenna", 2).items.first)
        XCTAssertEqual(atan2(antenna.transform.b, antenna.transform.a), -0.125, accuracy: 1e-12)
        // At robot frame 11 (antenna frame 11 mod 9 = 2) the same angle, on top of the head.
        let onRobot = try XCTUnwrap(pose(document, "robot", 11).items.first { $0.sprite == "antenna_stick" })
        XCTAssertEqual(atan2(onRobot.transform.b, onRobot.transform.a), -0.125, accuracy: 1e-12)
    }

    /// The sign: an empty keyframe until frame 30, shown 30–39, `visible: false` 40–43, shown 44–47.
    func testSignEmptyAndHidden() throws {
        let document = try Importer.importDocument(at: folder)
        for frame in 0..<48 {
            let shown = pose(document, "robot", Double(frame)).items.contains { $0.sprite == "sign" }
            XCTAssertEqual(shown, (30..<40).contains(frame) || (44..<48).contains(frame), "frame \(frame)")
        }
    }
}
