import Foundation
import KeyframeRaster

/// Compares bitmaps pixel by pixel with a per-channel tolerance and writes a diff image on failure.
///
/// The figures and the diff image come from `KeyframeRaster`'s ``BitmapDifference`` (what `keyframe verify`
/// reports): the expected image faded, with every differing pixel in solid red, so the failing region is obvious.
/// With an `encoder` (for example KeyframePNG's) it is a PNG; without one it is a binary PAM, which needs no codec.
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

    /// Compares two bitmaps; `tolerance` is the largest allowed difference per channel (0–255). The figures and the
    /// diff picture come from the shipping library's ``BitmapDifference`` (what `keyframe verify` reports).
    public static func compare(_ actual: Bitmap, _ expected: Bitmap, tolerance: Int = 0) -> BitmapComparison {
        guard let difference = BitmapDifference(actual, expected, tolerance: tolerance) else {
            return BitmapComparison(
                maxDifference: 255, differingPixels: max(actual.width * actual.height, 1), sizesMatch: false,
                summary: "size \(actual.width)×\(actual.height) ≠ expected \(expected.width)×\(expected.height)",
                diff: nil)
        }
        var summary = "\(difference.differingPixels) pixel(s) differ by more than \(tolerance) "
            + "(max difference \(difference.maxDifference))"
        if let (x, y) = difference.first {
            summary += "; first at (\(x), \(y)): actual \(actual.pixel(x: x, y: y)), expected \(expected.pixel(x: x, y: y))"
        }
        if let bounds = difference.bounds { summary += "; changed area \(bounds)" }
        return BitmapComparison(
            maxDifference: difference.maxDifference, differingPixels: difference.differingPixels, sizesMatch: true,
            summary: summary, diff: difference.image(actual: actual, expected: expected))
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
