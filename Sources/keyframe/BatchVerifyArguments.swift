import ArgumentParser
import Foundation
import KeyframeBatch
import KeyframeRender
import KeyframeVerify

/// `keyframe batch`'s verification options: `--verify GOLDEN_ROOT` with `keyframe verify`'s criteria, `--record`,
/// and the render options that decide which frames are drawn (the same names and meanings as for `verify`, so one
/// golden set serves both).
struct BatchVerifyArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Verify every export's frames against GOLDEN_ROOT/<path>/<name>/<clip>-NNNN.png "
                               + "(as `keyframe verify --golden` would).", valueName: "GOLDEN_ROOT"),
            completion: .directory)
    var verify: String?

    @Flag(help: "With --verify: write missing or changed goldens (atomically; matching frames are left alone).")
    var record = false

    @Option(help: "With --verify: largest per-channel difference (0-255) that still counts as equal.")
    var tolerance = 2

    @Option(help: ArgumentHelp("With --verify: share of pixels that may differ beyond the tolerance.", valueName: "P%"))
    var maxDiffering = "0%"

    @Option(help: ArgumentHelp("With --verify: one self-contained HTML report (expected | actual | heat map per failing "
                               + "frame, and the command that records them).", valueName: "FILE.html"))
    var verifyHtml: String?

    @Option(help: "With --verify: output frames per second (default: each document's rate).")
    var fps: Double?

    @Option(help: ArgumentHelp("With --verify: output size, as for `render`.", valueName: "WxH"))
    var size: String?

    @Option(help: "With --verify: what to frame, as for `render`.")
    var fit: Framing.Fit?

    @Option(help: ArgumentHelp("With --verify: background colour.", valueName: "#RRGGBB[AA]"))
    var background: String?

    @Option(help: ArgumentHelp("With --verify: only output frames A to B of each clip.", valueName: "A..B"))
    var frames: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("With --verify: one frame at each of these times.",
                                                        valueName: "seconds"))
    var at: [Double] = []

    @Option(help: "With --verify: PNG settings of rendered (and recorded) frames: fast or compact.")
    var png: String?

    @Option(help: ArgumentHelp("With --verify: play each clip for this long instead of one pass.", valueName: "seconds"))
    var duration: Double?

    /// The render options as `keyframe verify` would take them on its command line.
    private var renderArguments: [String] {
        var arguments: [String] = []
        if let fps { arguments += ["--fps", "\(fps)"] }
        if let size { arguments += ["--size", size] }
        if let fit { arguments += ["--fit", fit.rawValue] }
        if let background { arguments += ["--background", background] }
        if let frames { arguments += ["--frames", frames] }
        if !at.isEmpty { arguments += ["--at"] + at.map { "\($0)" } }
        if let png { arguments += ["--png", png] }
        if let duration { arguments += ["--duration", "\(duration)"] }
        return arguments
    }

    mutating func validate() throws {
        guard verify != nil else {
            let given = renderArguments.filter { $0.hasPrefix("--") }
                + (record ? ["--record"] : []) + (verifyHtml != nil ? ["--verify-html"] : [])
                + (tolerance != 2 ? ["--tolerance"] : []) + (maxDiffering != "0%" ? ["--max-differing"] : [])
            if let first = given.first { throw ValidationError("\(first) needs --verify GOLDEN_ROOT") }
            return
        }
        try Verify.checkCriteria(tolerance: tolerance, maxDiffering: maxDiffering)
        if record && verifyHtml != nil { throw ValidationError("--verify-html reports a check; --record checks nothing") }
        // The same checks, and messages, as `keyframe verify`'s render options.
        do { _ = try RenderOptions.parse(renderArguments) } catch {
            throw ValidationError(RenderOptions.message(for: error))
        }
    }

    /// The library's options, or `nil` without `--verify`.
    func options() throws -> BatchVerifyOptions? {
        guard let verify else { return nil }
        let render = try RenderOptions.parse(renderArguments)
        var options = BatchVerifyOptions(goldenRoot: URL(fileURLWithPath: verify))
        options.criteria = VerifyCriteria(tolerance: tolerance, maxDifferingShare: Verify.parseShare(maxDiffering) ?? 0)
        options.record = record
        options.fps = render.fps
        options.size = render.size.flatMap(RenderOptions.parseSize)
        options.fit = render.fit ?? .stage
        options.keepsGoldenFraming = render.fit == nil
        options.background = render.background.flatMap(RenderOptions.parseColor) ?? .transparent
        options.selection = render.selection
        options.png = render.png
        options.duration = render.duration
        return options
    }
}
