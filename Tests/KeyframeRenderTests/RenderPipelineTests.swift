import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// End-to-end spot checks: a small Animate export whose atlas and placements are known, imported and rendered,
/// with the expected pixel of each position worked out by hand from the matrices and the atlas layout.
final class RenderPipelineTests: XCTestCase {
    static let red = RGBAColor(r: 255, g: 0, b: 0)
    static let green = RGBAColor(r: 0, g: 255, b: 0)
    static let blue = RGBAColor(r: 0, g: 0, b: 255)
    static let white = RGBAColor(r: 255, g: 255, b: 255)
    static let yellow = RGBAColor(r: 255, g: 255, b: 0)
    static let cyan = RGBAColor(r: 0, g: 255, b: 255)

    /// A 12×8 atlas: sprite "0000" at (0, 0, 8, 8) with red/green/blue/white quadrants (TL/TR/BL/BR); sprite
    /// "0001" at (8, 0, 2, 4) stored rotated: its upright picture is 4 wide × 2 tall, yellow on the left half and
    /// cyan on the right. Stored turned 90° clockwise, upright column u becomes atlas row u, so atlas rows 0–1 of
    /// the region are yellow and rows 2–3 cyan.
    static func atlas() -> Bitmap {
        var bitmap = Bitmap(width: 12, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                let color = y < 4 ? (x < 4 ? red : green) : (x < 4 ? blue : white)
                bitmap.setPixel(x: x, y: y, color.premultiplied)
            }
        }
        for y in 0..<4 {
            for x in 8..<10 { bitmap.setPixel(x: x, y: y, (y < 2 ? yellow : cyan).premultiplied) }
        }
        return bitmap
    }

    static let spritemap = """
        {"ATLAS":{"SPRITES":[
        {"SPRITE":{"name":"0000","x":0,"y":0,"w":8,"h":8,"rotated":false}},
        {"SPRITE":{"name":"0001","x":8,"y":0,"w":2,"h":4,"rotated":true}}]},
        "meta":{"app":"Adobe Animate","version":"21.0.0","image":"spritemap1.png","format":"RGBA8888",
        "size":{"w":12,"h":8},"resolution":"1"}}
        """

    /// `ASI` of `name` with matrix (a, b, c, d, tx, ty).
    static func sprite(_ name: String, _ m: (Double, Double, Double, Double, Double, Double)) -> String {
        #"{"ASI":{"N":"\#(name)","M3D":[\#(m.0),\#(m.1),0,0,\#(m.2),\#(m.3),0,0,0,0,1,0,\#(m.4),\#(m.5),0,1]}}"#
    }

    func render(elements: [String], scene: Rect) throws -> Bitmap {
        let frames = #"[{"I":0,"DU":1,"E":[\#(elements.joined(separator: ","))]}]"#
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames),
                                         spritemap: Self.spritemap, png: false)
        var encoder = PNGEncoder()
        try encoder.write(Self.atlas(), to: fixture.folder.appendingPathComponent("spritemap1.png").path)
        let document = try Importer.importDocument(at: fixture.folder)
        let renderScene = try RenderScene(document: document, assetsFolder: fixture.folder)
        let clip = try XCTUnwrap(document.clips.first)
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: 24, selection: .all)
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        renderer.render(plans[0], scenes: [renderScene], framing: Framing(scene: scene, size: nil),
                        background: .transparent, into: &frame)
        return frame
    }

    func assertPixel(_ frame: Bitmap, _ x: Int, _ y: Int, _ expected: RGBAColor?, file: StaticString = #filePath,
                     line: UInt = #line) {
        let p = frame.pixel(x: x, y: y)
        let want = expected?.premultiplied ?? PremultipliedPixel(r: 0, g: 0, b: 0, a: 0)
        let worst = max(abs(Int(p.r) - Int(want.r)), abs(Int(p.g) - Int(want.g)), abs(Int(p.b) - Int(want.b)),
                        abs(Int(p.a) - Int(want.a)))
        XCTAssertLessThanOrEqual(worst, 2, "pixel (\(x), \(y)) is \(p), expected \(want)", file: file, line: line)
    }

    func testTranslatedSpriteLandsAtItsMatrix() throws {
        // T(20, 10): the 8×8 picture covers x 20–28, y 10–18.
        let frame = try render(elements: [Self.sprite("0000", (1, 0, 0, 1, 20, 10))],
                               scene: Rect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertEqual(frame.width, 40)
        XCTAssertEqual(frame.height, 30)
        assertPixel(frame, 21, 11, Self.red)
        assertPixel(frame, 26, 11, Self.green)
        assertPixel(frame, 21, 16, Self.blue)
        assertPixel(frame, 26, 16, Self.white)
        assertPixel(frame, 19, 11, nil)
        assertPixel(frame, 28, 17, nil)
        assertPixel(frame, 27, 18, nil)
    }

    func testRotatedInstance() throws {
        // a=0 b=1 c=−1 d=0, T(30, 10): local (x, y) → (30 − y, 10 + x). Red (x, y < 4) → x 26–30, y 10–14;
        // green (x ≥ 4, y < 4) → x 26–30, y 14–18; blue (x < 4, y ≥ 4) → x 22–26, y 10–14.
        let frame = try render(elements: [Self.sprite("0000", (0, 1, -1, 0, 30, 10))],
                               scene: Rect(x: 0, y: 0, width: 40, height: 30))
        assertPixel(frame, 28, 12, Self.red)
        assertPixel(frame, 28, 16, Self.green)
        assertPixel(frame, 23, 12, Self.blue)
        assertPixel(frame, 23, 16, Self.white)
        assertPixel(frame, 31, 12, nil)
    }

    func testScaledInstanceAndSceneOffset() throws {
        // S(2, 3) then T(−10, −20); the scene starts at (−12, −22), so root (x, y) is pixel (x + 12, y + 22).
        // Red covers root x −10…−2, y −20…−8 → pixels 2–10, 2–14; white covers root x −2…6, y −8…4 → 10–18, 14–26.
        // Magnified texels blend within half a texel of a quadrant edge, so the probes keep away from them.
        let frame = try render(elements: [Self.sprite("0000", (2, 0, 0, 3, -10, -20))],
                               scene: Rect(x: -12, y: -22, width: 32, height: 32))
        assertPixel(frame, 3, 3, Self.red)
        assertPixel(frame, 7, 11, Self.red)
        assertPixel(frame, 11, 3, Self.green)
        assertPixel(frame, 3, 17, Self.blue)
        assertPixel(frame, 17, 25, Self.white)
        assertPixel(frame, 1, 3, nil)
        assertPixel(frame, 19, 25, nil)
    }

    func testRotatedAtlasRegionIsDrawnUpright() throws {
        // Sprite 0001 upright is 4 × 2: yellow for u < 2, cyan for u ≥ 2. At T(5, 6) it covers x 5–9, y 6–8.
        let frame = try render(elements: [Self.sprite("0001", (1, 0, 0, 1, 5, 6))],
                               scene: Rect(x: 0, y: 0, width: 12, height: 10))
        assertPixel(frame, 5, 6, Self.yellow)
        assertPixel(frame, 6, 7, Self.yellow)
        assertPixel(frame, 7, 6, Self.cyan)
        assertPixel(frame, 8, 7, Self.cyan)
        assertPixel(frame, 9, 6, nil)
        assertPixel(frame, 5, 8, nil)
    }

    func testSizeScalesSceneToFitAndCentres() throws {
        // A 40×20 scene in 80×80: scale 2, centred vertically (20 px bands above and below).
        let framing = Framing(scene: Rect(x: 0, y: 0, width: 40, height: 20), size: (80, 80))
        XCTAssertEqual(framing.width, 80)
        XCTAssertEqual(framing.height, 80)
        let p = framing.rootToDevice.apply(SIMD2(40, 20))
        XCTAssertEqual(p.x, 80, accuracy: 1e-9)
        XCTAssertEqual(p.y, 60, accuracy: 1e-9)
        let frame = try render(elements: [Self.sprite("0000", (1, 0, 0, 1, 0, 0))],
                               scene: Rect(x: 0, y: 0, width: 8, height: 8))
        XCTAssertEqual(frame.width, 8)
    }
}
