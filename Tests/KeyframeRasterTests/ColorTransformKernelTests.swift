import KeyframeTestSupport
import XCTest

@testable import KeyframeRaster

/// The colour-transform kernel's rounding without libm against the original `.rounded()` formulation.
final class ColorTransformKernelTests: XCTestCase {
    /// The kernel as first written (libm rounding, rounding before clamping): the reference.
    static func reference(_ k: ColorTransformKernel, _ p: UInt32) -> UInt32 {
        let a = Float(p >> 24)
        var straight = SIMD4<Float>(Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), 255)
        straight = a > 0 ? straight * (255 / a) : SIMD4(0, 0, 0, 255)
        straight.w = a
        var out = straight * k.multipliers + k.offsets
        out.replace(with: SIMD4(repeating: 0), where: .!(out .> 0))
        out = out.rounded(.toNearestOrAwayFromZero)
        out.replace(with: SIMD4(repeating: 255), where: out .> 255)
        let na = out.w
        let premultiplied = (out * (na / 255)).rounded(.toNearestOrAwayFromZero)
        return UInt32(premultiplied.x) | UInt32(premultiplied.y) << 8 | UInt32(premultiplied.z) << 16
            | UInt32(na) << 24
    }

    func testRoundingMatchesLibmOnTiesNeighboursAndRandomValues() {
        var rng = SeededGenerator(seed: 3)
        var values: [Float] = [0, 0.5, 255, 255.5, 4_194_304]
        for k in 0...520 {
            let x = Float(k) * 0.5
            values += [x, x.nextUp, x.nextDown, Float(k) / 1024]
        }
        for _ in 0..<200_000 { values.append(Float.random(in: 0...300, using: &rng)) }
        for _ in 0..<20_000 { values.append(Float(bitPattern: UInt32.random(in: 0...0x4380_0000, using: &rng))) }
        for i in Swift.stride(from: 0, to: values.count - 3, by: 4) {
            let v = SIMD4(values[i], values[i + 1], values[i + 2], values[i + 3])
            let expected = v.rounded(.toNearestOrAwayFromZero)
            XCTAssertEqual(ColorTransformKernel.roundedHalfAway(v), expected, "\(v)")
        }
    }

    func testKernelMatchesTheReference() {
        var rng = SeededGenerator(seed: 5)
        var transforms: [PixelColorTransform] = [
            PixelColorTransform(redMultiplier: 0.5, redOffset: 127),
            PixelColorTransform(redMultiplier: 0, greenMultiplier: 0, blueMultiplier: 0, redOffset: 255),
            PixelColorTransform(alphaMultiplier: 2, alphaOffset: -10),
            PixelColorTransform(redMultiplier: 1e30, greenMultiplier: -1e30, blueMultiplier: .nan),
            PixelColorTransform(redOffset: 0.5, greenOffset: -0.5, blueOffset: 254.5, alphaOffset: 0.5),
        ]
        for _ in 0..<40 {
            transforms.append(
                PixelColorTransform(
                    redMultiplier: Double.random(in: -1...3, using: &rng),
                    greenMultiplier: Double.random(in: 0...1.5, using: &rng),
                    blueMultiplier: Double.random(in: 0...1, using: &rng),
                    alphaMultiplier: Double.random(in: 0...2, using: &rng),
                    redOffset: Double.random(in: -300...300, using: &rng),
                    greenOffset: Double((Int.random(in: -512...512, using: &rng))) / 2,
                    blueOffset: Double.random(in: -50...50, using: &rng),
                    alphaOffset: Double.random(in: -100...100, using: &rng)))
        }
        for t in transforms {
            let k = ColorTransformKernel(t)
            var mismatches = 0
            for n in 0..<20_000 {
                var p = UInt32.random(in: 0...UInt32.max, using: &rng)
                if n % 2 == 0 {  // valid premultiplied
                    let a = p >> 24
                    p = (p & 0xFF) * a / 255 | ((p >> 8) & 0xFF) * a / 255 << 8 | ((p >> 16) & 0xFF) * a / 255 << 16
                        | a << 24
                }
                if k.apply(p) != ColorTransformKernelTests.reference(k, p) { mismatches += 1 }
            }
            // Alpha 0 and 255 come from tables: every colour of every channel against the reference.
            for c in UInt32(0)...255 {
                for p in [c | (255 - c) << 8 | (c / 3) << 16 | 0xFF00_0000, c | c << 8 | c << 16, c << 16] {
                    if k.apply(p) != ColorTransformKernelTests.reference(k, p) { mismatches += 1 }
                }
            }
            for a in UInt32(0)...255 {
                for c in Swift.stride(from: UInt32(0), through: a, by: Int(max(1, a / 16))) {
                    let p = c | (a - c) << 8 | (c / 2) << 16 | a << 24
                    if k.apply(p) != ColorTransformKernelTests.reference(k, p) { mismatches += 1 }
                }
            }
            XCTAssertEqual(mismatches, 0, "\(t)")
        }
    }
}
