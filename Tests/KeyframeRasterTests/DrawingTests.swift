import KeyframeRaster
import XCTest

/// Solid fills, textured sprites, meshes and seams, with hand-computed expected pixels.
final class DrawingTests: XCTestCase {
    let red = RGBAColor(r: 255, g: 0, b: 0)
    let blue = RGBAColor(r: 0, g: 0, b: 255)

    func testSolidFillWritesExactCoverageAsAlpha() {
        var target = Bitmap(width: 6, height: 6)
        var r = Rasterizer()
        r.fill(rect: 1.5, 1.5, 3, 3, color: red, into: &target)
        assertPixel(target, 2, 2, PremultipliedPixel(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
        assertPixel(target, 1, 2, PremultipliedPixel(r: 128, g: 0, b: 0, a: 128))  // half covered
        assertPixel(target, 1, 1, PremultipliedPixel(r: 64, g: 0, b: 0, a: 64))  // quarter covered
        assertPixel(target, 0, 0, PremultipliedPixel(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
    }

    func testOpacityHalvesSourceOverWhite() {
        var target = solidBitmap(2, 2, .white)
        var r = Rasterizer()
        r.fill(rect: 0, 0, 2, 2, color: red, paint: Paint(opacity: 0.5), into: &target)
        // 255·0.5 + 255·0.5 = 255 red; 0·0.5 + 255·0.5 ≈ 127.5 green/blue.
        assertPixel(target, 0, 0, PremultipliedPixel(r: 255, g: 128, b: 128, a: 255))
    }

    func testIntegerPlacedSpriteCopiesTexelsExactly() {
        let atlas = makeAtlas()
        var target = Bitmap(width: 12, height: 12)
        var r = Rasterizer()
        r.draw(atlas, region: PixelRect(x: 1, y: 1, width: 3, height: 2), transform: .translation(5, 7), into: &target)
        for y in 0..<2 {
            for x in 0..<3 {
                XCTAssertEqual(target.pixel(x: 5 + x, y: 7 + y), atlas.pixel(x: 1 + x, y: 1 + y))
            }
        }
        XCTAssertEqual(target.pixel(x: 4, y: 7).a, 0)
        XCTAssertEqual(target.pixel(x: 8, y: 7).a, 0)
    }

    func testRotatedSpriteLandsWhereTheMatrixSays() {
        // Rotating by 90° maps pixel centres onto texel centres, so sampling is exact.
        let atlas = makeAtlas()
        var target = Bitmap(width: 16, height: 16)
        var r = Rasterizer()
        let m = Affine.translation(10, 2).concatenating(.rotation(.pi / 2))
        r.draw(atlas, region: PixelRect(x: 0, y: 0, width: 4, height: 3), transform: m, into: &target)
        for v in 0..<3 {
            for u in 0..<4 {
                // Local texel centre (u+0.5, v+0.5) → device (10 − v − 0.5, 2 + u + 0.5).
                let p = m.apply(SIMD2(Double(u) + 0.5, Double(v) + 0.5))
                let dx = Int(p.x.rounded(.down))
                let dy = Int(p.y.rounded(.down))
                XCTAssertEqual(target.pixel(x: dx, y: dy), atlas.pixel(x: u, y: v), "texel \(u),\(v)")
            }
        }
    }

    func testBilinearSamplingInterpolatesBetweenTexelCentres() {
        // Two texels, black and white; scaled ×4 horizontally the ramp crosses between centres.
        var atlas = Bitmap(width: 2, height: 1)
        atlas.setPixel(x: 0, y: 0, PremultipliedPixel(r: 0, g: 0, b: 0, a: 255))
        atlas.setPixel(x: 1, y: 0, PremultipliedPixel(r: 255, g: 255, b: 255, a: 255))
        var target = Bitmap(width: 8, height: 1)
        var r = Rasterizer()
        r.draw(atlas, transform: .scale(4, 1), into: &target)
        // Device centre x+0.5 → texel coordinate (x+0.5)/4; weight of texel 1 = clamp((x+0.5)/4 − 0.5, 0, 1).
        for x in 0..<8 {
            let t = min(max((Double(x) + 0.5) / 4 - 0.5, 0), 1)
            let expected = UInt8((255 * t).rounded())
            assertPixel(target, x, 0, PremultipliedPixel(r: expected, g: expected, b: expected, a: 255), tolerance: 1)
        }
    }

    func testAtlasNeighboursDoNotBleedIntoARegion() {
        var atlas = solidBitmap(8, 8, blue)
        for y in 2..<6 { for x in 2..<6 { atlas.setPixel(x: x, y: y, red.premultiplied) } }
        var target = Bitmap(width: 40, height: 40)
        var r = Rasterizer()
        let m = Affine.translation(20, 3).concatenating(.rotation(0.4)).concatenating(.scale(5.3, 4.1))
        r.draw(atlas, region: PixelRect(x: 2, y: 2, width: 4, height: 4), transform: m, into: &target)
        for y in 0..<40 {
            for x in 0..<40 { XCTAssertEqual(target.pixel(x: x, y: y).b, 0, "blue leaked at \(x),\(y)") }
        }
    }

    func testMeshTrianglesSharingAnEdgeLeaveNoSeam() {
        let texture = solidBitmap(4, 4, red)
        var target = solidBitmap(16, 16, blue)
        var r = Rasterizer()
        let quad = [SIMD2(2.3, 2.3), SIMD2(12.7, 2.9), SIMD2(13.1, 12.6), SIMD2(1.9, 12.2)]
        let uv = [SIMD2(0.0, 0), SIMD2(4.0, 0), SIMD2(4.0, 4), SIMD2(0.0, 4)]
        r.drawTriangles(texture, vertices: quad, textureCoordinates: uv, indices: [0, 1, 2, 0, 2, 3], into: &target)
        var checked = 0
        for y in 0..<16 {
            for x in 0..<16 where referenceCoverage(quad, x, y) > 1 - 1e-9 {
                XCTAssertEqual(target.pixel(x: x, y: y), red.premultiplied, "seam at \(x),\(y)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 60)
        // Boundary pixels blend by the union's coverage.
        for y in 0..<16 {
            for x in 0..<16 {
                let c = referenceCoverage(quad, x, y)
                let expected = PremultipliedPixel(r: UInt8((255 * c).rounded()), g: 0, b: UInt8((255 * (1 - c)).rounded()), a: 255)
                assertPixel(target, x, y, expected, tolerance: 2)
            }
        }
    }

    func testMeshMapsTextureCoordinatesPerTriangle() {
        let atlas = makeAtlas()
        var viaMesh = Bitmap(width: 16, height: 16)
        var viaQuad = Bitmap(width: 16, height: 16)
        var r = Rasterizer()
        let m = Affine.translation(3.2, 1.7).concatenating(.rotation(0.3)).concatenating(.scale(2.5, 3))
        let local = [SIMD2(0.0, 0), SIMD2(4.0, 0), SIMD2(4.0, 3), SIMD2(0.0, 3)]
        r.drawTriangles(atlas, region: PixelRect(x: 0, y: 0, width: 4, height: 3), vertices: local,
                        textureCoordinates: local, indices: [0, 1, 2, 0, 2, 3], transform: m, into: &viaMesh)
        r.draw(atlas, region: PixelRect(x: 0, y: 0, width: 4, height: 3), transform: m, into: &viaQuad)
        assertBitmapsMatch(viaMesh, viaQuad, tolerance: 2, name: "mesh-vs-quad")
    }

    func testBadInputDrawsNothing() {
        let atlas = makeAtlas()
        var target = solidBitmap(8, 8, blue)
        let before = target
        var r = Rasterizer()
        r.draw(atlas, transform: Affine(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), into: &target)
        r.draw(atlas, transform: .scale(0, 1), into: &target)
        r.draw(atlas, region: PixelRect(x: 50, y: 50, width: 3, height: 3), transform: .identity, into: &target)
        r.draw(atlas, transform: .translation(1e300, 0), into: &target)
        r.drawTriangles(atlas, vertices: [SIMD2(0, 0)], textureCoordinates: [SIMD2(0, 0)], indices: [0, 5, 9], into: &target)
        r.fill(polygon: [SIMD2(0, 0), SIMD2(.infinity, 3), SIMD2(2, 5)], color: red, into: &target)
        var empty = Bitmap(width: 0, height: 0)
        r.draw(atlas, transform: .identity, into: &empty)
        r.composite(atlas, x: -100, y: 0, into: &target)
        XCTAssertEqual(target, before)
    }

    func testHugeScaleDownAndUpStayInBounds() {
        let atlas = makeAtlas()
        var target = Bitmap(width: 32, height: 32)
        var r = Rasterizer()
        r.draw(atlas, transform: .scale(1e-7, 1e-7), into: &target)
        r.draw(atlas, transform: Affine.translation(-2e5, -1.4e5).concatenating(.scale(1e5, 1e5)), into: &target)
        XCTAssertEqual(target.pixel(x: 16, y: 16).a, 255)
    }

    func testBitmapClearAndResizeReuseStorage() {
        var b = Bitmap(width: 64, height: 64)
        b.clear(to: red)
        XCTAssertEqual(b.pixel(x: 63, y: 63), red.premultiplied)
        b.resize(width: 32, height: 16)
        XCTAssertEqual(b.pixels.count, 32 * 16 * 4)
        XCTAssertEqual(b.pixel(x: 31, y: 15).a, 0)
        let straight = RGBAColor(r: 200, g: 100, b: 50, a: 128)
        let round = Bitmap(width: 1, height: 1, straightRGBA: [200, 100, 50, 128])!
        XCTAssertEqual(round.pixel(x: 0, y: 0), straight.premultiplied)
        // Premultiplying loses precision at partial alpha: 200·128/255 → 100 → 100·255/128 ≈ 199.
        XCTAssertEqual(round.straightRGBA(), [199, 100, 50, 128])
    }

    /// 4×3 atlas, every texel a distinct opaque colour.
    func makeAtlas() -> Bitmap {
        var atlas = Bitmap(width: 4, height: 3)
        for y in 0..<3 {
            for x in 0..<4 {
                atlas.setPixel(x: x, y: y, PremultipliedPixel(r: UInt8(x * 60), g: UInt8(y * 100), b: UInt8(30 + x * y * 20), a: 255))
            }
        }
        return atlas
    }
}
