import ArgumentParser
import Foundation
import KeyframeEngine
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

extension Framing.Fit: ExpressibleByArgument {}
extension PNGPreset: ExpressibleByArgument {}

/// The options that decide which frames are drawn and how, shared by every command that renders
/// (`render`, and the commands that must draw exactly what `render` draws).
struct RenderOptions: ParsableArguments {
    @Option(help: "Output frames per second, above 0 and at most 1000 (default: the document's frame rate).")
    var fps: Double?

    @Option(help: ArgumentHelp("Output size; the framed scene is scaled to fit and centred.", valueName: "WxH"))
    var size: String?

    @Option(help: "What to frame: the document's stage (default), or the clip's content over all its frames.")
    var fit: Framing.Fit?

    @Option(help: ArgumentHelp("Frame this document rectangle instead of the stage or the content (with --size, "
                               + "scaled to fit it).", valueName: "X,Y,W,H"))
    var bounds: String?

    @Option(help: ArgumentHelp("Background colour (default: transparent).", valueName: "#RRGGBB[AA]"))
    var background: String?

    @Option(help: ArgumentHelp("Render only output frames A to B (inclusive, from 0).", valueName: "A..B"))
    var frames: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Render one frame at each of these times.", valueName: "seconds"))
    var at: [Double] = []

    @Option(help: "PNG settings: fast (previews) or compact (assets).")
    var png: PNGPreset = .fast

    @Option(help: "Frames rendered in parallel (default: all cores). Output is identical for any value.")
    var jobs: Int?

    @Option(help: ArgumentHelp("Folder holding the atlas images (default: the input's folder).", valueName: "DIR"),
            completion: .directory)
    var assets: String?

    @OptionGroup var scaleFactor: ScaleFactorOption

    @Option(help: ArgumentHelp("Play each clip for this long instead of one pass (it wraps, or rests on its last frame after its plays; nested movies that keep their own time play on).", valueName: "seconds"))
    var duration: Double?

    mutating func validate() throws {
        if frames != nil && !at.isEmpty { throw ValidationError("--frames and --at cannot be used together") }
        try NumericBounds.jobs.check(jobs, "--jobs")
        try NumericBounds.duration.check(duration, "--duration")
        try NumericBounds.framesPerSecond.check(fps, "--fps")
        try NumericBounds.time.check(at, "--at")
        if let size, RenderOptions.parseSize(size) == nil {
            throw ValidationError("--size \(size): expected WIDTHxHEIGHT, each side \(NumericBounds.side), e.g. 512x512")
        }
        if let bounds, RenderOptions.parseBounds(bounds) == nil {
            throw ValidationError("--bounds \(bounds): expected X,Y,WIDTH,HEIGHT in document pixels, width and height "
                                  + "above 0, e.g. -100,-200,200,300")
        }
        if bounds != nil && fit != nil { throw ValidationError("--bounds and --fit cannot be used together") }
        if let background, RenderOptions.parseColor(background) == nil {
            throw ValidationError("--background \(background): expected #RRGGBB or #RRGGBBAA")
        }
        if let frames, RenderOptions.parseRange(frames) == nil {
            throw ValidationError("--frames \(frames): expected A..B with 0 ≤ A ≤ B ≤ "
                                  + "\(NumericBounds.text(NumericBounds.frameNumber.upper)), or a single frame number")
        }
    }

    /// The frames asked for with `--frames` or `--at` (every frame without them).
    var selection: FramePlan.Selection {
        if let frames, let range = RenderOptions.parseRange(frames) { return .range(range) }
        if !at.isEmpty { return .times(at) }
        return .all
    }

    /// Applies the rate, framing, background, PNG preset and job count to `session` (outputs are the caller's).
    func configure(_ session: inout RenderSession) {
        session.fps = fps
        session.fit = fit ?? .stage
        session.bounds = bounds.flatMap(RenderOptions.parseBounds)
        session.size = size.flatMap(RenderOptions.parseSize)
        session.background = background.flatMap(RenderOptions.parseColor) ?? .transparent
        session.png = PNGEncodingOptions(preset: png)
        session.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        session.duration = duration
    }

    /// `512x512` → (512, 512); each side within ``NumericBounds/side``.
    static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = NumericBounds.side.wholeNumber(parts[0]),
            let h = NumericBounds.side.wholeNumber(parts[1])
        else { return nil }
        return (w, h)
    }

    /// Whether the command line chose the framing (`--fit`, `--bounds` or `--size`), rather than leaving it to the
    /// defaults or to a golden set's stored framing.
    var choosesFraming: Bool { fit != nil || bounds != nil || size != nil }

    /// `-10,-20.5,100,200` → the rectangle; coordinates within ±10⁹, width and height above 0.
    static func parseBounds(_ text: String) -> Rect? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            [x, y, w, h].allSatisfy({ $0.isFinite && abs($0) <= 1e9 }), w > 0, h > 0
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
    static func parseColor(_ text: String) -> RGBAColor? {
        var hex = Substring(text)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return RGBAColor(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes.count == 4 ? bytes[3] : 255)
    }

    /// `3..10` → 3...10; `7` → 7...7; frame numbers within ``NumericBounds/frameNumber``.
    static func parseRange(_ text: String) -> ClosedRange<Int>? {
        if let single = NumericBounds.frameNumber.wholeNumber(text) { return single...single }
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = NumericBounds.frameNumber.wholeNumber(parts[0]),
            let b = NumericBounds.frameNumber.wholeNumber(parts[1]), a <= b
        else { return nil }
        return a...b
    }
}
