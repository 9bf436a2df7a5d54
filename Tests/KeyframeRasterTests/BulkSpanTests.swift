import KeyframeTestSupport
import XCTest

@testable import KeyframeRaster

/// The vector kernel for interior bilinear spans (and the splitting of spans into clamped ends and an
/// interior middle) against the plain pixel-by-pixel loop: the two must give the same bytes.
final class BulkSpanTests: XCTestCase {
    /// Premultiplied texels with random partial alpha, flat patches, transparent holes and, in a few
    /// places, colour above alpha (not valid premultiplied data, but the arithmetic must still agree).
    static func makeAtlas(width: Int, height: Int, rng: inout SeededGenerator) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let flat = (x / 7 + y / 5) % 4 == 0  // patches of one colour
                var g = flat ? SeededGenerator(seed: UInt64(x / 7 * 131 + y / 5)) : rng
                let kind = Int.random(in: 0..<10, using: &g)
                let a: UInt8 =
                    switch kind {
                    case 0: 0
                    case 1, 2, 3: 255
                    default: UInt8.random(in: 0...255, using: &g)
                    }
                for c in 0..<3 {
                    let v = UInt8.random(in: 0...255, using: &g)
                    bytes[i + c] = kind == 9 ? v : PixelMath.premultiply(v, a)
                }
                bytes[i + 3] = a
                if !flat { rng = g }
            }
        }
        return Bitmap(width: width, height: height, premultipliedRGBA: bytes)!
    }

    static func makeBackground(width: Int, height: Int, rng: inout SeededGenerator) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in Swift.stride(from: 0, to: bytes.count, by: 4) {
            let a = Bool.random(using: &rng) ? 255 : UInt8.random(in: 0...255, using: &rng)
            for c in 0..<3 { bytes[i + c] = PixelMath.premultiply(UInt8.random(in: 0...255, using: &rng), a) }
            bytes[i + 3] = a
        }
        return Bitmap(width: width, height: height, premultipliedRGBA: bytes)!
    }

    /// Draws with and without the bulk kernels and compares every byte.
    func assertSameBytes(
        _ atlas: Bitmap, region: PixelRect, transform: Affine, paint: Paint = Paint(), clip: PixelRect? = nil,
        background: Bitmap, _ message: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var fast = background
        var plain = background
        var bulk = Rasterizer()
        var scalar = Rasterizer()
        scalar.usesBulkKernels = false
        XCTAssertTrue(bulk.usesBulkKernels)
        bulk.draw(atlas, region: region, transform: transform, paint: paint, clip: clip, into: &fast)
        scalar.draw(atlas, region: region, transform: transform, paint: paint, clip: clip, into: &plain)
        if fast.pixels != plain.pixels {
            let i = zip(fast.pixels, plain.pixels).enumerated().first { $0.element.0 != $0.element.1 }!.offset / 4
            XCTFail(
                "\(message()): first difference at (\(i % fast.width), \(i / fast.width)): bulk \(fast.pixel(x: i % fast.width, y: i / fast.width)), scalar \(plain.pixel(x: i % fast.width, y: i / fast.width))",
                file: file, line: line)
        }
        XCTAssertNotEqual(fast.pixels, background.pixels, "\(message()): nothing drawn", file: file, line: line)
    }

    func testRandomSpritesMatchThePixelByPixelLoop() {
        var rng = SeededGenerator(seed: 7)
        let atlas = BulkSpanTests.makeAtlas(width: 160, height: 120, rng: &rng)
        let background = BulkSpanTests.makeBackground(width: 200, height: 200, rng: &rng)
        for n in 0..<300 {
            let w = Int.random(in: 2...60, using: &rng)
            let h = Int.random(in: 2...60, using: &rng)
            let region = PixelRect(
                x: Int.random(in: 0...(160 - w), using: &rng), y: Int.random(in: 0...(120 - h), using: &rng),
                width: w, height: h)
            let angle = n % 5 == 0 ? 0 : Double.random(in: -Double.pi...Double.pi, using: &rng)
            let sx = Double.random(in: 0.3...3, using: &rng)
            let sy = n % 3 == 0 ? sx : Double.random(in: 0.3...3, using: &rng)
            let transform = Affine.translation(
                Double.random(in: 40...160, using: &rng), Double.random(in: 40...160, using: &rng)
            )
            .concatenating(.rotation(angle))
            .concatenating(.scale(sx, sy))
            .concatenating(.translation(-Double(w) / 2, -Double(h) / 2))
            let opacity: Double = n % 4 == 3 ? Double.random(in: 0.05...0.99, using: &rng) : 1
            // Every blend mode, with and without a colour transform (the sampled bulk path), besides normal.
            let blend = PixelBlendMode.allCases[n % PixelBlendMode.allCases.count]
            let tint: PixelColorTransform? = n % 7 < 2 ? PixelColorTransform(
                redMultiplier: Double.random(in: 0...1.5, using: &rng), greenMultiplier: 1,
                blueMultiplier: Double.random(in: 0...1, using: &rng), alphaMultiplier: Double.random(in: 0.2...1, using: &rng),
                redOffset: Double.random(in: -60...60, using: &rng), greenOffset: 0, blueOffset: 12, alphaOffset: 0) : nil
            assertSameBytes(
                atlas, region: region, transform: transform,
                paint: Paint(opacity: opacity, colorTransform: tint ?? .identity, blendMode: blend), background: background,
                "sprite \(n): region \(region), angle \(angle), scale \(sx)×\(sy), opacity \(opacity), \(blend), tint \(tint != nil)")
        }
    }

    /// Clipped to a window inside a magnified sprite, every span is interior: the vector loop and its
    /// scalar tail see every length from 1 to 40.
    func testInteriorSpansOfEveryLength() {
        var rng = SeededGenerator(seed: 11)
        let atlas = BulkSpanTests.makeAtlas(width: 64, height: 64, rng: &rng)
        let background = BulkSpanTests.makeBackground(width: 120, height: 60, rng: &rng)
        let region = PixelRect(x: 3, y: 5, width: 50, height: 40)
        for length in 1...40 {
            for variant in 0..<4 {
                let angle = [0, 0.3, -1.2, 2.5][variant]
                let scale = [2.9, 2.2, 1.7, 2.5][variant]
                let transform = Affine.translation(60.37 + Double(variant) * 0.21, 30.61)
                    .concatenating(.rotation(angle))
                    .concatenating(.scale(scale, scale * 1.1))
                    .concatenating(.translation(-25.3, -20.1))
                let clip = PixelRect(x: 60 - length / 2, y: 20, width: length, height: 20)
                let opacity = variant == 3 ? 0.6 : 1
                assertSameBytes(
                    atlas, region: region, transform: transform, paint: Paint(opacity: opacity), clip: clip,
                    background: background, "length \(length), variant \(variant)")
            }
        }
    }

    /// Sprites exactly `length` pixels wide, at integer and fractional offsets and under small
    /// rotations: spans whose ends need clamping, split or not, with every remainder.
    func testEdgeSpansOfEveryLength() {
        var rng = SeededGenerator(seed: 13)
        let atlas = BulkSpanTests.makeAtlas(width: 64, height: 64, rng: &rng)
        let background = BulkSpanTests.makeBackground(width: 80, height: 40, rng: &rng)
        let region = PixelRect(x: 9, y: 2, width: 20, height: 11)
        for length in 1...40 {
            for variant in 0..<5 {
                let dx = [0, 0.25, 0.5, 0.83, 0.1][variant]
                let angle = [0, 0, 0.01, -0.03, 0.2][variant]
                let transform = Affine.translation(10 + dx, 5.5)
                    .concatenating(.rotation(angle))
                    .concatenating(.scale(Double(length) / 20, 2.3))
                assertSameBytes(
                    atlas, region: region, transform: transform, paint: Paint(opacity: variant == 4 ? 0.77 : 1),
                    background: background, "length \(length), variant \(variant)")
            }
        }
    }

    /// Other blend modes and colour transforms take bulk samples and finish each pixel in scalar code; the bytes
    /// must be those of the pixel-by-pixel loop.
    func testOtherPaintsAreUnaffected() {
        var rng = SeededGenerator(seed: 17)
        let atlas = BulkSpanTests.makeAtlas(width: 64, height: 64, rng: &rng)
        let background = BulkSpanTests.makeBackground(width: 100, height: 100, rng: &rng)
        let transform = Affine.translation(50.3, 49.8).concatenating(.rotation(0.7)).concatenating(.scale(1.6, 1.3))
            .concatenating(.translation(-30, -30))
        let tint = PixelColorTransform(redMultiplier: 0.5, greenMultiplier: 1, blueMultiplier: 1, alphaMultiplier: 1,
                                       redOffset: 20, greenOffset: 0, blueOffset: -10, alphaOffset: 0)
        let paints = [
            Paint(blendMode: .add), Paint(blendMode: .multiply), Paint(opacity: 0.5, blendMode: .screen),
            Paint(colorTransform: tint), Paint(opacity: 0.8, colorTransform: tint),
        ]
        for (n, paint) in paints.enumerated() {
            assertSameBytes(
                atlas, region: PixelRect(x: 2, y: 2, width: 60, height: 60), transform: transform, paint: paint,
                background: background, "paint \(n)")
        }
    }
}
