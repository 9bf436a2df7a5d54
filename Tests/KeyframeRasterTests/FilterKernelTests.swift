import KeyframeRaster
import XCTest

/// Properties of the filter kernels that the NumPy comparison (KeyframeRenderTests' FilterReferenceTests) does not
/// reach: conservation, absurd sizes, identities.
final class FilterKernelTests: XCTestCase {
    /// A 40×30 picture with a 10×8 opaque block in the middle and a half-transparent one beside it.
    func picture() -> Bitmap {
        var bitmap = Bitmap(width: 40, height: 30)
        for y in 11..<19 {
            for x in 15..<25 { bitmap.pixels.replaceSubrange((y * 40 + x) * 4..<(y * 40 + x) * 4 + 4, with: [200, 40, 90, 255]) }
            for x in 25..<28 { bitmap.pixels.replaceSubrange((y * 40 + x) * 4..<(y * 40 + x) * 4 + 4, with: [0, 60, 64, 128]) }
        }
        return bitmap
    }

    func channelSums(_ bitmap: Bitmap) -> [Int] {
        (0..<4).map { c in stride(from: c, to: bitmap.pixels.count, by: 4).reduce(0) { $0 + Int(bitmap.pixels[$1]) } }
    }

    /// A box blur spreads ink without adding or losing any (up to 8-bit rounding) while the picture has room around
    /// it, and its extent is what it reaches.
    func testBlurConservesInkAndStaysWithinItsExtent() {
        for blur in [BoxBlur(width: 5, height: 3, passes: 1), BoxBlur(width: 6.5, height: 4.25, passes: 3),
                     BoxBlur(width: 2, height: 9, passes: 2)] {
            var bitmap = picture()
            let before = channelSums(bitmap)
            var scratch: [UInt8] = []
            blur.apply(to: &bitmap, scratch: &scratch)
            let after = channelSums(bitmap)
            for c in 0..<4 {
                XCTAssertEqual(Double(after[c]), Double(before[c]), accuracy: Double(before[c]) * 0.02, "\(blur) channel \(c)")
            }
            let (ex, ey) = blur.extent
            for y in 0..<30 {
                for x in 0..<40 where x < 15 - ex || x >= 28 + ex || y < 11 - ey || y >= 19 + ey {
                    XCTAssertEqual(bitmap.pixels[(y * 40 + x) * 4 + 3], 0, "\(blur): ink at (\(x), \(y)) beyond the extent")
                }
            }
            // Premultiplied stays valid.
            for i in stride(from: 0, to: bitmap.pixels.count, by: 4) {
                XCTAssertLessThanOrEqual(max(bitmap.pixels[i], bitmap.pixels[i + 1], bitmap.pixels[i + 2]), bitmap.pixels[i + 3])
            }
        }
    }

    /// Blurring reuses working memory of any size and leaves the picture's buffer its own length.
    func testWorkingMemoryOfAnySizeKeepsTheBufferWhole() {
        for size in [0, 7, 4800, 100_000] {
            var bitmap = picture()
            var scratch = [UInt8](repeating: 9, count: size)
            BoxBlur(width: 3, height: 1, passes: 1).apply(to: &bitmap, scratch: &scratch)
            XCTAssertEqual(bitmap.pixels.count, 40 * 30 * 4, "scratch of \(size)")
            var other = picture()
            BoxBlur(width: 3, height: 1, passes: 1).apply(to: &other, scratch: &scratch)
            XCTAssertEqual(other, bitmap)
        }
    }

    /// A box far wider than the picture (a hostile blur at a large zoom) costs no more than the picture and gives
    /// what the definition gives: every pixel the picture's ink divided by the box width.
    func testABoxFarWiderThanThePictureIsCheap() {
        var bitmap = picture()
        let total = channelSums(bitmap)[3]
        var scratch: [UInt8] = []
        BoxBlur(width: 1_000_001, height: 1, passes: 15).apply(to: &bitmap, scratch: &scratch)
        XCTAssertTrue(bitmap.pixels.allSatisfy { $0 == 0 }, "the ink of one row over a million pixels rounds to nothing")
        var plane = [UInt8](repeating: 255, count: 64)
        BoxBlur(width: 1, height: 2_000_001, passes: 15).apply(to: &plane, width: 8, height: 8, channels: 1,
                                                               outside: 255, scratch: &scratch)
        XCTAssertEqual(plane, [UInt8](repeating: 255, count: 64), "an inverted alpha is 1 outside the picture")
        XCTAssertGreaterThan(total, 0)
    }

    func testBlursOfAtMostOnePixelAndIdentityMatricesChangeNothing() {
        var bitmap = picture()
        var scratch: [UInt8] = []
        BoxBlur(width: 1, height: 0.5, passes: 3).apply(to: &bitmap, scratch: &scratch)
        XCTAssertEqual(bitmap, picture())
        XCTAssertTrue(BoxBlur(width: 9, height: 9, passes: 0).isIdentity)
        ColorMatrixKernel([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])!.apply(to: &bitmap)
        XCTAssertEqual(bitmap, picture())
        XCTAssertNil(ColorMatrixKernel([1, 0, 0]))
        XCTAssertNil(ColorMatrixKernel([Double](repeating: .nan, count: 20)))
    }

    /// A glow of strength 0, or of alpha 0, leaves the picture as it was; a knockout glow removes the picture.
    func testGlowLimits() {
        var plane: [UInt8] = [], scratch: [UInt8] = []
        for kernel in [GlowKernel(blur: BoxBlur(width: 6, height: 6, passes: 2), red: 255, green: 0, blue: 0, alpha: 1,
                                  strength: 0),
                       GlowKernel(blur: BoxBlur(width: 6, height: 6, passes: 2), red: 255, green: 0, blue: 0, alpha: 0,
                                  strength: 4, inner: true)] {
            var bitmap = picture()
            kernel.apply(to: &bitmap, plane: &plane, scratch: &scratch)
            XCTAssertEqual(bitmap, picture())
        }
        var knocked = picture()
        GlowKernel(blur: BoxBlur(width: 1, height: 1, passes: 1), red: 255, green: 255, blue: 255, alpha: 1,
                   strength: 1, knockout: true).apply(to: &knocked, plane: &plane, scratch: &scratch)
        XCTAssertEqual(knocked.pixels[(14 * 40 + 20) * 4 + 3], 0, "inside an opaque picture a knockout glow is empty")
    }
}
