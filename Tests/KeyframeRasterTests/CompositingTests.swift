import KeyframeRaster
import XCTest

/// Colour transforms, blend modes, layers and masks against hand-computed values.
final class CompositingTests: XCTestCase {
    /// One pixel drawn with `paint` from a 1×1 source onto a 1×1 destination.
    private func blendOne(source: RGBAColor, destination: RGBAColor, paint: Paint) -> PremultipliedPixel {
        var target = solidBitmap(1, 1, destination)
        var r = Rasterizer()
        r.draw(solidBitmap(1, 1, source), transform: .identity, paint: paint, into: &target)
        return target.pixel(x: 0, y: 0)
    }

    func testColorTransformAppliesToStraightColourThenPremultiplies() {
        // Straight (200, 100, 50, 128) × (0.5, 1, 1, 1) + (10, 20, −60, 0) = (110, 120, 0, 128).
        let t = PixelColorTransform(redMultiplier: 0.5, redOffset: 10, greenOffset: 20, blueOffset: -60)
        let out = blendOne(source: RGBAColor(r: 200, g: 100, b: 50, a: 128), destination: .transparent,
                           paint: Paint(colorTransform: t))
        let expected = RGBAColor(r: 110, g: 120, b: 0, a: 128).premultiplied
        XCTAssertEqual(Int(out.r), Int(expected.r), accuracy: 1)
        XCTAssertEqual(Int(out.g), Int(expected.g), accuracy: 1)
        XCTAssertEqual(out.b, 0)
        XCTAssertEqual(out.a, 128)
        XCTAssertEqual(t.apply(to: RGBAColor(r: 200, g: 100, b: 50, a: 128)), RGBAColor(r: 110, g: 120, b: 0, a: 128))
    }

    func testColorTransformOffsetsClampAndAlphaOffsetRevealsTransparentPixels() {
        let brighten = PixelColorTransform(redOffset: 100, greenOffset: 100, blueOffset: 100)
        let out = blendOne(source: RGBAColor(r: 200, g: 10, b: 0), destination: .transparent,
                           paint: Paint(colorTransform: brighten))
        XCTAssertEqual(out, PremultipliedPixel(r: 255, g: 110, b: 100, a: 255))
        let reveal = PixelColorTransform(redOffset: 40, alphaOffset: 255)
        let shown = blendOne(source: .transparent, destination: .transparent, paint: Paint(colorTransform: reveal))
        XCTAssertEqual(shown, PremultipliedPixel(r: 40, g: 0, b: 0, a: 255))
    }

    func testTintOnSemiTransparentEdgeKeepsItsAlpha() {
        // Flash tint: full red tint at 100% → colour (255, 0, 0), alpha unchanged.
        let tint = PixelColorTransform(redMultiplier: 0, greenMultiplier: 0, blueMultiplier: 0, redOffset: 255)
        let out = blendOne(source: RGBAColor(r: 20, g: 200, b: 90, a: 64), destination: .transparent,
                           paint: Paint(colorTransform: tint))
        XCTAssertEqual(out, RGBAColor(r: 255, g: 0, b: 0, a: 64).premultiplied)
    }

    func testAlphaMultiplierEqualsOpacity() {
        let a = blendOne(source: RGBAColor(r: 255, g: 0, b: 0), destination: .white,
                         paint: Paint(colorTransform: PixelColorTransform(alphaMultiplier: 0.25)))
        let b = blendOne(source: RGBAColor(r: 255, g: 0, b: 0), destination: .white, paint: Paint(opacity: 0.25))
        XCTAssertEqual(a, b)
        XCTAssertEqual(Int(a.g), 191, accuracy: 1)  // 255 · 0.75
    }

    func testOpaqueBlendModesByHand() {
        let s = RGBAColor(r: 255, g: 128, b: 0)
        let d = RGBAColor(r: 128, g: 128, b: 128)
        func run(_ mode: PixelBlendMode) -> PremultipliedPixel {
            blendOne(source: s, destination: d, paint: Paint(blendMode: mode))
        }
        XCTAssertEqual(run(.normal), PremultipliedPixel(r: 255, g: 128, b: 0, a: 255))
        XCTAssertEqual(run(.add), PremultipliedPixel(r: 255, g: 255, b: 128, a: 255))
        // multiply: 255·128/255 = 128, 128·128/255 ≈ 64.25, 0.
        XCTAssertEqual(run(.multiply), PremultipliedPixel(r: 128, g: 64, b: 0, a: 255))
        // screen: s + d − s·d: 255, 128 + 128 − 64.25 ≈ 192, 128.
        XCTAssertEqual(run(.screen), PremultipliedPixel(r: 255, g: 192, b: 128, a: 255))
    }

