import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// Exact area of `polygon` ∩ the unit pixel at (`px`, `py`), by Sutherland–Hodgman clipping and the
/// shoelace formula: an independent reference for the accumulation rasterizer.
func referenceCoverage(_ polygon: [SIMD2<Double>], _ px: Int, _ py: Int) -> Double {
    var poly = polygon
    let x0 = Double(px), x1 = Double(px + 1), y0 = Double(py), y1 = Double(py + 1)
    func clip(_ inside: (SIMD2<Double>) -> Bool, _ cross: (SIMD2<Double>, SIMD2<Double>) -> SIMD2<Double>) {
        guard !poly.isEmpty else { return }
        var out: [SIMD2<Double>] = []
        for i in poly.indices {
            let cur = poly[i]
            let prev = poly[(i + poly.count - 1) % poly.count]
            if inside(cur) {
                if !inside(prev) { out.append(cross(prev, cur)) }
                out.append(cur)
            } else if inside(prev) {
                out.append(cross(prev, cur))
            }
        }
        poly = out
    }
    func atX(_ x: Double) -> (SIMD2<Double>, SIMD2<Double>) -> SIMD2<Double> {
        { p, q in SIMD2(x, p.y + (q.y - p.y) * (x - p.x) / (q.x - p.x)) }
    }
    func atY(_ y: Double) -> (SIMD2<Double>, SIMD2<Double>) -> SIMD2<Double> {
        { p, q in SIMD2(p.x + (q.x - p.x) * (y - p.y) / (q.y - p.y), y) }
    }
    clip({ $0.x >= x0 }, atX(x0))
    clip({ $0.x <= x1 }, atX(x1))
    clip({ $0.y >= y0 }, atY(y0))
    clip({ $0.y <= y1 }, atY(y1))
    guard poly.count >= 3 else { return 0 }
    var area = 0.0
    for i in poly.indices {
        let p = poly[i]
        let q = poly[(i + 1) % poly.count]
        area += p.x * q.y - q.x * p.y
    }
    return abs(area) / 2
}

/// Shoelace area of a simple polygon.
func polygonArea(_ polygon: [SIMD2<Double>]) -> Double {
    var area = 0.0
    for i in polygon.indices {
        let p = polygon[i]
        let q = polygon[(i + 1) % polygon.count]
        area += p.x * q.y - q.x * p.y
    }
    return abs(area) / 2
}

/// A bitmap filled with one straight colour.
func solidBitmap(_ width: Int, _ height: Int, _ color: RGBAColor) -> Bitmap {
    var b = Bitmap(width: width, height: height)
    b.clear(to: color)
    return b
}

/// Asserts that every channel of a pixel is within `tolerance` of the expected premultiplied value.
func assertPixel(
    _ bitmap: Bitmap, _ x: Int, _ y: Int, _ expected: PremultipliedPixel, tolerance: Int = 1,
    file: StaticString = #filePath, line: UInt = #line
) {
    let p = bitmap.pixel(x: x, y: y)
    let ok = abs(Int(p.r) - Int(expected.r)) <= tolerance && abs(Int(p.g) - Int(expected.g)) <= tolerance
        && abs(Int(p.b) - Int(expected.b)) <= tolerance && abs(Int(p.a) - Int(expected.a)) <= tolerance
    XCTAssertTrue(ok, "pixel (\(x), \(y)) is \(p), expected \(expected) ± \(tolerance)", file: file, line: line)
}

/// Compares two bitmaps with a tolerance; on failure writes the diff (PAM) and names it in the message.
func assertBitmapsMatch(
    _ actual: Bitmap, _ expected: Bitmap, tolerance: Int, name: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    let result = BitmapComparison.compare(actual, expected, tolerance: tolerance)
    guard !result.matches else { return }
    let path = result.writeArtifacts(named: name, actual: actual, directory: BitmapComparison.artifactDirectory)
    XCTFail("\(name): \(result.summary); diff: \(path ?? "not written")", file: file, line: line)
}
