import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeVerify

/// How `keyframe batch --verify` renders and judges each export's frames: the golden root, the criteria, and the
/// render settings `keyframe verify` takes, so a golden set recorded by one is valid for the other.
///
/// Each export's goldens are in `goldenRoot/<relative path>/<name>/<clip>-NNNN.png` (``goldenFolder(of:)``): the
/// export's output path without an extension, and inside it the file names `keyframe render` and `keyframe verify`
/// use.
public struct BatchVerifyOptions: Sendable {
    /// The root of the golden tree.
    public var goldenRoot: URL
    /// When a frame matches.
    public var criteria = VerifyCriteria()
    /// Write missing or changed goldens instead of failing (`--record`).
    public var record = false
    /// Output frames per second (`nil`: the document's rate).
    public var fps: Double?
    /// Output size; `nil`: the framed scene's own size.
    public var size: (width: Int, height: Int)?
    /// What to frame.
    public var fit: Framing.Fit = .stage
    /// Whether each golden folder's kept framing (``GoldenFraming``) frames its clips, over ``fit``: true unless the
    /// framing was chosen explicitly. Recording keeps the framing either way.
    public var keepsGoldenFraming = true
    /// The background.
    public var background: RGBAColor = .transparent
    /// Which frames of each clip.
    public var selection: FramePlan.Selection = .all
    /// The PNG preset of the rendered frames (and so of recorded goldens); pixels do not depend on it.
    public var png: PNGPreset = .fast
    /// Play each clip for this long instead of one pass.
    public var duration: Double?

    public init(goldenRoot: URL) {
        self.goldenRoot = goldenRoot
    }

    /// The golden folder of `export`, relative to ``goldenRoot``: `characters/walker`.
    public static func goldenFolder(of export: BatchExport) -> String {
        export.outputPath(export.name)
    }

    /// Applies the render settings to `session` exactly as `keyframe verify` applies its render options (every clip,
    /// no contact sheet; the caller sets the output folder and the job count).
    public func configure(_ session: inout RenderSession) {
        session.fps = fps
        session.fit = fit
        session.size = size
        session.background = background
        session.png = PNGEncodingOptions(preset: png)
        session.duration = duration
        session.clips = nil
        session.selection = selection
        session.contactSheet = nil
    }

    /// Everything that changes a verdict, as one string the verification state compares.
    public var fingerprint: String {
        func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "default" }
        var parts = ["fps=" + number(fps)]
        parts.append("size=" + (size.map { "\($0.width)x\($0.height)" } ?? "default"))
        parts.append("fit=\(fit.rawValue)" + (keepsGoldenFraming ? ",kept" : ""))
        parts.append("background=\(background.r),\(background.g),\(background.b),\(background.a)")
        switch selection {
        case .all: parts.append("frames=all")
        case .range(let range): parts.append("frames=\(range.lowerBound)..\(range.upperBound)")
        case .times(let times): parts.append("at=" + times.map { "\($0)" }.joined(separator: ","))
        }
        parts.append("png=\(png.rawValue)")
        parts.append("duration=" + number(duration))
        parts.append("tolerance=\(criteria.tolerance)")
        parts.append("maxDiffering=\(criteria.maxDifferingShare)")
        return parts.joined(separator: ";")
    }
}