    func testTranslucentBlendModesMatchFormulas() {
        let s = RGBAColor(r: 200, g: 100, b: 50, a: 128)
        let d = RGBAColor(r: 100, g: 150, b: 200, a: 200)
        let sp = s.premultiplied
        let dp = d.premultiplied
        func unit(_ v: UInt8) -> Double { Double(v) / 255 }
        let sc = [unit(sp.r), unit(sp.g), unit(sp.b)], dc = [unit(dp.r), unit(dp.g), unit(dp.b)]
        let sa = unit(sp.a), da = unit(dp.a)
        let formulas: [(PixelBlendMode, (Double, Double) -> Double, Double)] = [
            (.normal, { s, d in s + d * (1 - sa) }, sa + da * (1 - sa)),
            (.add, { s, d in min(1, s + d) }, min(1, sa + da)),
            (.multiply, { s, d in s * d + s * (1 - da) + d * (1 - sa) }, sa + da - sa * da),
            (.screen, { s, d in s + d - s * d }, sa + da - sa * da),
        ]
        for (mode, colour, alpha) in formulas {
            let out = blendOne(source: s, destination: d, paint: Paint(blendMode: mode))
            let got = [out.r, out.g, out.b]
            for c in 0..<3 {
                XCTAssertEqual(Double(got[c]), colour(sc[c], dc[c]) * 255, accuracy: 1.5, "\(mode) channel \(c)")
            }
            XCTAssertEqual(Double(out.a), alpha * 255, accuracy: 1.5, "\(mode) alpha")
        }
    }

    /// Flash's other modes on translucent pixels, against the W3C separable formula in floating point
    /// (raster.md, "Blend modes"), over pairs that take both branches of overlay and hard light.
    func testFlashBlendModesMatchFormulas() {
        let pairs = [(RGBAColor(r: 200, g: 100, b: 50, a: 128), RGBAColor(r: 100, g: 150, b: 220, a: 200)),
                     (RGBAColor(r: 30, g: 240, b: 128, a: 255), RGBAColor(r: 250, g: 20, b: 120, a: 90)),
                     (RGBAColor(r: 90, g: 180, b: 10, a: 60), RGBAColor(r: 0, g: 255, b: 200, a: 255))]
        func hard(_ top: Double, _ bottom: Double) -> Double {
            top <= 0.5 ? 2 * top * bottom : 1 - 2 * (1 - top) * (1 - bottom)
        }
        let separable: [(PixelBlendMode, (Double, Double) -> Double)] = [
            (.lighten, { max($0, $1) }), (.darken, { min($0, $1) }), (.difference, { abs($0 - $1) }),
            (.invert, { 1 - $1 }), (.overlay, { hard($1, $0) }), (.hardlight, { hard($0, $1) }),
            (.multiply, { $0 * $1 }),
        ]
        for (s, d) in pairs {
            let sp = s.premultiplied, dp = d.premultiplied
            func unit(_ v: UInt8) -> Double { Double(v) / 255 }
            let sc = [unit(sp.r), unit(sp.g), unit(sp.b)], dc = [unit(dp.r), unit(dp.g), unit(dp.b)]
            let sa = unit(sp.a), da = unit(dp.a)
            func check(_ mode: PixelBlendMode, _ colour: (Int) -> Double, _ alpha: Double) {
                let out = blendOne(source: s, destination: d, paint: Paint(blendMode: mode))
                let got = [out.r, out.g, out.b]
                for c in 0..<3 {
                    XCTAssertEqual(Double(got[c]), colour(c) * 255, accuracy: 1.5, "\(mode) \(s) over \(d), channel \(c)")
                }
                XCTAssertEqual(Double(out.a), alpha * 255, accuracy: 1.5, "\(mode) alpha")
            }
            for (mode, b) in separable {
                check(mode, { c in
                    sc[c] * (1 - da) + dc[c] * (1 - sa) + sa * da * b(sc[c] / sa, dc[c] / da)
                }, sa + da - sa * da)
            }
            check(.subtract, { c in max(0, dc[c] - sc[c]) }, sa + da * (1 - sa))
            check(.alpha, { c in dc[c] * sa }, da * sa)
            check(.erase, { c in dc[c] * (1 - sa) }, da * (1 - sa))
        }
        // A transparent source changes nothing, in every mode (alpha's special case included).
        for mode in PixelBlendMode.allCases {
            let d = RGBAColor(r: 10, g: 200, b: 90, a: 180)
            XCTAssertEqual(blendOne(source: .transparent, destination: d, paint: Paint(blendMode: mode)),
                           d.premultiplied, "\(mode)")
        }
    }

