import Foundation
import KeyframeJSON
import KeyframeTestSupport

/// The figures ThorVG reached on each compared frame, per export and profile, kept in `ThorVGFrameFigures.json` beside
/// this file: the regression bound `ThorVGConformanceTests` holds every recorded frame to.
///
/// The file maps `export/profile` to frame index to `[worst channel mean (0–255), share of pixels off by > 8/255]`.
/// `KEYFRAME_THORVG_RECORD=1` records instead of checking (the figures of every compared frame replace the old ones).
final class ThorVGFrameFigures: @unchecked Sendable {
    static let url = TestPaths.packageRoot.appendingPathComponent("Tests/KeyframeLottieTests/ThorVGFrameFigures.json")

    private let lock = NSLock()
    private var figures: [String: [Int: (mean: Double, off: Double)]]

    private init(_ figures: [String: [Int: (mean: Double, off: Double)]]) { self.figures = figures }

    /// Reads the recorded figures; a missing file is an empty record (every frame falls back to the coarser bounds).
    static func load() -> ThorVGFrameFigures {
        guard let data = FileManager.default.contents(atPath: url.path),
            case .object(let root)? = try? JSONParser.parse([UInt8](data)) else { return ThorVGFrameFigures([:]) }
        var figures: [String: [Int: (mean: Double, off: Double)]] = [:]
        for (key, frames) in root {
            guard case .object(let byFrame) = frames else { continue }
            for (frame, pair) in byFrame {
                guard let index = Int(frame), case .array(let values) = pair, values.count == 2,
                    let mean = values[0].doubleValue, let off = values[1].doubleValue else { continue }
                figures[key, default: [:]][index] = (mean, off)
            }
        }
        return ThorVGFrameFigures(figures)
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

    func save() throws {
        lock.lock(); defer { lock.unlock() }
        var root: [String: JSONValue] = [:]
        for (key, frames) in figures {
            var byFrame: [String: JSONValue] = [:]
            for (frame, pair) in frames { byFrame[String(frame)] = .array([.number(pair.mean), .number(pair.off)]) }
            root[key] = .object(byFrame)
        }
        try Data(JSONWriter.write(.object(root))).write(to: ThorVGFrameFigures.url)
    }
}
