import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeJSON
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// The model's easing survives the Lottie export where Lottie can say it: a cubic Bézier ease is two keyframes with
/// the ease as `o`/`i` handles, Flash's and Flump's quadratics their exact cubic, holds `h: 1`; the file then matches
/// the pose between frames too (where a sampled-and-reduced file would interpolate linearly), and rlottie plays it
/// like `keyframe render`.
final class LottieEasingTests: XCTestCase {
    /// A 12 × 8 picture with a gradient, so any misplacement shows in rlottie's frames.
    private static func library(_ document: Document) -> AtlasLibrary {
        var pixels: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<16 { pixels += [UInt8(x * 16), UInt8(y * 16), 200, 255] }
        }
        return AtlasLibrary(document: document,
                            bitmaps: ["atlas": Bitmap(width: 16, height: 16, straightRGBA: pixels)!])
    }

    private static func document(position: [Keyframe<Vector2>], rotation: [Keyframe<Degrees>],
                                 scale: [Keyframe<Vector2>], opacity: [Keyframe<Double>], parent: Bool,
                                 start: Double, duration: Double) -> Document {
        let sprite = Sprite(id: "box", name: "box", image: "atlas", region: Rect(x: 2, y: 3, width: 12, height: 8),
                            rotated: false, origin: Vector2(x: -6, y: -4), size: Size(width: 12, height: 8))
        var t = NodeTracks()
        t.content = Track(constant: .sprite("box"))
        t.pivot = Track(constant: Vector2(x: 2, y: -1))
        t.position = Track(position)
        t.rotation = Track(rotation)
        t.scale = Track(scale)
        t.opacity = Track(opacity)
        var nodes = [Node(id: "box", name: "box", kind: .layer, parent: parent ? "group" : nil, tracks: t)]
        if parent {
            var group = NodeTracks()
            group.position = Track(constant: Vector2(x: 20, y: 10))
            group.rotation = Track([Keyframe(frame: Frames(0), value: Degrees(0), easing: .linear),
                                    Keyframe(frame: Frames(30), value: Degrees(20))])
            nodes.insert(Node(id: "group", name: "group", kind: .layer, tracks: group), at: 0)
        }
        return Document(name: "eases", frameRate: FrameRate(24), stage: Rect(x: 0, y: 0, width: 160, height: 120),
                        source: Provenance(format: .animateAtlas),
                        assets: Assets(images: [AtlasImage(id: "atlas", path: "atlas.png",
                                                           pixelSize: Size(width: 16, height: 16))],
                                       sprites: [sprite]),
                        compositions: [Composition(id: "main", name: "main", duration: Frames(30), nodes: nodes)],
                        root: "main",
                        clips: [Clip(name: "cut", composition: "main", start: Frames(start), duration: Frames(duration),
                                     loopCount: 0)])
    }

    /// One segment of each exactly expressible easing on one layer.
    private static let simple = document(
        position: [Keyframe(frame: Frames(0), value: Vector2(x: 30, y: 20),
                            easing: .cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)),
                   Keyframe(frame: Frames(20), value: Vector2(x: 120, y: 90))],
        rotation: [Keyframe(frame: Frames(0), value: Degrees(-30), easing: .flashQuadratic(strength: 0.5)),
                   Keyframe(frame: Frames(20), value: Degrees(60))],
        scale: [Keyframe(frame: Frames(0), value: Vector2(x: 1, y: 2), easing: .linear),
                Keyframe(frame: Frames(20), value: Vector2(x: 3, y: 0.5))],
        opacity: [Keyframe(frame: Frames(0), value: 1, easing: .hold), Keyframe(frame: Frames(10), value: 0.5)],
        parent: false, start: 0, duration: 21)

    private func export(_ document: Document, profile: LottieExportSettings.Profile) throws -> [UInt8] {
        var options = ExportOptions()
        options.lottie.profile = profile
        let result = try LottieExporter().exportWithReports(document, library: Self.library(document),
                                                           clips: document.clips, options: options).result
        return result.clips[0].main.bytes
    }

    func testEasesAreWrittenAsHandlesAtTheSourceKeyframes() throws {
        for profile in LottieExportSettings.Profile.allCases {
            let root = try JSONParser.parse(try export(Self.simple, profile: profile))
            let layer = try XCTUnwrap(root["layers"]?.arrayValue?.first { $0["ty"]?.doubleValue == 2 })
            let ks = try XCTUnwrap(layer["ks"])
            func keys(_ name: String) throws -> [JSONValue] {
                try XCTUnwrap(ks[name]?["k"]?.arrayValue, "\(name) is not animated [\(profile)]")
            }
            func numbers(_ v: JSONValue?) -> [Double] { v?.arrayValue?.compactMap(\.doubleValue) ?? [] }
            // Position: the cubic Bézier, exactly two keys.
            let p = try keys("p")
            XCTAssertEqual(p.count, 2, "[\(profile)] position keys")
            XCTAssertEqual(p.map { $0["t"]?.doubleValue }, [0, 20])
            XCTAssertEqual(numbers(p[0]["o"]?["x"]), [0.42, 0.42])
            XCTAssertEqual(numbers(p[0]["o"]?["y"]), [0, 0])
            XCTAssertEqual(numbers(p[0]["i"]?["x"]), [0.58, 0.58])
            XCTAssertEqual(numbers(p[0]["i"]?["y"]), [1, 1])
            // Anchor = pivot minus the picture's origin; position the track's value (the stage framing adds none).
            XCTAssertEqual(numbers(ks["a"]?["k"]), [8, 3])
            XCTAssertEqual(numbers(p[0]["s"]), [30, 20])
            XCTAssertEqual(numbers(p[1]["s"]), [120, 90])
            // Rotation: Flash's quadratic with strength 0.5 as the cubic (1/3, 0.5), (2/3, 5/6), in degrees.
            let r = try keys("r")
            XCTAssertEqual(r.count, 2, "[\(profile)] rotation keys")
            XCTAssertEqual(numbers(r[0]["s"]), [-30])
            XCTAssertEqual(numbers(r[1]["s"]), [60])
            XCTAssertEqual(numbers(r[0]["o"]?["x"]).first ?? 0, 1.0 / 3, accuracy: 1e-9)
            XCTAssertEqual(numbers(r[0]["o"]?["y"]).first ?? 0, 0.5, accuracy: 1e-9)
            XCTAssertEqual(numbers(r[0]["i"]?["x"]).first ?? 0, 2.0 / 3, accuracy: 1e-9)
            XCTAssertEqual(numbers(r[0]["i"]?["y"]).first ?? 0, 5.0 / 6, accuracy: 1e-9)
            // Scale: linear, in percent.
            let s = try keys("s")
            XCTAssertEqual(s.count, 2, "[\(profile)] scale keys")
            XCTAssertEqual(numbers(s[0]["s"]), [100, 200])
            XCTAssertEqual(numbers(s[1]["s"]), [300, 50])
            XCTAssertEqual(numbers(s[0]["o"]?["x"]), [0, 0])
            XCTAssertEqual(numbers(s[0]["i"]?["y"]), [1, 1])
            // Opacity: a hold, then the new value.
            let o = try keys("o")
            XCTAssertEqual(o.count, 2, "[\(profile)] opacity keys")
            XCTAssertEqual(o[0]["h"]?.doubleValue, 1)
            XCTAssertEqual(numbers(o[1]["s"]), [50])
            XCTAssertEqual(o[1]["t"]?.doubleValue, 10)
        }
    }

    /// Every easing the model has that Lottie can express (Flash quadratic, cubic Bézier, hold, a multi-piece Bézier
    /// path, Flump quadratic, linear), a parent that turns, and a clip starting inside the first segment (the cut
    /// piece of the curve): the file matches the pose every quarter frame, between frames included.
    func testTheFileMatchesThePoseBetweenFrames() throws {
        let path: [Vector2] = [Vector2(x: 0, y: 0), Vector2(x: 0.1, y: 0.3), Vector2(x: 0.2, y: 0.5),
                               Vector2(x: 0.4, y: 0.6), Vector2(x: 0.6, y: 0.7), Vector2(x: 0.9, y: 0.8),
                               Vector2(x: 1, y: 1)]
        let rich = Self.document(
            position: [
                Keyframe(frame: Frames(0), value: Vector2(x: 0, y: 0), easing: .flashQuadratic(strength: 0.7)),
                Keyframe(frame: Frames(6), value: Vector2(x: 40, y: 10),
                         easing: .cubicBezier(x1: 0.1, y1: 0.8, x2: 0.3, y2: 1.2)),
                Keyframe(frame: Frames(12), value: Vector2(x: 10, y: 60), easing: .hold),
                Keyframe(frame: Frames(15), value: Vector2(x: 30, y: 30),
                         easing: .bezierPath(points: path, sampledSteps: nil)),
                Keyframe(frame: Frames(20), value: Vector2(x: 80, y: 0), easing: .flumpQuadratic(ease: -0.6)),
                Keyframe(frame: Frames(26), value: Vector2(x: 0, y: 40), easing: .linear),
                Keyframe(frame: Frames(30), value: Vector2(x: 5, y: 5)),
            ],
            rotation: [Keyframe(frame: Frames(0), value: Degrees(-30), easing: .flashQuadratic(strength: -1)),
                       Keyframe(frame: Frames(30), value: Degrees(400))],
            scale: [Keyframe(frame: Frames(0), value: Vector2(x: 1, y: 2),
                             easing: .cubicBezier(x1: 0.6, y1: -0.4, x2: 0.4, y2: 1.4)),
                    Keyframe(frame: Frames(30), value: Vector2(x: -2, y: 0.5))],
            opacity: [Keyframe(frame: Frames(0), value: 1, easing: .linear), Keyframe(frame: Frames(10), value: 0.5),
                      Keyframe(frame: Frames(20), value: 0.25)],
            parent: true, start: 3, duration: 25)
        for document in [Self.simple, rich] {
            for profile in LottieExportSettings.Profile.allCases {
                let lottie = try LottieTestSampler(json: try export(document, profile: profile))
                let clip = document.clips[0]
                let sampler = PoseSampler(document: document)
                let sprite = document.assets.sprites[0]
                var worst = 0.0
                for quarter in 0...(4 * (Int(clip.duration.value) - 1)) {
                    let t = Double(quarter) / 4
                    let items = sampler.sample(clip: clip, time: Frames(t)).items
                    let drawn = try lottie.drawn(at: t)
                    XCTAssertEqual(drawn.count, items.count, "frame \(t)")
                    guard let item = items.first, let shown = drawn.first,
                        let picture = shown.layer.refID.flatMap({ lottie.images[$0] })
                    else { continue }
                    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                        let a = shown.world.apply(Vector2(x: u * picture.width, y: v * picture.height))
                        let b = item.transform.apply(Vector2(x: u * sprite.size.width, y: v * sprite.size.height))
                        worst = max(worst, hypot(a.x - b.x, a.y - b.y))
                    }
                    XCTAssertEqual(shown.opacity, item.color.alphaMultiplier, accuracy: 0.1 / 255,
                                   "[\(profile)] opacity at \(t)")
                }
                XCTAssertLessThanOrEqual(worst, LottieTolerance.corner, "[\(profile)] worst corner error")
            }
        }
        // The rich clip's eases are all exact: no property was sampled.
        var options = ExportOptions()
        options.lottie.profile = .full
        let report = try LottieExporter().exportWithReports(rich, library: Self.library(rich), clips: rich.clips,
                                                           options: options).reports["cut"]
        // Box: p, s, r and o; group: p, s, r (the anchor is the constant pivot, not counted).
        XCTAssertEqual(report?.sourceKeyedProperties, 7)
    }

    /// A picture skewed (animated skew, turned, scaled unevenly, mirrored in y at the end), inside a turning parent.
    private static let skewed: Document = {
        var made = LottieEasingTests.document(
            position: [Keyframe(frame: Frames(0), value: Vector2(x: 50, y: 40), easing: .linear),
                       Keyframe(frame: Frames(20), value: Vector2(x: 90, y: 60))],
            rotation: [Keyframe(frame: Frames(0), value: Degrees(20), easing: .linear),
                       Keyframe(frame: Frames(20), value: Degrees(-40))],
            scale: [Keyframe(frame: Frames(0), value: Vector2(x: 4, y: 3), easing: .linear),
                    Keyframe(frame: Frames(20), value: Vector2(x: 2.5, y: -3.5))],
            opacity: [Keyframe(frame: Frames(0), value: 1)], parent: true, start: 0, duration: 21)
        made.compositions[0].nodes[1].tracks.skew = Track([
            Keyframe(frame: Frames(0), value: Degrees(0), easing: .linear), Keyframe(frame: Frames(20), value: Degrees(50))])
        return made
    }()

    /// `full` writes skew as Lottie's own `sk` on one layer (no R·S·R null), and the independent reader, which
    /// evaluates `sk`/`sa` as the specification orders them, matches the pose at every frame.
    func testFullProfileWritesSkewAsSk() throws {
        let bytes = try export(Self.skewed, profile: .full)
        let root = try JSONParser.parse(bytes)
        let layers = root["layers"]?.arrayValue ?? []
        XCTAssertFalse(layers.contains { $0["nm"]?.stringValue?.hasSuffix("(skew)") == true }, "an R·S·R null in full")
        let image = try XCTUnwrap(layers.first { $0["ty"]?.doubleValue == 2 })
        XCTAssertEqual(image["ks"]?["sk"]?["a"]?.doubleValue, 1, "sk is not animated")
        let portable = try JSONParser.parse(try export(Self.skewed, profile: .portable))
        XCTAssertTrue((portable["layers"]?.arrayValue ?? []).contains { $0["nm"]?.stringValue?.hasSuffix("(skew)") == true },
                      "portable keeps the R·S·R rewrite")
        let lottie = try LottieTestSampler(json: bytes)
        let sampler = PoseSampler(document: Self.skewed)
        let sprite = Self.skewed.assets.sprites[0]
        var worst = 0.0
        for frame in 0..<21 {
            let item = try XCTUnwrap(sampler.sample(clip: Self.skewed.clips[0], time: Frames(Double(frame))).items.first)
            let shown = try XCTUnwrap(try lottie.drawn(at: Double(frame)).first)
            let picture = try XCTUnwrap(shown.layer.refID.flatMap { lottie.images[$0] })
            for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                let a = shown.world.apply(Vector2(x: u * picture.width, y: v * picture.height))
                let b = item.transform.apply(Vector2(x: u * sprite.size.width, y: v * sprite.size.height))
                worst = max(worst, hypot(a.x - b.x, a.y - b.y))
            }
        }
        XCTAssertLessThanOrEqual(worst, LottieTolerance.corner)
    }

    /// A constant skew keeps the source's keys in `full`: `sk` is static, the eases stay handles, and the file
    /// matches the pose every quarter frame; `portable` samples the skewed node (R·S·R) and still matches at frames.
    func testConstantSkewKeepsTheSourceKeysInFull() throws {
        var document = Self.simple
        document.compositions[0].nodes[0].tracks.skew = Track(constant: Degrees(25))
        let root = try JSONParser.parse(try export(document, profile: .full))
        let layer = try XCTUnwrap(root["layers"]?.arrayValue?.first { $0["ty"]?.doubleValue == 2 })
        XCTAssertEqual(layer["ks"]?["sk"]?["k"]?.doubleValue, 25)
        XCTAssertEqual(layer["ks"]?["p"]?["k"]?.arrayValue?.count, 2, "the cubic ease is no longer two keys")
        for profile in LottieExportSettings.Profile.allCases {
            let lottie = try LottieTestSampler(json: try export(document, profile: profile))
            let sampler = PoseSampler(document: document)
            let sprite = document.assets.sprites[0]
            var worst = 0.0
            // `portable` samples the skewed node per frame: exact at frames only.
            let step = profile == .full ? 0.25 : 1
            for t in stride(from: 0.0, through: 20, by: step) {
                let item = try XCTUnwrap(sampler.sample(clip: document.clips[0], time: Frames(t)).items.first)
                let shown = try XCTUnwrap(try lottie.drawn(at: t).first)
                let picture = try XCTUnwrap(shown.layer.refID.flatMap { lottie.images[$0] })
                for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                    let a = shown.world.apply(Vector2(x: u * picture.width, y: v * picture.height))
                    let b = item.transform.apply(Vector2(x: u * sprite.size.width, y: v * sprite.size.height))
                    worst = max(worst, hypot(a.x - b.x, a.y - b.y))
                }
            }
            XCTAssertLessThanOrEqual(worst, LottieTolerance.corner, "[\(profile)]")
        }
    }

    /// ThorVG (which plays `sk`/`sa`) shows the `full` file's skew as it shows the `portable` file's R·S·R rewrite of
    /// the same matrices, frame by frame; the same file with every `sk` negated does not (the check can fail).
    func testThorVGPlaysSkLikeTheRotateScaleRotateRewrite() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-thorvg-skew")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = Array(0..<21)
        func render(_ bytes: [UInt8], _ name: String) throws -> [Bitmap] {
            let url = folder.appendingPathComponent(name + ".json")
            try Data(bytes).write(to: url)
            return try ThorVGPlayer.render(url, frames: frames).bitmaps
        }
        let full = try export(Self.skewed, profile: .full)
        let withSk = try render(full, "full")
        let rewritten = try render(try export(Self.skewed, profile: .portable), "portable")
        // The control: every sk negated.
        func negated(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(var object):
                if let sk = object["sk"], case .object(var property) = sk, let k = property["k"] {
                    property["k"] = Self.negatedNumbers(k)
                    object["sk"] = .object(property)
                }
                return .object(object.mapValues(negated))
            case .array(let items): return .array(items.map(negated))
            default: return value
            }
        }
        let wrong = try render(JSONWriter.write(negated(try JSONParser.parse(full))), "negated")
        var worst = 0.0, control = 0.0
        for index in frames.indices {
            worst = max(worst, FrameDifference(withSk[index], rewritten[index]).worstMean)
            control = max(control, FrameDifference(wrong[index], rewritten[index]).worstMean)
        }
        print(String(format: "ThorVG sk vs R·S·R: worst channel mean %.3f; with sk negated %.3f", worst, control))
        XCTAssertLessThanOrEqual(worst, 1.0)
        XCTAssertGreaterThan(control, 4 * max(worst, 0.25), "negating sk should move the picture")
    }

    /// `s` and the `s` of every keyframe with their numbers negated.
    private static func negatedNumbers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let n): return .number(-n)
        case .array(let items): return .array(items.map(negatedNumbers))
        case .object(var object):
            if let s = object["s"] { object["s"] = negatedNumbers(s) }
            return .object(object)
        default: return value
        }
    }

    /// The files with handles, holds, cut Bézier pieces and `sk`/`sa` satisfy the Lottie specification's schema.
    func testEasedAndSkewedExportsValidateAgainstTheLottieSchema() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-eases-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, document) in [("eases", Self.simple), ("skewed", Self.skewed)] {
            for profile in LottieExportSettings.Profile.allCases {
                let url = folder.appendingPathComponent("\(name)-\(profile).json")
                try Data(try export(document, profile: profile)).write(to: url)
                paths.append(url.path)
            }
        }
        let (status, output) = try LottieSchemaValidator.run(paths)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output.components(separatedBy: ": valid").count - 1, paths.count, output)
    }

    /// rlottie evaluates the handles as the model does: the eased sample plays the same in rlottie as in
    /// `keyframe render`, every frame.
    func testRLottiePlaysTheEasesLikeKeyframeRender() throws {
        let comparison = RLottieConformanceTests(name: "eases", testClosure: { _ in })
        let figures = try comparison.conformance(
            of: Self.simple, library: Self.library(Self.simple), name: "eases", profile: .portable,
            frameLimit: RLottieConformanceTests.frameLimit)
        print("rlottie conformance (eases):\n" + figures.line)
        XCTAssertEqual(figures.failures, [])
        XCTAssertEqual(figures.frames, 21)
    }
}
