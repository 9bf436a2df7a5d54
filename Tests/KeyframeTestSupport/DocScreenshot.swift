#if canImport(Glibc)
import Foundation
import KeyframePNG

/// Screenshots for the docs: with `KEYFRAME_DOC_SCREENSHOTS=1` set, browser tests save a region of the page they
/// drive to `docs/images/<name>.png` (compact PNG); otherwise nothing is written.
public enum DocScreenshot {
    /// Whether screenshots are wanted in this run.
    public static var enabled: Bool { ProcessInfo.processInfo.environment["KEYFRAME_DOC_SCREENSHOTS"] != nil }

    /// Saves the page region (page coordinates) as `docs/images/<name>.png` when ``enabled``.
    public static func save(_ chromium: ChromiumSession, _ name: String, x: Double, y: Double, width: Double,
                            height: Double) throws {
        guard enabled else { return }
        let bitmap = try PNGDecoder().decode(chromium.screenshot(x: x, y: y, width: width, height: height))
        let folder = TestPaths.packageRoot.appendingPathComponent("docs/images")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var encoder = PNGEncoder(options: .compact)
        try encoder.write(bitmap, to: folder.appendingPathComponent("\(name).png").path)
    }
}
#endif