    func testMaskedLayerCompositesOnlyWhereTheMaskIsOpaque() {
        var layer = solidBitmap(8, 4, RGBAColor(r: 255, g: 0, b: 0))
        var mask = Bitmap(width: 8, height: 4)
        var r = Rasterizer()
        r.fill(rect: 0, 0, 4, 4, color: .white, into: &mask)
        r.fill(rect: 4, 0, 1, 4, color: .white, paint: Paint(opacity: 0.5), into: &mask)
        layer.applyMask(mask)
        var target = solidBitmap(8, 4, RGBAColor(r: 0, g: 0, b: 255))
        r.composite(layer, x: 0, y: 0, into: &target)
        assertPixel(target, 1, 1, PremultipliedPixel(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
        assertPixel(target, 4, 1, PremultipliedPixel(r: 128, g: 0, b: 127, a: 255))
        assertPixel(target, 6, 1, PremultipliedPixel(r: 0, g: 0, b: 255, a: 255), tolerance: 0)
    }

    func testMaskOffsetClearsPixelsOutsideTheMask() {
        var layer = solidBitmap(4, 4, .white)
        layer.applyMask(solidBitmap(2, 2, .white), offsetX: 1, offsetY: 1)
        XCTAssertEqual(layer.pixel(x: 0, y: 0).a, 0)
        XCTAssertEqual(layer.pixel(x: 1, y: 1).a, 255)
        XCTAssertEqual(layer.pixel(x: 2, y: 2).a, 255)
        XCTAssertEqual(layer.pixel(x: 3, y: 3).a, 0)
    }

    func testLayerCompositeWithOpacityAndBlendAtOffset() {
        var group = Bitmap(width: 2, height: 2)
        group.clear(to: RGBAColor(r: 255, g: 255, b: 255))
        var target = solidBitmap(4, 4, RGBAColor(r: 100, g: 100, b: 100))
        var r = Rasterizer()
        r.composite(group, x: 1, y: 2, paint: Paint(opacity: 0.5, blendMode: .multiply), into: &target)
        // multiply with white is identity, so any opacity leaves 100.
        assertPixel(target, 1, 2, PremultipliedPixel(r: 100, g: 100, b: 100, a: 255))
        r.composite(group, x: 1, y: 2, paint: Paint(opacity: 0.5, blendMode: .normal), into: &target)
        assertPixel(target, 2, 3, PremultipliedPixel(r: 178, g: 178, b: 178, a: 255))
        assertPixel(target, 0, 0, PremultipliedPixel(r: 100, g: 100, b: 100, a: 255), tolerance: 0)
    }

    func testAffineInverseAndConcatenation() {
        let m = Affine.translation(3, -2).concatenating(.rotation(0.7)).concatenating(.scale(2, 0.5))
        let inv = try! XCTUnwrap(m.inverted())
        let p = SIMD2(5.5, -1.25)
        let back = inv.apply(m.apply(p))
        XCTAssertEqual(back.x, p.x, accuracy: 1e-12)
        XCTAssertEqual(back.y, p.y, accuracy: 1e-12)
        // Inner first: scale (2, 0.5) then rotate then translate.
        let manual = Affine.translation(3, -2).apply(Affine.rotation(0.7).apply(SIMD2(p.x * 2, p.y * 0.5)))
        XCTAssertEqual(m.apply(p).x, manual.x, accuracy: 1e-12)
        XCTAssertEqual(m.apply(p).y, manual.y, accuracy: 1e-12)
        XCTAssertNil(Affine.scale(0, 1).inverted())
    }
}
