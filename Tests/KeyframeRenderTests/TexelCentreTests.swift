import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Where a texel's centre lands (docs/raster.md, "Sampling convention"): an Animate export whose 5 × 5 sprite has
/// a 1-pixel feature at texel (2, 2), placed by the matrices Animate writes, rendered through the whole pipeline.
/// Texel (i, j) covers the sprite-space square [i, i+1) × [j, j+1), so its centre is at (i + ½, j + ½) and lands
/// on M·(i + ½, j + ½); device pixel (x, y) is the square [x, x+1) × [y, y+1). The other convention (texel centres
/// at integers, i.e. a half-texel shift) predicts a different position in every check below.
final class TexelCentreTests: XCTestCase {
    /// Renders the sprite with the `M3D` translation and scale given; returns the 40 × 40 frame.
    func render(scale: Double, tx: Double, ty: Double) throws -> Bitmap {
        let animation = AnimateFixture.animation(frames:
            #"[{"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":[\#(scale),0,0,0,0,\#(scale),0,0,0,0,1,0,\#(tx),\#(ty),0,1]}}]}]"#)
        let spritemap = #"{"ATLAS":{"SPRITES":[{"SPRITE":{"name":"0000","x":1,"y":1,"w":5,"h":5,"rotated":false}}]},"meta":{"app":"Adobe Animate","version":"21.0.0","image":"spritemap1.png","format":"RGBA8888","size":{"w":8,"h":8},"resolution":"1"}}"#
        let fixture = try AnimateFixture(animation: animation, spritemap: spritemap, png: false)
        addTeardownBlock { try? FileManager.default.removeItem(at: fixture.folder) }
        // Opaque blue texels with one white texel at sprite texel (2, 2) = atlas (3, 3); the atlas border around
        // the sprite is opaque green, which must never show (samples are clamped to the region).
        let png = StoredPNG.make(width: 8, height: 8) { x, y in
            if x == 3 && y == 3 { return (255, 255, 255, 255) }
            return (1...5).contains(x) && (1...5).contains(y) ? (0, 0, 255, 255) : (0, 255, 0, 255)
        }
        try Data(png).write(to: fixture.folder.appendingPathComponent("spritemap1.png"))
        let document = try Importer.importDocument(at: fixture.folder)
        let scene = try RenderScene(document: document, assetsFolder: fixture.folder)
        let pose = scene.sampler.sample(clip: document.clips[0], time: .zero)
        var frame = Bitmap(width: 0, height: 0)
        var renderer = FrameRenderer()
        renderer.render(pose, library: scene.library, framing: Framing(scene: Rect(x: 0, y: 0, width: 40, height: 40), size: nil),
                        background: .transparent, into: &frame)
        return frame
    }

    /// The red-weighted mean of pixel centres along row `y` (the feature's centroid), and the summed red.
    func centroid(_ frame: Bitmap, row y: Int) -> (x: Double, red: Double) {
        var sum = 0.0, weighted = 0.0
        for x in 0..<frame.width {
            let r = Double(frame.pixel(x: x, y: y).r)
            sum += r
            weighted += r * (Double(x) + 0.5)
        }
        return (weighted / max(sum, 1), sum)
    }

    func testIntegerTranslationReproducesEveryTexel() throws {
        let frame = try render(scale: 1, tx: 10, ty: 10)
        for y in 0..<40 {
            for x in 0..<40 {
                let inside = (10..<15).contains(x) && (10..<15).contains(y)
                let expected: PremultipliedPixel = !inside ? PremultipliedPixel(r: 0, g: 0, b: 0, a: 0)
                    : (x == 12 && y == 12 ? PremultipliedPixel(r: 255, g: 255, b: 255, a: 255)
                        : PremultipliedPixel(r: 0, g: 0, b: 255, a: 255))
                XCTAssertEqual(frame.pixel(x: x, y: y), expected, "(\(x), \(y))")
            }
        }
    }

    func testHalfPixelTranslationSplitsTheFeatureAndKeepsTheArea() throws {
        let frame = try render(scale: 1, tx: 10.5, ty: 10)
        // Texel centre 2.5 lands on 13.0: the 1-pixel feature covers half of device pixels 12 and 13.
        let (x, red) = centroid(frame, row: 12)
        XCTAssertEqual(x, 13.0, accuracy: 0.01)
        XCTAssertEqual(red, 255, accuracy: 2)
        XCTAssertEqual(Int(frame.pixel(x: 12, y: 12).r), 128, accuracy: 1)
        XCTAssertEqual(Int(frame.pixel(x: 13, y: 12).r), 128, accuracy: 1)
        // Exact-area edges: the half-covered edge columns carry half alpha, so the total ink is the sprite's area.
        var alpha = 0
        for y in 0..<40 { for x in 0..<40 { alpha += Int(frame.pixel(x: x, y: y).a) } }
        XCTAssertEqual(Double(alpha), 25 * 255, accuracy: 5 * 2)
        XCTAssertEqual(Int(frame.pixel(x: 10, y: 11).a), 128, accuracy: 1)
        XCTAssertEqual(Int(frame.pixel(x: 15, y: 11).a), 128, accuracy: 1)
    }

    func testMagnifiedFeatureIsCentredOnItsTexelCentre() throws {
        let frame = try render(scale: 2, tx: 10, ty: 10)
        // Texel (2, 2) covers device [14, 16) × [14, 16); its centre lands on (15, 15).
        let (x, _) = centroid(frame, row: 14)
        XCTAssertEqual(x, 15.0, accuracy: 0.01)
        let (x2, _) = centroid(frame, row: 15)
        XCTAssertEqual(x2, 15.0, accuracy: 0.01)
        XCTAssertEqual(frame.pixel(x: 9, y: 12).a, 0)
        XCTAssertEqual(frame.pixel(x: 20, y: 12).a, 0)
        XCTAssertEqual(frame.pixel(x: 10, y: 12).a, 255)
        XCTAssertEqual(frame.pixel(x: 19, y: 12).a, 255)
        // No atlas green bleeds in at the magnified edge.
        for y in 10..<20 { for x in 10..<20 { XCTAssertEqual(frame.pixel(x: x, y: y).g, frame.pixel(x: x, y: y).r, "(\(x), \(y))") } }
    }

    /// What Animate's own matrices say: every atlas sprite it places at unit scale without rotation sits at a
    /// whole-pixel translation (213 of 213 in the corpus). Texels cover [i, i+1) squares whose corners Animate
    /// snaps to the pixel grid; under a texel-centre-at-integer convention those placements would all be half a
    /// pixel off the grid and every one of those sprites would be drawn blurred.
    func testAnimatePlacesUnscaledSpritesOnWholePixels() throws {
        let folders = try TestPaths.corpus("animate_atlas")
        var unit = 0, whole = 0
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    if key == "ASI", let asi = child as? [String: Any], let m = asi["M3D"] as? [Double], m.count == 16,
                        abs(m[0] - 1) < 1e-6, abs(m[5] - 1) < 1e-6, abs(m[1]) < 1e-6, abs(m[4]) < 1e-6
                    {
                        unit += 1
                        if m[12] == m[12].rounded() && m[13] == m[13].rounded() { whole += 1 }
                    }
                    walk(child)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        for folder in folders {
            guard var data = try? Data(contentsOf: folder.appendingPathComponent("Animation.json")) else { continue }
            if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
            walk(try JSONSerialization.jsonObject(with: data))
        }
        XCTAssertGreaterThan(unit, 100)
        XCTAssertEqual(whole, unit, "unit-scale sprite placements off the pixel grid")
    }
}
