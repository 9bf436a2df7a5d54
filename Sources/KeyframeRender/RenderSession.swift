import Foundation
import KeyframeModel
import KeyframePNG
import KeyframeRaster

/// Renders the clips of one document to PNG frames and an optional contact sheet: what `keyframe render` does.
///
/// ```swift
/// let scene = try RenderScene(document: document, assetsFolder: exportFolder)
/// var session = RenderSession(scene: scene)
/// session.outputFolder = URL(fileURLWithPath: "out/walker")
/// let summaries = try session.run()
/// ```
public struct RenderSession: Sendable {
    /// What one clip's render produced.
    public struct Summary: Sendable {
        /// The clip's name, or the script's for a scripted render; frame files are named after it.
        public var name: String
        /// The frames rendered, in order.
        public var frames: [FramePlan]
        /// The framing used.
        public var framing: Framing
        /// Which fit was used (`.content` when the stage was asked for but the document has none).
        public var fit: Framing.Fit
        /// The files written, in frame order.
        public var paths: [String]
    }

    /// The document to render.
    public var scene: RenderScene
    /// The clips to render, by name; `nil` renders every clip.
    public var clips: [String]?
    /// Output frames per second; `nil` uses the document's frame rate.
    public var fps: Double?
    /// How long to play each clip, in seconds; `nil` renders one pass. A clip shorter than this wraps (or rests on
    /// its last frame after its plays, format.md §4.10) while nested movies that keep their own time play on.
    public var duration: Double?
    /// Which frames of each clip. A range beyond a clip is an error when one clip is rendered; with several, each
    /// clip renders the part of the range it has (and it is an error only when no clip has any of it).
    public var selection: FramePlan.Selection = .all
    /// What to frame.
    public var fit: Framing.Fit = .stage
    /// The output size; `nil` keeps one document pixel per output pixel.
    public var size: (width: Int, height: Int)?
    /// The colour behind the scene.
    public var background: RGBAColor = .transparent
    /// PNG settings for frames.
    public var png: PNGEncodingOptions = .fast
    /// Parallel workers.
    public var jobs = 1
    /// Where frames go, as `<clip>-<frame, 4 digits>.png`; `nil` renders without writing frames.
    public var outputFolder: URL?
    /// Where the contact sheet goes; `nil` makes none.
    public var contactSheet: URL?
    /// The longest side of a contact-sheet cell.
    public var thumbnailSide = 160
    /// Refuse, before anything is written, a render in which no frame shows any sprite while the documents have
    /// sprites (``RenderError/Kind/nothingDrawn(frames:sprites:missingTextures:)``): a blank result is almost always
    /// a naming mismatch between skeleton and atlas. `keyframe render` sets it unless `--allow-empty` is given.
    public var failWhenNothingDrawn = false

    public init(scene: RenderScene) {
        self.scene = scene
    }

