import Foundation
import KeyframeEngine
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Each filter Keyframe draws, rendered through the whole pipeline (document → pose sampler → filter group →
/// renderer), against an independent computation of the same definition in NumPy floating point
/// (`Fixtures/filter_reference.py`, written from raster.md's definitions and Flash's AdjustColor, not from the
/// renderer's code) over a known sprite: a soft-edged, colour-graded blob.
///
/// Pass: mean difference ≤ 1/255 over every channel of the frame, and no channel off by more than a few levels (the
/// renderer stores each blur pass in 8 bits; a glow's strength multiplies that rounding). Each case also checks that
/// the filter changes the picture far more than that, and that the same frame moved by one pixel fails. Measured:
/// means 0.002–0.04 levels, largest differences 0.5–2.7 levels.
final class FilterReferenceTests: XCTestCase {
    static let canvas = (width: 168, height: 140)
    static let place = (x: 64, y: 54)
    static let sprite = (width: 40, height: 32)

    /// The known sprite: an ellipse with a soft rim, red to blue across, green down, straight alpha 255 inside.
    static func blob() -> Bitmap {
        let (w, h) = sprite
        var straight = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let nx = (Double(x) + 0.5 - Double(w) / 2) / (Double(w) / 2 - 1)
                let ny = (Double(y) + 0.5 - Double(h) / 2) / (Double(h) / 2 - 1)
                let d = (nx * nx + ny * ny).squareRoot()
                let alpha = min(1, max(0, (1 - d) * 6))
                let i = (y * w + x) * 4
                straight[i] = UInt8(40 + 200 * x / (w - 1))
                straight[i + 1] = UInt8(30 + 180 * y / (h - 1))
                straight[i + 2] = UInt8(230 - 190 * x / (w - 1))
                straight[i + 3] = UInt8((alpha * 255).rounded())
            }
        }
        return Bitmap(width: w, height: h, straightRGBA: straight)!
    }

    /// A document whose root shows the blob through a nested composition at `place`, the instance carrying
    /// `filters` (and `transform`, about the blob's top-left).
    static func document(_ filters: [Filter], scale: Double = 1) -> Document {
        var inner = NodeTracks()
        inner.position = Track(constant: .zero)
        inner.content = Track(constant: .sprite("blob"))
        var outer = NodeTracks()
        outer.position = Track(constant: Vector2(x: Double(place.x), y: Double(place.y)))
        if scale != 1 { outer.scale = Track(constant: Vector2(x: scale, y: scale)) }
        outer.content = Track(constant: .composition(CompositionInstance(composition: "inner")))
        if !filters.isEmpty { outer.filters = Track(constant: filters) }
        return Document(
            name: "filters", frameRate: FrameRate(24), source: Provenance(format: .keyframe),
            assets: Assets(
                images: [AtlasImage(id: "atlas", path: "atlas.png",
                                    pixelSize: Size(width: Double(sprite.width), height: Double(sprite.height)))],
                sprites: [Sprite(id: "blob", name: "blob", image: "atlas",
                                 region: Rect(x: 0, y: 0, width: Double(sprite.width), height: Double(sprite.height)),
                                 rotated: false, origin: .zero,
                                 size: Size(width: Double(sprite.width), height: Double(sprite.height)))]),
            compositions: [
                Composition(id: "root", name: "root", duration: Frames(1),
                            nodes: [Node(id: "n", name: "n", kind: .instance, tracks: outer)]),
                Composition(id: "inner", name: "inner", duration: Frames(1),
                            nodes: [Node(id: "s", name: "s", kind: .instance, tracks: inner)]),
            ],
            root: "root", clips: [Clip(name: "c", composition: "root", start: .zero, duration: Frames(1), loopCount: 0)])
    }

    /// The frame Keyframe renders, at `zoom` device pixels per document pixel.
    static func render(_ document: Document, zoom: Double = 1) -> Bitmap {
        let library = AtlasLibrary(document: document, bitmaps: ["atlas": blob()])
        let pose = PoseSampler(document: document).sample(clip: document.clips[0], time: .zero)
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        let framing = Framing(scene: Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)),
                              size: (Int(Double(canvas.width) * zoom), Int(Double(canvas.height) * zoom)))
        renderer.render(pose, library: library, framing: framing, background: .transparent, into: &frame)
        return frame
    }

    /// The blob placed on the canvas, byte for byte, without the renderer.
    static func placedBlob() -> Bitmap {
        var canvasBitmap = Bitmap(width: canvas.width, height: canvas.height)
        let picture = blob()
        for y in 0..<sprite.height {
            for x in 0..<sprite.width {
                let s = (y * sprite.width + x) * 4, d = ((y + place.y) * canvas.width + x + place.x) * 4
                for c in 0..<4 { canvasBitmap.pixels[d + c] = picture.pixels[s + c] }
            }
        }
        return canvasBitmap
    }

    /// The NumPy result of `filters` (in canvas pixels, as filter_reference.py takes them) over `picture`.
    static func reference(_ picture: Bitmap, _ filters: [[String: Any]]) throws -> [Float] {
        let folder = try TestPaths.temporaryFolder("filter-reference")
        let input = folder.appendingPathComponent("picture.raw"), output = folder.appendingPathComponent("out.raw")
        try Data(picture.pixels).write(to: input)
        let spec: [String: Any] = ["width": picture.width, "height": picture.height, "picture": input.path,
                                   "filters": filters]
        let specURL = folder.appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specURL)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/filter_reference.py")
        let run = try CommandRun.run(["python3", script.path, specURL.path, output.path])
        if run.output.contains("No module named 'numpy'") { throw XCTSkip("NumPy is not installed") }
        XCTAssertEqual(run.status, 0, run.output)
        let data = try Data(contentsOf: output)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Mean and largest difference between a bitmap and a float picture, shifted by (`dx`, 0).
    static func difference(_ frame: Bitmap, _ reference: [Float], dx: Int = 0) -> (mean: Double, max: Double) {
        var total = 0.0, largest = 0.0
        let w = frame.width, h = frame.height
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    let sx = x - dx
                    let ours = sx >= 0 && sx < w ? Double(frame.pixels[(y * w + sx) * 4 + c]) : 0
                    let d = abs(ours - Double(reference[(y * w + x) * 4 + c]))
                    total += d
                    largest = max(largest, d)
                }
            }
        }
        return (total / Double(w * h * 4), largest)
    }

    /// Renders `filter` through Keyframe and compares with the reference of `parameters`.
    func check(_ name: String, _ filters: [Filter], _ parameters: [[String: Any]], maximum: Double = 4,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let frame = Self.render(Self.document(filters))
        let picture = Self.placedBlob()
        XCTAssertEqual(Self.render(Self.document([])), picture, "the unfiltered frame is the blob, texel for texel",
                       file: file, line: line)
        let reference = try Self.reference(picture, parameters)
        let result = Self.difference(frame, reference)
        let effect = Self.difference(picture, reference)
        let moved = Self.difference(frame, reference, dx: 1)
        print("FILTER \(name): mean \(result.mean) max \(result.max); effect mean \(effect.mean); moved 1 px: mean \(moved.mean) max \(moved.max)")
        XCTAssertLessThanOrEqual(result.mean, 1, "\(name): mean difference", file: file, line: line)
        XCTAssertLessThanOrEqual(result.max, maximum, "\(name): largest difference", file: file, line: line)
        XCTAssertTrue(effect.mean > 10 * result.mean && effect.max > 5 * maximum,
                      "\(name): the filter changes too little to test (\(effect))", file: file, line: line)
        XCTAssertTrue(moved.mean > 1 || moved.max > maximum, "\(name): a 1 px misplacement would pass",
                      file: file, line: line)
    }

    static func blur(_ x: Double, _ y: Double, _ q: Int) -> FilterEffect.Blur {
        FilterEffect.Blur(blurX: x, blurY: y, quality: q)
    }

    func testBlurAgainstReference() throws {
        for (x, y, q) in [(9.0, 9.0, 1), (9.0, 9.0, 3), (6.5, 14.25, 2), (20.0, 1.0, 1), (0.5, 4.0, 3)] {
            try check("blur \(x)×\(y) q\(q)", [Filter(.blur(Self.blur(x, y, q)))],
                      [["kind": "blur", "blurX": x, "blurY": y, "quality": q]])
        }
    }

    func glowParameters(_ glow: FilterEffect.Glow, kind: String, offset: (Int, Int) = (0, 0)) -> [String: Any] {
        ["kind": kind, "blurX": glow.blur.blurX, "blurY": glow.blur.blurY, "quality": glow.blur.quality,
         "color": [Int(glow.red), Int(glow.green), Int(glow.blue)], "alpha": glow.alpha, "strength": glow.strength,
         "inner": glow.inner, "knockout": glow.knockout, "hideObject": glow.hideObject,
         "offsetX": offset.0, "offsetY": offset.1]
    }

    func testGlowAgainstReference() throws {
        let cases: [(String, FilterEffect.Glow)] = [
            ("outer", .init(blur: Self.blur(10, 10, 3), red: 255, green: 200, blue: 0, alpha: 1, strength: 2,
                            inner: false, knockout: false)),
            ("outer soft", .init(blur: Self.blur(16, 7, 2), red: 60, green: 220, blue: 255, alpha: 0.6, strength: 1,
                                 inner: false, knockout: false)),
            ("outer knockout", .init(blur: Self.blur(8, 8, 1), red: 255, green: 0, blue: 128, alpha: 1, strength: 3,
                                     inner: false, knockout: true)),
            ("inner", .init(blur: Self.blur(12, 12, 3), red: 255, green: 255, blue: 255, alpha: 0.9, strength: 2,
                            inner: true, knockout: false)),
            ("inner knockout", .init(blur: Self.blur(6, 10, 2), red: 0, green: 80, blue: 255, alpha: 1, strength: 1.5,
                                     inner: true, knockout: true)),
        ]
        for (name, glow) in cases {
            try check("glow \(name)", [Filter(.glow(glow))], [glowParameters(glow, kind: "glow")])
        }
    }

    func testDropShadowAgainstReference() throws {
        func shadow(_ distance: Double, _ angle: Double, inner: Bool = false, knockout: Bool = false,
                    hide: Bool = false) -> FilterEffect.Glow {
            FilterEffect.Glow(blur: Self.blur(8, 8, 2), red: 20, green: 0, blue: 60, alpha: 0.8, strength: 1.5,
                              inner: inner, knockout: knockout, distance: distance, angle: angle, hideObject: hide)
        }
        let cases: [(String, FilterEffect.Glow)] = [
            ("45°", shadow(8, 45)), ("200°", shadow(11, 200)), ("hide object", shadow(6, 90, hide: true)),
            ("knockout", shadow(6, 30, knockout: true)), ("inner", shadow(7, 45, inner: true)),
            ("inner knockout", shadow(5, 135, inner: true, knockout: true)),
        ]
        for (name, glow) in cases {
            let radians = glow.angle * .pi / 180
            let offset = (Int((glow.distance * cos(radians)).rounded()), Int((glow.distance * sin(radians)).rounded()))
            try check("drop shadow \(name)", [Filter(.dropShadow(glow))],
                      [glowParameters(glow, kind: "dropShadow", offset: offset)])
        }
    }

    func testAdjustColorAgainstReference() throws {
        for (b, c, s, h) in [(30.0, 0.0, 0.0, 0.0), (0.0, 45.5, 0.0, 0.0), (0.0, -60.0, 0.0, 0.0),
                             (0.0, 0.0, 70.0, 0.0), (0.0, 0.0, -100.0, 0.0), (0.0, 0.0, 0.0, 120.0),
                             (-27.0, 18.0, 9.0, -8.0)] {
            let adjust = FilterEffect.AdjustColor(brightness: b, contrast: c, saturation: s, hue: h)
            try check("adjust colour \(b) \(c) \(s) \(h)", [Filter(.adjustColor(adjust))],
                      [["kind": "adjustColor", "brightness": b, "contrast": c, "saturation": s, "hue": h]],
                      maximum: 2)
        }
    }

    /// Filters run in order: a glow of the blurred picture, then colour adjusted.
    func testChainedFiltersAgainstReference() throws {
        let glow = FilterEffect.Glow(blur: Self.blur(8, 8, 2), red: 255, green: 255, blue: 0, alpha: 1, strength: 2,
                                     inner: false, knockout: false)
        let adjust = FilterEffect.AdjustColor(brightness: -20, contrast: 30, saturation: -40, hue: 60)
        try check("blur, glow, adjust colour",
                  [Filter(.blur(Self.blur(5, 5, 1))), Filter(.glow(glow)), Filter(.adjustColor(adjust))],
                  [["kind": "blur", "blurX": 5.0, "blurY": 5.0, "quality": 1], glowParameters(glow, kind: "glow"),
                   ["kind": "adjustColor", "brightness": -20.0, "contrast": 30.0, "saturation": -40.0, "hue": 60.0]])
    }

    /// Values beyond Flash's ranges are clamped to them (blur 0…255, quality 0…15, strength 0…255, alpha 0…1), never
    /// fatal: an absurd filter draws what the largest valid one draws (at a small zoom, so the test stays quick).
    func testAbsurdValuesAreClampedToFlashsRanges() throws {
        func glow(_ blur: Double, _ quality: Int, _ strength: Double, _ alpha: Double, distance: Double) -> Filter {
            Filter(.dropShadow(FilterEffect.Glow(blur: Self.blur(blur, blur, quality), red: 0, green: 90, blue: 200,
                                                 alpha: alpha, strength: strength, inner: false, knockout: false,
                                                 distance: distance, angle: 30)))
        }
        let absurd = Self.render(Self.document([glow(1e300, 1_000_000, 1e9, 7, distance: 40),
                                                Filter(.blur(Self.blur(-5, .greatestFiniteMagnitude, -3)))]), zoom: 0.05)
        let largest = Self.render(Self.document([glow(255, 15, 255, 1, distance: 40),
                                                 Filter(.blur(Self.blur(0, 255, 0)))]), zoom: 0.05)
        XCTAssertEqual(absurd, largest)
        XCTAssertGreaterThan(largest.pixels.reduce(0) { $0 + Int($1) }, 1000, "something is drawn")
        let negative = Self.render(Self.document([glow(8, 2, -4, -1, distance: 5)]))
        XCTAssertEqual(negative, Self.placedBlob(), "strength and alpha below 0 are 0: no shadow")
    }

    /// Filters are in stage pixels: zooming the view (rendering at twice the size) doubles the blur and the shadow's
    /// offset; scaling the filtered object itself changes neither (Flash).
    func testFiltersScaleWithTheViewNotWithTheObject() throws {
        let shadow = FilterEffect.Glow(blur: Self.blur(6, 6, 2), red: 0, green: 0, blue: 0, alpha: 1, strength: 1,
                                       inner: false, knockout: false, distance: 5, angle: 0)
        let filters = [Filter(.dropShadow(shadow))]
        // Zoomed ×2: the reference filters the unfiltered ×2 frame with blur 12 and offset 10.
        let zoomed = Self.render(Self.document(filters), zoom: 2)
        let zoomedPicture = Self.render(Self.document([]), zoom: 2)
        var doubled = shadow
        doubled.blur = Self.blur(12, 12, 2)
        let zoomedReference = try Self.reference(zoomedPicture, [glowParameters(doubled, kind: "dropShadow",
                                                                                offset: (10, 0))])
        let zoomedResult = Self.difference(zoomed, zoomedReference)
        XCTAssertLessThanOrEqual(zoomedResult.mean, 1, "zoomed: \(zoomedResult)")
        XCTAssertLessThanOrEqual(zoomedResult.max, 4, "zoomed: \(zoomedResult)")
        // The object scaled ×1.5: the reference keeps blur 6 and offset 5.
        let scaled = Self.render(Self.document(filters, scale: 1.5))
        let scaledPicture = Self.render(Self.document([], scale: 1.5))
        let scaledReference = try Self.reference(scaledPicture, [glowParameters(shadow, kind: "dropShadow",
                                                                                offset: (5, 0))])
        let scaledResult = Self.difference(scaled, scaledReference)
        XCTAssertLessThanOrEqual(scaledResult.mean, 1, "object scaled: \(scaledResult)")
        XCTAssertLessThanOrEqual(scaledResult.max, 4, "object scaled: \(scaledResult)")
        let wrongReference = try Self.reference(scaledPicture, [glowParameters(shadow, kind: "dropShadow",
                                                                               offset: (8, 0))])
        XCTAssertGreaterThan(Self.difference(scaled, wrongReference).max, 4, "an offset scaled with the object fails")
    }
}
