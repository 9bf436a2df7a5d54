import Foundation
import KeyframeRaster

/// Compares bitmaps pixel by pixel with a per-channel tolerance and writes a diff image on failure.
///
/// The diff image shows the expected image dimmed, with every differing pixel in solid red, so the
/// failing region is obvious. With an `encoder` (for example KeyframePNG's) it is a PNG; without one
/// it is a binary PAM, which needs no codec.
///
/// ```swift
/// let result = BitmapComparison.compare(actual, expected, tolerance: 2)
/// XCTAssertTrue(result.matches, result.summary)
/// ```
public struct BitmapComparison: Sendable {
    /// Largest per-channel difference found.
    public var maxDifference: Int
    /// Pixels whose difference in any channel exceeds the tolerance.
    public var differingPixels: Int
    /// Whether the sizes matched.
    public var sizesMatch: Bool
    /// Whether the images match within tolerance.
    public var matches: Bool { sizesMatch && differingPixels == 0 }
    /// A one-line description for assertion messages.
    public var summary: String
    /// The diff image (nil when sizes differ).
    public var diff: Bitmap?

    /// Compares two bitmaps; `tolerance` is the largest allowed difference per channel (0–255).
    public static func compare(_ actual: Bitmap, _ expected: Bitmap, tolerance: Int = 0) -> BitmapComparison {
        guard actual.width == expected.width, actual.height == expected.height else {
            return BitmapComparison(
                maxDifference: 255, differingPixels: max(actual.width * actual.height, 1), sizesMatch: false,
                summary: "size \(actual.width)×\(actual.height) ≠ expected \(expected.width)×\(expected.height)",
                diff: nil)
        }
        var diff = Bitmap(width: expected.width, height: expected.height)
        var maxDifference = 0
        var differing = 0
        var first: (Int, Int)?
        let a = actual.pixels
        let e = expected.pixels
        for i in stride(from: 0, to: e.count, by: 4) {
            var worst = 0
            for c in 0..<4 { worst = max(worst, abs(Int(a[i + c]) - Int(e[i + c]))) }
            maxDifference = max(maxDifference, worst)
            let pixel = i / 4
            if worst > tolerance {
                differing += 1
                if first == nil { first = (pixel % expected.width, pixel / expected.width) }
                diff.pixels[i] = 255
                diff.pixels[i + 1] = 0
                diff.pixels[i + 2] = 0
                diff.pixels[i + 3] = 255
            } else {
                for c in 0..<3 { diff.pixels[i + c] = e[i + c] / 4 }
                diff.pixels[i + 3] = 255
            }
        }
        var summary = "\(differing) pixel(s) differ by more than \(tolerance) (max difference \(maxDifference))"
        if let (x, y) = first {
            summary += "; first at (\(x), \(y)): actual \(actual.pixel(x: x, y: y)), expected \(expected.pixel(x: x, y: y))"
        }
        return BitmapComparison(
            maxDifference: maxDifference, differingPixels: differing, sizesMatch: true, summary: summary, diff: diff)
    }

    /// Writes the diff (and the actual image) into `directory` as `<name>.diff.*` / `<name>.actual.*`.
    ///
    /// Returns the diff's path, or `nil` if there is nothing to write or writing failed.
    @discardableResult
    public func writeArtifacts(
        named name: String, actual: Bitmap, directory: String,
        encoder: ((Bitmap) throws -> [UInt8])? = nil
    ) -> String? {
        guard let diff else { return nil }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func bytes(_ bitmap: Bitmap) -> (Data, String)? {
            if let encoder {
                guard let png = try? encoder(bitmap) else { return nil }
                return (Data(png), "png")
            }
            return (BitmapComparison.pam(bitmap), "pam")
        }
        guard let (diffData, ext) = bytes(diff) else { return nil }
        let diffPath = "\(directory)/\(name).diff.\(ext)"
        guard FileManager.default.createFile(atPath: diffPath, contents: diffData) else { return nil }
        if let (actualData, ext) = bytes(actual) {
            _ = FileManager.default.createFile(atPath: "\(directory)/\(name).actual.\(ext)", contents: actualData)
        }
        return diffPath
    }

    /// A binary PAM (`P7`, RGB_ALPHA, straight alpha) of the bitmap.
    public static func pam(_ bitmap: Bitmap) -> Data {
        var data = Data(
            "P7\nWIDTH \(bitmap.width)\nHEIGHT \(bitmap.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.append(contentsOf: bitmap.straightRGBA())
        return data
    }

    /// Where failing comparisons write their artifacts: `$KEYFRAME_TEST_ARTIFACTS` or a temp directory.
    public static var artifactDirectory: String {
        ProcessInfo.processInfo.environment["KEYFRAME_TEST_ARTIFACTS"]
            ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("keyframe-test-artifacts")
    }
}