    /// Renders, reporting progress as (clip name, frames done, frames in that clip).
    ///
    /// - Throws: ``RenderError`` for an unknown clip, a bad setting, or a file that cannot be written.
    public func run(progress: (@Sendable (_ clip: String, _ done: Int, _ total: Int) -> Void)? = nil)
        throws(RenderError) -> [Summary]
    {
        let document = scene.document
        let chosen: [Clip]
        if let clips {
            var list: [Clip] = []
            for name in clips {
                guard let clip = document.clip(named: name) else {
                    throw RenderError(.unknownClip(name: name, available: document.clips.map(\.name)))
                }
                list.append(clip)
            }
            chosen = list
        } else {
            chosen = document.clips
        }
        guard !chosen.isEmpty else { throw RenderError(.invalidSetting("the document has no clips to render")) }
        let rate = fps ?? document.frameRate.framesPerSecond
        var summaries: [Summary] = []
        var cells: [ContactSheet.Cell] = []
        var firstRangeError: RenderError? = nil
        var sequences: [(clip: Clip, plans: [FramePlan])] = []
        for clip in chosen {
            var clipSelection = selection
            if case .range(let range) = selection, chosen.count > 1 {
                // Several clips of different lengths: each renders the part of the range it has.
                let count = FramePlan.frameCount(of: clip, documentRate: document.frameRate, fps: rate,
                                                 duration: duration)
                guard range.lowerBound < count else {
                    if firstRangeError == nil {
                        firstRangeError = RenderError(.invalidSetting(
                            "--frames \(range.lowerBound)..\(range.upperBound) is outside every clip; the longest has "
                                + "frames 0..\(chosen.map { FramePlan.frameCount(of: $0, documentRate: document.frameRate, fps: rate, duration: duration) }.max()! - 1)"))
                    }
                    continue
                }
                clipSelection = .range(range.lowerBound...min(range.upperBound, count - 1))
            }
            sequences.append((clip, try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: rate,
                                                        selection: clipSelection, duration: duration)))
        }
        if sequences.isEmpty, let firstRangeError { throw firstRangeError }
        try checkSomethingIsDrawn(sequences.flatMap(\.plans), scenes: [scene])
        try prepareOutputFolder()
        let labelPrefix: (Clip) -> String? = { chosen.count > 1 ? $0.name : nil }
        let side = try thumbnailSide(for: contactSheet == nil ? [] : sequences.flatMap { sequence in
            sequence.plans.map { ContactSheet.label(frame: $0.number, seconds: $0.seconds, prefix: labelPrefix(sequence.clip)) }
        })
        for (clip, plans) in sequences {
            let (summary, clipCells) = try renderSequence(
                name: clip.name, plans: plans, scenes: [scene], labelPrefix: labelPrefix(clip),
                thumbnailSide: side, progress: progress)
            summaries.append(summary)
            cells += clipCells
        }
        if let contactSheet {
            try RenderSession.writeContactSheet(cells, to: contactSheet)
        }
        return summaries
    }

    /// Renders frames planned elsewhere — e.g. from an animator script (``FramePlan/plans(for:scenes:documents:)``)
    /// — over several scenes; the first scene's stage frames the picture when ``fit`` is `.stage`. Frames are
    /// named `<name>-NNNN.png`.
    public func run(name: String, plans: [FramePlan], scenes: [RenderScene],
                    progress: (@Sendable (_ name: String, _ done: Int, _ total: Int) -> Void)? = nil)
        throws(RenderError) -> Summary
    {
        guard !plans.isEmpty else { throw RenderError(.invalidSetting("nothing to render: the script has no ticks")) }
        try checkSomethingIsDrawn(plans, scenes: scenes)
        try prepareOutputFolder()
        let side = try thumbnailSide(for: contactSheet == nil ? [] : plans.map {
            ContactSheet.label(frame: $0.number, seconds: $0.seconds)
        })
        let (summary, cells) = try renderSequence(name: name, plans: plans, scenes: scenes, labelPrefix: nil,
                                                  thumbnailSide: side, progress: progress)
        if let contactSheet { try RenderSession.writeContactSheet(cells, to: contactSheet) }
        return summary
    }

    /// With ``failWhenNothingDrawn``: throws when no layer of any of `plans` poses an item whose sprite the scene's
    /// atlases hold, although some scene's document has sprites. Poses are sampled until the first drawn item, so a
    /// render that draws costs one pose more.
    private func checkSomethingIsDrawn(_ plans: [FramePlan], scenes: [RenderScene]) throws(RenderError) {
        guard failWhenNothingDrawn else { return }
        let sprites = scenes.reduce(0) { $0 + $1.document.assets.sprites.count }
        guard sprites > 0 else { return }
        for plan in plans {
            for layer in plan.layers where scenes.indices.contains(layer.scene) {
                let scene = scenes[layer.scene]
                let pose = layer.pose(in: scene)
                if pose.items.contains(where: { scene.library.sprite($0.sprite) != nil }) { return }
            }
        }
        let missing = scenes.lazy.flatMap(\.document.diagnostics).first { $0.code == "textures-missing" }?.message
        throw RenderError(.nothingDrawn(frames: plans.count, sprites: sprites, missingTextures: missing))
    }

    private func prepareOutputFolder() throws(RenderError) {
        if let outputFolder {
            do {
                try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
            } catch {
                throw RenderError(.output(path: outputFolder.path, reason: "\(error.localizedDescription)"))
            }
        }
    }

    /// The contact-sheet picture side for frames with these captions (`nil` without a sheet):
    /// ``thumbnailSide``, or smaller so that every frame fits one sheet
    /// (``ContactSheet/pictureSide(count:labelWidth:preferred:maximumSide:)``).
    ///
    /// - Throws: ``RenderError`` when the frames cannot fit a sheet at all.
    private func thumbnailSide(for labels: [String]) throws(RenderError) -> Int? {
        guard contactSheet != nil else { return nil }
        let labelWidth = labels.map { BitmapFont.width(of: $0, scale: ContactSheet.fontScale) }.max() ?? 0
        guard let side = ContactSheet.pictureSide(count: labels.count, labelWidth: labelWidth,
                                                  preferred: thumbnailSide)
        else {
            throw RenderError(.invalidSetting(
                "a contact sheet of \(labels.count) frames does not fit in \(ContactSheet.maximumSide)×"
                    + "\(ContactSheet.maximumSide) pixels; choose fewer frames with --frames or --at"))
        }
        return side
    }

    /// Frames, renders and writes one sequence; returns its summary and contact-sheet cells.
    private func renderSequence(name: String, plans: [FramePlan], scenes: [RenderScene], labelPrefix: String?,
                                thumbnailSide: Int?, progress: (@Sendable (String, Int, Int) -> Void)?)
        throws(RenderError) -> (Summary, [ContactSheet.Cell])
    {
        let (framing, usedFit) = try Framing.make(plans: plans, scenes: scenes, fit: fit, size: size)
        let batch = BatchRenderer(scenes: scenes, framing: framing, background: background, png: png,
                                  jobs: jobs, thumbnailSide: thumbnailSide)
        let stem = RenderSession.fileStem(name)
        var sequenceProgress: (@Sendable (Int, Int) -> Void)? = nil
        if let progress {
            sequenceProgress = { done, total in progress(name, done, total) }
        }
        let fileName: @Sendable (FramePlan) -> String = { plan in
            RenderSession.frameFileName(stem: stem, number: plan.number)
        }
        let results = try batch.run(plans, into: outputFolder, fileName: fileName, progress: sequenceProgress)
        var cells: [ContactSheet.Cell] = []
        for result in results {
            if let thumbnail = result.thumbnail {
                cells.append(ContactSheet.Cell(
                    picture: thumbnail,
                    label: ContactSheet.label(frame: result.plan.number, seconds: result.plan.seconds,
                                              prefix: labelPrefix)))
            }
        }
        let summary = Summary(name: name, frames: plans, framing: framing, fit: usedFit,
                              paths: results.compactMap { (result: BatchRenderer.Result) in result.path })
        return (summary, cells)
    }

    /// Writes a contact sheet of `cells` to `url` atomically with the compact PNG preset.
    public static func writeContactSheet(_ cells: [ContactSheet.Cell], to url: URL) throws(RenderError) {
        let sheet = ContactSheet.compose(cells)
        var encoder = PNGEncoder(options: .compact)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        } catch {
            throw RenderError(.output(path: url.path, reason: "\(error.localizedDescription)"))
        }
        do { try encoder.write(sheet, to: url.path) } catch {
            throw RenderError(.output(path: url.path, reason: error.message))
        }
    }

    /// `walk-0007.png`: the clip's file stem and the frame number in at least four digits.
    public static func frameFileName(stem: String, number: Int) -> String {
        "\(stem)-\(String(number).leftPadded(to: 4)).png"
    }

    /// A clip name made safe for a file name: characters other than letters, digits, `.`, `-` and `_` become `_`.
    public static func fileStem(_ name: String) -> String {
        let safe = name.unicodeScalars.map { scalar -> Character in
            let ok = (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                && scalar.isASCII
            return ok ? Character(scalar) : "_"
        }
        let stem = String(safe)
        return stem.isEmpty || stem.hasPrefix(".") ? "clip" + stem : stem
    }
}
