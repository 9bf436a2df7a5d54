import Foundation
import KeyframeJSON
import KeyframeTestSupport

/// The figures a player reached on compared frames, kept in a JSON file beside this one: the regression bound a player
/// conformance test holds those frames to (`ThorVGFrameFigures.json`: every frame ThorVG's test compares;
/// `LottieWebFrameFigures.json`: the frames where a lottie-web renderer misses the criterion).
///
/// A file maps a key (`export/profile`, `export/profile/renderer`) to frame index to
/// `[worst channel mean (0–255), share of pixels off by > 8/255]`. The tests' record mode (`KEYFRAME_THORVG_RECORD=1`,
/// `KEYFRAME_LOTTIE_WEB_RECORD=1`) replaces the figures of every frame it compares.
final class PlayerFrameFigures: @unchecked Sendable {
    let url: URL

    private let lock = NSLock()
    private var figures: [String: [Int: (mean: Double, off: Double)]]

    private init(url: URL, _ figures: [String: [Int: (mean: Double, off: Double)]]) {
        self.url = url
        self.figures = figures
    }

    /// Reads `Tests/KeyframeLottieTests/<name>`; a missing file is an empty record.
    static func load(_ name: String) -> PlayerFrameFigures {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/KeyframeLottieTests").appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path),
            case .object(let root)? = try? JSONParser.parse([UInt8](data)) else { return PlayerFrameFigures(url: url, [:]) }
        var figures: [String: [Int: (mean: Double, off: Double)]] = [:]
        for (key, frames) in root {
            guard case .object(let byFrame) = frames else { continue }
            for (frame, pair) in byFrame {
                guard let index = Int(frame), case .array(let values) = pair, values.count == 2,
                    let mean = values[0].doubleValue, let off = values[1].doubleValue else { continue }
                figures[key, default: [:]][index] = (mean, off)
            }
        }
        return PlayerFrameFigures(url: url, figures)
    }

    func bound(key: String, frame: Int) -> (mean: Double, off: Double)? {
        lock.lock(); defer { lock.unlock() }
        return figures[key]?[frame]
    }

    func record(key: String, frame: Int, _ difference: FrameDifference) {
        lock.lock(); defer { lock.unlock() }
        // Rounded up at the third decimal, so the file is stable and never tighter than what was measured.
        let mean = (difference.worstMean * 1000).rounded(.up) / 1000
        let off = (difference.offShare * 10000).rounded(.up) / 10000
        figures[key, default: [:]][frame] = (mean, off)
    }

    /// Forgets frame `frame` of `key` (it now meets the criterion the record stands in for).
    func remove(key: String, frame: Int) {
        lock.lock(); defer { lock.unlock() }
        figures[key]?[frame] = nil
        if figures[key]?.isEmpty == true { figures[key] = nil }
    }

    func save() throws {
        lock.lock(); defer { lock.unlock() }
        var root: JSONObject = [:]
        for (key, frames) in figures {
            var byFrame: JSONObject = [:]
            for (frame, pair) in frames { byFrame[String(frame)] = .array([.number(pair.mean), .number(pair.off)]) }
            root[key] = .object(byFrame)
        }
        try Data(JSONWriter.write(.object(root))).write(to: url)
    }
}
