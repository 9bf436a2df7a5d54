import Foundation
import KeyframeFiles
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
        /// Frame files of this clip in the output folder from earlier runs, numbered beyond this run's frames
        /// (e.g. left by a render at a higher rate); empty with ``RenderSession/clean``.
        public var staleFiles: [String] = []
        /// Frame files of this clip from earlier runs that ``RenderSession/clean`` removed.
        public var removedFiles: [String] = []
        /// What part of the selection (``RenderSession/selection``) lies beyond this clip and was not rendered, in
        /// words; `nil` when the clip has all of it.
        public var selectionNote: String? = nil
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
    /// Which frames of each clip. Each clip renders the part of a range (or of the times) it has, and its summary says
    /// what was beyond it (``Summary/selectionNote``); a selection that no clip reaches is an error. The rule is the
    /// same for one clip and for several.
    public var selection: FramePlan.Selection = .all
    /// What to frame.
    public var fit: Framing.Fit = .stage
    /// A document rectangle every clip is framed to instead of its stage or content (`nil`: ``fit`` decides).
    public var bounds: Rect? = nil
    /// Framings pinned by clip (or script) name, e.g. those a golden set recorded; they win over ``fit`` and
    /// ``bounds``. ``size``, when set, still scales the pinned rectangle to that size.
    public var pinnedFramings: [String: Framing.Region] = [:]
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
    /// Removes this clip's frame files from earlier runs (`<clip>-NNNN.png` in the output folder, regular files
    /// only) once every frame of this run is written; nothing else in the folder is touched.
    public var clean = false
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
        try run(reporting: RenderSession.perClip(progress))
    }

    /// Renders, reporting progress over the whole run (``Progress``: the clip being drawn and the overall count).
    ///
    /// Everything that can fail is checked before the first frame is drawn: clip names, the frame selection, the
    /// framing of every clip, the size of the whole output (``maximumTotalFrames``, ``maximumOutputBytes``), file
    /// names shared by two clips, and every output location (the frames folder, existing frame files, the contact
    /// sheet). Frame files older than this run are then removed (``clean``) or reported (``Summary/staleFiles``).
    ///
    /// - Throws: ``RenderError`` for an unknown clip, a bad setting, or a file that cannot be written.
    public func run(reporting progress: (@Sendable (Progress) -> Void)?) throws(RenderError) -> [Summary] {
        let document = scene.document
        let chosen: [Clip]
        if let clips {
            var list: [Clip] = []
            for name in clips {
                guard let clip = document.clip(named: name) else {
                    throw RenderError(.unknownClip(name: name, available: document.clips.map(\.name)))
                }
                if !list.contains(where: { $0.name == clip.name }) { list.append(clip) }
            }
            chosen = list
        } else {
            chosen = document.clips
        }
        guard !chosen.isEmpty else { throw RenderError(.invalidSetting("the document has no clips to render")) }
        let rate = fps ?? document.frameRate.framesPerSecond
        let counts = chosen.map {
            FramePlan.frameCount(of: $0, documentRate: document.frameRate, fps: rate, duration: duration)
        }
        // One rule for one clip or several: each clip renders the part of the selection it has, with a note when
        // part of it is beyond the clip; a selection that reaches no chosen clip fails.
        var sequences: [Sequence] = []
        for (clip, count) in zip(chosen, counts) {
            guard let (clipSelection, note) = RenderSession.part(of: selection, inClipOf: count, rate: rate) else {
                continue
            }
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: rate,
                                            selection: clipSelection, duration: duration)
            sequences.append(Sequence(name: clip.name, plans: plans, frameCount: count, clip: clip,
                                      labelPrefix: chosen.count > 1 ? clip.name : nil, selectionNote: note))
        }
        if sequences.isEmpty {
            throw RenderSession.selectionError(selection, clips: chosen, counts: counts, rate: rate)
        }
        return try render(sequences, scenes: [scene], rate: rate, progress: progress)
    }

    /// Renders frames planned elsewhere — e.g. from an animator script (``FramePlan/plans(for:scenes:documents:)``)
    /// — over several scenes; the first scene's stage frames the picture when ``fit`` is `.stage`. Frames are
    /// named `<name>-NNNN.png`. The same checks as ``run(reporting:)`` are made before the first frame.
    public func run(name: String, plans: [FramePlan], scenes: [RenderScene],
                    progress: (@Sendable (_ name: String, _ done: Int, _ total: Int) -> Void)? = nil)
        throws(RenderError) -> Summary
    {
        try run(name: name, plans: plans, scenes: scenes, reporting: RenderSession.perClip(progress))
    }

    /// ``run(name:plans:scenes:progress:)`` reporting ``Progress``.
    public func run(name: String, plans: [FramePlan], scenes: [RenderScene],
                    reporting progress: (@Sendable (Progress) -> Void)?) throws(RenderError) -> Summary
    {
        guard !plans.isEmpty else { throw RenderError(.invalidSetting("nothing to render: the script has no ticks")) }
        let sequence = Sequence(name: name, plans: plans, frameCount: plans.count, clip: nil, labelPrefix: nil)
        return try render([sequence], scenes: scenes, rate: fps ?? scene.document.frameRate.framesPerSecond,
                          progress: progress)[0]
    }

    /// A ``Progress`` reporter calling `callback` with (clip name, frames done, frames in that clip).
    private static func perClip(_ callback: (@Sendable (String, Int, Int) -> Void)?) -> (@Sendable (Progress) -> Void)? {
        guard let callback else { return nil }
        return { progress in callback(progress.name, progress.clipDone, progress.clipTotal) }
    }

    /// Progress over a whole run.
    public struct Progress: Sendable {
        /// The clip (or script) being drawn.
        public var name: String
        /// Frames of that clip finished, and its frame count in this run.
        public var clipDone: Int, clipTotal: Int
        /// Frames of the whole run finished, and the run's frame count.
        public var done: Int, total: Int
    }

    /// The most frames one run writes (over all its clips).
    public static let maximumTotalFrames = 100_000
    /// The most pixel data (4 bytes a pixel, before PNG compression) one run writes: 64 GiB.
    public static let maximumOutputBytes = 64 << 30

    /// One clip's (or script's) frames, planned.
    private struct Sequence {
        var name: String
        var plans: [FramePlan]
        /// Frames of a whole pass at the output rate (frame files numbered from here on are from other runs).
        var frameCount: Int
        /// The clip, when the sequence is one (content framing looks at all of its frames).
        var clip: Clip?
        var labelPrefix: String?
        /// What part of the selection was beyond the clip (``Summary/selectionNote``).
        var selectionNote: String? = nil
    }

    /// The part of `selection` that a clip of `count` frames at `rate` has, and a note naming what lies beyond it;
    /// `nil` when the clip has none of it.
    static func part(of selection: FramePlan.Selection, inClipOf count: Int, rate: Double)
        -> (selection: FramePlan.Selection, note: String?)?
    {
        let clipFrames = "the clip has frames 0..\(count - 1) at \(formatRate(rate)) fps"
        switch selection {
        case .all:
            return (selection, nil)
        case .range(let range):
            guard range.lowerBound < count else { return nil }
            guard range.upperBound >= count else { return (selection, nil) }
            return (.range(range.lowerBound...(count - 1)),
                    "--frames \(range.lowerBound)..\(range.upperBound) reaches beyond the clip: rendered "
                        + "\(range.lowerBound)..\(count - 1) (\(clipFrames))")
        case .times(let times):
            // Invalid times (negative, not finite) stay in, so that FramePlan names them.
            let inside = times.filter { !($0.isFinite && $0 >= 0) || ($0 * rate + 1e-9).rounded(.down) < Double(count) }
            guard !inside.isEmpty else { return nil }
            guard inside.count < times.count else { return (selection, nil) }
            let beyond = times.filter { !inside.contains($0) }.map { formatRate($0) }.joined(separator: " ")
            return (.times(inside), "--at \(beyond) is after the end of the clip and was not rendered (\(clipFrames))")
        }
    }

    /// The error for a selection that none of `clips` (with `counts` frames at `rate`) reaches.
    static func selectionError(_ selection: FramePlan.Selection, clips: [Clip], counts: [Int], rate: Double)
        -> RenderError
    {
        let longest = counts.max() ?? 0
        let frames = "frames 0..\(longest - 1) at \(formatRate(rate)) fps"
        switch selection {
        case .all:
            return RenderError(.invalidSetting("the chosen clips have no frames at \(formatRate(rate)) fps"))
        case .range(let range):
            let which = clips.count == 1 ? "clip \"\(clips[0].name)\", which has" : "every clip; the longest has"
            return RenderError(.invalidSetting(
                "--frames \(range.lowerBound)..\(range.upperBound) is outside \(which) \(frames)"))
        case .times(let times):
            let lasts = clips.count == 1 ? "clip \"\(clips[0].name)\", which lasts" : "every clip; the longest lasts"
            return RenderError(.invalidSetting(
                "--at \(times.map { formatRate($0) }.joined(separator: " ")) is after the end of \(lasts) "
                    + "\(formatRate(Double(longest) / rate)) s (\(frames))"))
        }
    }

    /// Checks everything, then renders `sequences`, writes the contact sheet and cleans or reports stale frames.
    private func render(_ sequences: [Sequence], scenes: [RenderScene], rate: Double,
                        progress: (@Sendable (Progress) -> Void)?) throws(RenderError) -> [Summary]
    {
        // 1. Frame counts and file names.
        let totalFrames = sequences.reduce(0) { $0 + $1.plans.count }
        guard totalFrames <= RenderSession.maximumTotalFrames else {
            throw RenderError(.invalidSetting(
                "this render would write \(totalFrames) frames, more than the \(RenderSession.maximumTotalFrames) "
                    + "Keyframe writes in one run; choose fewer with --clip, --frames, --at or a lower --fps"))
        }
        try checkNameCollisions(sequences)
        // 2. Framing of every sequence, before anything is drawn (a scene too large fails here).
        var framings: [(framing: Framing, fit: Framing.Fit)] = []
        var outputBytes = 0.0
        for sequence in sequences {
            let framed: (framing: Framing, fit: Framing.Fit)
            if let region = pinnedFramings[sequence.name] {
                framed = (try Framing(region: region, size: size), fit)
            } else if let bounds {
                framed = (try Framing.make(bounds: bounds, size: size), fit)
            } else {
                framed = try Framing.make(plans: framingPlans(sequence, rate: rate), scenes: scenes, fit: fit, size: size)
            }
            framings.append(framed)
            outputBytes += Double(sequence.plans.count) * Double(framed.framing.width) * Double(framed.framing.height) * 4
        }
        guard outputBytes <= Double(RenderSession.maximumOutputBytes) else {
            throw RenderError(.invalidSetting(
                "this render would write \(totalFrames) frames holding \(RenderSession.gibibytes(outputBytes)) of "
                    + "pixels, more than the \(RenderSession.gibibytes(Double(RenderSession.maximumOutputBytes))) "
                    + "Keyframe writes in one run; choose fewer frames (--frames, --at, a lower --fps) or a smaller --size"))
        }
        // 3. Something to see, then every output location.
        try checkSomethingIsDrawn(sequences.flatMap(\.plans), scenes: scenes)
        try checkOutputs(sequences)
        let side = try thumbnailSide(for: contactSheet == nil ? [] : sequences.flatMap { sequence in
            sequence.plans.map { ContactSheet.label(frame: $0.number, seconds: $0.seconds, prefix: sequence.labelPrefix) }
        })
        // 4. Draw.
        let counter = RunCounter(total: totalFrames)
        var summaries: [Summary] = []
        var cells: [ContactSheet.Cell] = []
        for (sequence, framed) in zip(sequences, framings) {
            var sequenceProgress: (@Sendable (Int, Int) -> Void)? = nil
            if let progress {
                let name = sequence.name
                sequenceProgress = { done, clipTotal in
                    progress(Progress(name: name, clipDone: done, clipTotal: clipTotal,
                                      done: counter.advance(), total: totalFrames))
                }
            }
            let (summary, clipCells) = try renderSequence(sequence, framing: framed.framing, fit: framed.fit,
                                                          scenes: scenes, thumbnailSide: side, progress: sequenceProgress)
            summaries.append(summary)
            cells += clipCells
        }
        if let contactSheet {
            try RenderSession.writeContactSheet(cells, to: contactSheet)
        }
        // 5. Frames from earlier runs.
        if let outputFolder {
            for index in summaries.indices {
                let written = Set(summaries[index].paths)
                let older = RenderSession.frameFiles(stem: RenderSession.fileStem(summaries[index].name),
                                                     in: outputFolder.path)
                    .filter { !written.contains(outputFolder.appendingPathComponent($0.name).path) }
                if clean {
                    for file in older {
                        let path = outputFolder.appendingPathComponent(file.name).path
                        if RenderSession.removeRegularFile(path) { summaries[index].removedFiles.append(path) }
                    }
                } else {
                    summaries[index].staleFiles = older.filter { $0.number >= sequences[index].frameCount }
                        .map { outputFolder.appendingPathComponent($0.name).path }
                }
            }
        }
        return summaries
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

    /// The plans content framing looks at: every frame of the clip at the output rate (so that any subset of
    /// frames is framed exactly as the full render frames it), plus the selected plans themselves (an `--at` time
    /// between two frames is never cut off). A clip too long to render whole is sampled at
    /// ``FramePlan/maximumFrames`` evenly spaced frames.
    private func framingPlans(_ sequence: Sequence, rate: Double) -> [FramePlan] {
        guard let clip = sequence.clip else { return sequence.plans }
        if fit == .stage, let stage = scene.document.stage, stage.width > 0, stage.height > 0 { return sequence.plans }
        let documentRate = scene.document.frameRate
        var plans: [FramePlan]
        if sequence.frameCount <= FramePlan.maximumFrames {
            plans = (try? FramePlan.plans(for: clip, documentRate: documentRate, fps: rate, selection: .all,
                                          duration: duration)) ?? []
        } else {
            let step = Double(sequence.frameCount) / Double(FramePlan.maximumFrames)
            let times = (0..<FramePlan.maximumFrames).map { index in (Double(index) * step).rounded(.down) / rate }
            plans = (try? FramePlan.plans(for: clip, documentRate: documentRate, fps: rate, selection: .times(times),
                                          duration: duration)) ?? []
        }
        let full = Set(plans.map(\.seconds))
        plans += sequence.plans.filter { !full.contains($0.seconds) }
        return plans
    }

    /// Refuses two sequences whose frames would be written under the same names (`walk/left` and `walk_left`
    /// both give `walk_left-NNNN.png`). Names differing only in case are refused too: they are the same file on
    /// macOS and Windows file systems.
    private func checkNameCollisions(_ sequences: [Sequence]) throws(RenderError) {
        guard outputFolder != nil else { return }
        var seen: [String: String] = [:]
        for sequence in sequences {
            let stem = RenderSession.fileStem(sequence.name)
            if let other = seen[stem.lowercased()] {
                throw RenderError(.invalidSetting(
                    "clips \"\(other)\" and \"\(sequence.name)\" would both be written as \(stem)-NNNN.png (file names "
                        + "keep letters, digits, '.', '-', '_' and '~', and ignore case); render them into different "
                        + "folders (--clip NAME -o DIR)"))
            }
            seen[stem.lowercased()] = sequence.name
        }
    }

    /// Checks every place this run writes, before the first frame: the frames folder (created), each frame file
    /// that already exists (it must be a regular file, or a link to one, to be replaced), and the contact sheet
    /// (not one of the frames, and writable).
    private func checkOutputs(_ sequences: [Sequence]) throws(RenderError) {
        var framePaths = Set<String>()
        if let outputFolder {
            do { try AtomicFile.prepareFolder(outputFolder.path) } catch {
                throw RenderError(.output(path: error.path, reason: error.reason))
            }
            for sequence in sequences {
                let stem = RenderSession.fileStem(sequence.name)
                for plan in sequence.plans {
                    let path = outputFolder.appendingPathComponent(
                        RenderSession.frameFileName(stem: stem, number: plan.number)).path
                    framePaths.insert(URL(fileURLWithPath: path).standardizedFileURL.path)
                    do { try AtomicFile.checkReplaceable(path) } catch {
                        throw RenderError(.output(path: error.path, reason: error.reason))
                    }
                }
            }
        }
        if let contactSheet {
            if framePaths.contains(contactSheet.standardizedFileURL.path) {
                throw RenderError(.invalidSetting(
                    "--contact-sheet \(contactSheet.path) is also the name of a frame this render writes; "
                        + "choose another name"))
            }
            do { try AtomicFile.checkWritable(contactSheet.path) } catch {
                throw RenderError(.output(path: error.path, reason: error.reason))
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

    /// Renders and writes one sequence with its framing; returns its summary and contact-sheet cells.
    private func renderSequence(_ sequence: Sequence, framing: Framing, fit usedFit: Framing.Fit, scenes: [RenderScene],
                                thumbnailSide: Int?, progress: (@Sendable (Int, Int) -> Void)?)
        throws(RenderError) -> (Summary, [ContactSheet.Cell])
    {
        let batch = BatchRenderer(scenes: scenes, framing: framing, background: background, png: png,
                                  jobs: jobs, thumbnailSide: thumbnailSide)
        let stem = RenderSession.fileStem(sequence.name)
        let fileName: @Sendable (FramePlan) -> String = { plan in
            RenderSession.frameFileName(stem: stem, number: plan.number)
        }
        let results = try batch.run(sequence.plans, into: outputFolder, fileName: fileName, progress: progress)
        var cells: [ContactSheet.Cell] = []
        for result in results {
            if let thumbnail = result.thumbnail {
                cells.append(ContactSheet.Cell(
                    picture: thumbnail,
                    label: ContactSheet.label(frame: result.plan.number, seconds: result.plan.seconds,
                                              prefix: sequence.labelPrefix)))
            }
        }
        var summary = Summary(name: sequence.name, frames: sequence.plans, framing: framing, fit: usedFit,
                              paths: results.compactMap { (result: BatchRenderer.Result) in result.path })
        summary.selectionNote = sequence.selectionNote
        return (summary, cells)
    }

    /// Writes a contact sheet of `cells` to `url` atomically with the compact PNG preset.
    public static func writeContactSheet(_ cells: [ContactSheet.Cell], to url: URL) throws(RenderError) {
        let sheet = ContactSheet.compose(cells)
        var encoder = PNGEncoder(options: .compact)
        do { try encoder.write(sheet, to: url.path) } catch {
            throw RenderError(.output(path: url.path, reason: error.message))
        }
    }

    /// `walk-0007.png`: the clip's file stem and the frame number in at least four digits.
    public static func frameFileName(stem: String, number: Int) -> String {
        "\(stem)-\(String(number).leftPadded(to: 4)).png"
    }

    /// A clip name made safe for a file name by Keyframe's one naming rule (``FileName/stem(_:)``): letters,
    /// marks and digits of any script, `.`, `-`, `_` and `~` are kept, anything else becomes `_`.
    public static func fileStem(_ name: String) -> String { FileName.stem(name) }
}

extension RenderSession {
    /// The frame files of `stem` in `folder`: names `<stem>-<at least four digits>.png`, sorted by number.
    static func frameFiles(stem: String, in folder: String) -> [(name: String, number: Int)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let prefix = stem + "-"
        var found: [(name: String, number: Int)] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".png") {
            let digits = name.dropFirst(prefix.count).dropLast(4)
            guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
                continue
            }
            found.append((name, number))
        }
        return found.sorted { $0.number < $1.number }
    }

    /// Removes `path` when it is a regular file (never a folder, link or special file, nor an input of the running
    /// command, ``AtomicFile/isProtectedInput(_:)``); returns whether it did.
    static func removeRegularFile(_ path: String) -> Bool {
        guard !AtomicFile.isProtectedInput(path), let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return false }
        return (try? FileManager.default.removeItem(atPath: path)) != nil
    }

    /// `1.5 GiB`.
    static func gibibytes(_ bytes: Double) -> String {
        let value = bytes / Double(1 << 30)
        return value >= 10 ? "\(Int(value.rounded())) GiB" : "\((value * 10).rounded() / 10) GiB"
    }
}

/// Counts finished frames over a whole run, across clips.
private final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    let total: Int

    init(total: Int) { self.total = total }

    func advance() -> Int {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        return done
    }
}
