#if canImport(Glibc)  // LottieWebPlayer drives Chromium through ChromiumSession, Linux-only.
import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// lottie-web 5.13, the player web apps ship, plays Keyframe's Lottie export of every bundled sample and every
/// Animate, DragonBones and Flump corpus export with each of its renderers (svg, canvas, html) in headless Chromium,
/// compared by pixels with what `keyframe render` draws: the first clip, every frame of the samples (both profiles),
/// the first, middle and last frame of the corpus exports (`portable`; `KEYFRAME_LOTTIE_WEB_PROFILES=portable,full`
/// adds `full`), at the file's own size.
///
/// One browser serves the whole class; each export is loaded once per renderer and all its frames are shown on that
/// page (`goToAndStop`, a screenshot of the animation's rectangle). What the export declares it cannot show (filters;
/// in `portable`, blend modes) is drawn on Keyframe's side as the export writes it; meshes are exported and drawn.
///
/// A frame must meet the criterion (every channel's mean ≤ 1/255, ≤ 2 % of pixels off by more than 8/255).
/// The frames where a renderer's drawing of pictures keeps it from that (the canvas renderer's unsmoothed picture
/// edges, the html renderer's resampling; docs/conformance.md) are held instead to their own figures, recorded in
/// `LottieWebFrameFigures.json` (`KEYFRAME_LOTTIE_WEB_RECORD=1` re-records), plus a small margin.
/// `testComparisonCatchesALayerMovedBy1Pixel` shows that a layer moved by one pixel fails either bound.
final class LottieWebConformanceTests: XCTestCase {
    /// The browser, started by the first test that needs it and closed after the class's last test.
    nonisolated(unsafe) private static var shared: LottieWebPlayer?

    static func player() throws -> LottieWebPlayer {
        if let shared { return shared }
        let player = try LottieWebPlayer()
        shared = player
        return player
    }

    override class func tearDown() {
        shared?.close()
        shared = nil
        super.tearDown()
    }

    static let samples = ["animate-walker", "animate-bouncer-long", "bta-spinner", "flump-hopbot", "dragonbones-waver",
                          "animate-blend"]
    /// Frames per sample clip: every frame of clips up to this long.
    static let frameLimit = 48
    /// Frames per corpus export: first, middle and last (`KEYFRAME_LOTTIE_WEB_CORPUS_FRAMES` spreads more).
    static let corpusFrameLimit = Int(ProcessInfo.processInfo.environment["KEYFRAME_LOTTIE_WEB_CORPUS_FRAMES"] ?? "") ?? 3

    /// Figures of the frames that miss the criterion in some renderer, by `export/profile/renderer`.
    static let frameFigures = PlayerFrameFigures.load("LottieWebFrameFigures.json")
    static let recording = ProcessInfo.processInfo.environment["KEYFRAME_LOTTIE_WEB_RECORD"] == "1"
    /// How much worse than recorded a recorded frame may be (Chromium and Keyframe are deterministic; the margin
    /// absorbs small changes of the export or the browser).
    static let margin = (mean: 0.25, off: 0.005)

    /// The profiles the corpus tests export (`portable` unless `KEYFRAME_LOTTIE_WEB_PROFILES` names others).
    static let corpusProfiles: [LottieExportSettings.Profile] = {
        let names = (ProcessInfo.processInfo.environment["KEYFRAME_LOTTIE_WEB_PROFILES"] ?? "portable")
            .split(separator: ",").map(String.init)
        return LottieExportSettings.Profile.allCases.filter { names.contains($0.rawValue) }
    }()

    /// Whether frame `frame` of `key` is close enough: the criterion, or within the margin of its recorded
    /// figures.
    static func acceptable(_ difference: FrameDifference, key: String, frame: Int) -> Bool {
        if difference.passes { return true }
        guard let bound = frameFigures.bound(key: key, frame: frame) else { return false }
        return difference.worstMean <= bound.mean + margin.mean && difference.offShare <= bound.off + margin.off
    }

    struct Figures {
        var name: String
        var profile: String
        var renderer: String
        var frames = 0
        var size = (0, 0)
        var worstMean = 0.0
        var worstOff = 0.0
        var sumMean = 0.0
        var passing = 0
        var failures: [String] = []
        /// Why the figures are printed but not asserted (`nil`: asserted).
        var unasserted: String? = nil

        var line: String {
            String(format: "| %@ | %@ | %@ | %d | %d×%d | %.3f | %.3f | %.2f %% | %d/%d |", name, profile, renderer,
                   frames, size.0, size.1, sumMean / Double(max(frames, 1)), worstMean, worstOff * 100, passing, frames)
                + (unasserted.map { " \($0) |" } ?? " |")
        }
    }

    func testSamplesPlayTheSameInLottieWeb() throws {
        try check(Self.samples.map { TestPaths.packageRoot.appendingPathComponent("Samples/\($0)") },
                  frames: Self.frameLimit, profiles: LottieExportSettings.Profile.allCases)
    }

    func testAnimateCorpusPlaysTheSameInLottieWeb() throws {
        try check(try TestPaths.corpus("animate_atlas"), frames: Self.corpusFrameLimit,
                  profiles: Self.corpusProfiles)
    }

    func testDragonBonesCorpusPlaysTheSameInLottieWeb() throws {
        try check(try TestPaths.corpus("dragonbones"), frames: Self.corpusFrameLimit,
                  profiles: Self.corpusProfiles)
    }

    func testFlumpCorpusPlaysTheSameInLottieWeb() throws {
        try check(try TestPaths.corpus("flump") + (try TestPaths.corpus("flump_xml")), frames: Self.corpusFrameLimit,
                  profiles: Self.corpusProfiles)
    }

    private func check(_ exports: [URL], frames: Int, profiles: [LottieExportSettings.Profile]) throws {
        XCTAssertFalse(exports.isEmpty)
        let player = try Self.player()
        var lines: [String] = []
        for export in exports {
            for profile in profiles {
                for figures in try conformance(of: export, profile: profile, frameLimit: frames, player: player) {
                    lines.append(figures.line)
                    if let reason = figures.unasserted, let first = figures.failures.first {
                        print("not asserted (\(reason)), \(figures.failures.count) frames: \(first)")
                    } else {
                        for failure in figures.failures { XCTFail(failure) }
                    }
                }
            }
        }
        if Self.recording { try Self.frameFigures.save() }
        print("lottie-web conformance (export | profile | renderer | frames | size | mean of worst channel mean | worst channel mean | worst share off > 8/255 | frames meeting the issue's criterion):\n"
              + lines.joined(separator: "\n"))
    }

    /// Plays the first clip of `export` with every renderer and compares each chosen frame with Keyframe's render.
    func conformance(of export: URL, profile: LottieExportSettings.Profile, frameLimit: Int,
                     player: LottieWebPlayer) throws -> [Figures] {
        let s = try LottieConformanceSubject(export, profile: profile)
        let chosen = s.chosenFrames(limit: frameLimit)
        let expected = chosen.map { s.expected($0) }
        let usesTrackMattes = String(decoding: s.json, as: UTF8.self).contains("\"tt\":")
        var all: [Figures] = []
        for renderer in LottieWebPlayer.Renderer.allCases {
            var figures = Figures(name: s.name, profile: profile.rawValue, renderer: renderer.rawValue,
                                  frames: chosen.count, size: (s.framing.width, s.framing.height))
            if renderer == .html && usesTrackMattes {
                figures.unasserted = "the html renderer draws no track mattes"
            }
            let info: LottieWebPlayer.Info
            do {
                info = try player.load(s.json, renderer: renderer)
            } catch {
                figures.failures.append("\(s.name) (\(profile), \(renderer)): \(error)")
                all.append(figures)
                continue
            }
            XCTAssertEqual(info.width, s.framing.width, "\(s.name) (\(profile), \(renderer)): Lottie width")
            XCTAssertEqual(info.height, s.framing.height, "\(s.name) (\(profile), \(renderer)): Lottie height")
            XCTAssertEqual(info.frames, Double(s.plans.count), accuracy: 1e-6,
                           "\(s.name) (\(profile), \(renderer)): frame count")
            let key = "\(s.name)/\(profile.rawValue)/\(renderer.rawValue)"
            for (frame, wanted) in zip(chosen, expected) {
                let actual = try player.render(frames: [frame])[0]
                let difference = FrameDifference(actual, wanted)
                figures.worstMean = max(figures.worstMean, difference.worstMean)
                figures.sumMean += difference.worstMean
                figures.worstOff = max(figures.worstOff, difference.offShare)
                if difference.passes { figures.passing += 1 }
                if Self.recording {
                    guard figures.unasserted == nil else { continue }
                    if difference.passes {
                        Self.frameFigures.remove(key: key, frame: frame)
                    } else {
                        Self.frameFigures.record(key: key, frame: frame, difference)
                    }
                } else if !Self.acceptable(difference, key: key, frame: frame)
                    && !s.explainedByDeclaredBlendModes(frame, actual: actual, against: difference,
                                                        label: "lottie-web \(renderer.rawValue)",
                                                        acceptable: { Self.acceptable($0, key: key, frame: frame) })
                {
                    let stem = "lottie-web-\(s.name)-\(profile.rawValue)-\(renderer.rawValue)-\(frame)"
                    let artifact = BitmapComparison.compare(actual, wanted, tolerance: 8).writeArtifacts(
                        named: stem, actual: actual, directory: BitmapComparison.artifactDirectory,
                        encoder: { bitmap in var encoder = PNGEncoder(); return try encoder.encode(bitmap) })
                    var encoder = PNGEncoder()
                    try? encoder.write(wanted, to: BitmapComparison.artifactDirectory + "/\(stem).expected.png")
                    let bound = Self.frameFigures.bound(key: key, frame: frame).map {
                        String(format: "recorded %.3f, %.2f %%", $0.mean, $0.off * 100) } ?? "not recorded"
                    figures.failures.append(String(
                        format: "%@ (%@, lottie-web %@) frame %d: differs from keyframe render: channel means %@, %.2f %% of pixels off by > 8/255 (%@; diff: %@)",
                        s.name, profile.rawValue, renderer.rawValue, frame,
                        difference.meanPerChannel.map { String(format: "%.3f", $0) }.joined(separator: "/"),
                        difference.offShare * 100, bound, artifact ?? "not written"))
                }
            }
            all.append(figures)
        }
        return all
    }

    /// The control: with every renderer, the comparison fails when one layer of a sample's export is moved by one
    /// pixel — at frame 0, held to the criterion, and at the sample's worst recorded frame, held to its
    /// recorded figures. The layer is found through the Lottie format alone (of the top-level, unparented layers
    /// shown at frame 0, the one whose move changes the renderer's frame 0 most), so the control holds whatever
    /// structure the exporter writes.
    func testComparisonCatchesALayerMovedBy1Pixel() throws {
        let player = try Self.player()
        var lines: [String] = []
        var recordedChecked = 0
        // animate-blend's portable export misses the render by the blend modes it declares, so it cannot be the
        // unperturbed side of this control.
        for sample in Self.samples where sample != "animate-blend" {
            let s = try LottieConformanceSubject(TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"),
                                                 profile: .portable)
            guard case .object(let root) = try JSONParser.parse(s.json), case .array(let layers)? = root["layers"]
            else { return XCTFail("\(sample): no layers") }
            for renderer in LottieWebPlayer.Renderer.allCases {
                let key = "\(s.name)/portable/\(renderer.rawValue)"
                var frames = [0]
                if let worst = (0..<s.plans.count).compactMap({ frame in
                    Self.frameFigures.bound(key: key, frame: frame).map { (frame, $0.mean) } }).max(by: { $0.1 < $1.1 })
                {
                    frames.append(worst.0)
                    recordedChecked += 1
                }
                try player.load(s.json, renderer: renderer)
                let original = try player.render(frames: [0])[0]
                var best: (index: Int, changed: Int, json: [UInt8])?
                for index in LottieConformanceSubject.movableLayers(root).prefix(8) {
                    guard let moved = LottieConformanceSubject.moving(layers[index], byX: 1) else { continue }
                    var perturbed = root
                    var newLayers = layers
                    newLayers[index] = moved
                    perturbed["layers"] = .array(newLayers)
                    let json = JSONWriter.writeCompact(.object(perturbed))
                    try player.load(json, renderer: renderer)
                    let changed = BitmapComparison.compare(try player.render(frames: [0])[0], original, tolerance: 8)
                        .differingPixels
                    if changed > (best?.changed ?? 0) { best = (index, changed, json) }
                }
                guard let best else {
                    XCTFail("\(key): no top-level layer whose move changes frame 0")
                    continue
                }
                try player.load(best.json, renderer: renderer)
                let moved = try player.render(frames: frames)
                try player.load(s.json, renderer: renderer)
                let unmoved = try player.render(frames: frames)
                for (i, frame) in frames.enumerated() {
                    let expected = s.expected(frame)
                    let before = FrameDifference(unmoved[i], expected)
                    let after = FrameDifference(moved[i], expected)
                    XCTAssertTrue(Self.acceptable(before, key: key, frame: frame),
                                  "\(key) frame \(frame): the unmoved export fails (\(before.meanPerChannel), \(before.offShare))")
                    XCTAssertFalse(Self.acceptable(after, key: key, frame: frame),
                                   "\(key) frame \(frame): layer \(best.index) moved by 1 px passes (\(after.meanPerChannel), \(after.offShare))")
                    lines.append(String(format: "| %@ | %@ | %d | %@ | %.3f / %.2f %% | %.3f / %.2f %% |", sample,
                                        renderer.rawValue, frame, layers[best.index]["nm"]?.stringValue ?? "?",
                                        before.worstMean, before.offShare * 100, after.worstMean, after.offShare * 100))
                }
            }
        }
        print("lottie-web control (sample | renderer | frame | layer moved 1 px | unmoved: worst channel mean / share off | moved):\n"
              + lines.joined(separator: "\n"))
        print("lottie-web control: \(recordedChecked) recorded frames checked")
    }

    /// Why the player's page styles images as blocks: lottie-web's html renderer places each picture as an inline
    /// `<img>`, and on a page that leaves images inline (the browser's default) a picture shorter than the text line
    /// sits on its baseline, several pixels below its place. The walker's frame 0 (pictures on whole pixels, every
    /// renderer within 0.02/255 on the styled page) shows it; the svg renderer, which draws SVG `<image>` elements,
    /// is the same on both pages.
    func testHTMLRendererNeedsBlockImagesOnThePage() throws {
        let s = try LottieConformanceSubject(TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker"),
                                             profile: .portable)
        let expected = s.expected(0)
        let unstyled = try LottieWebPlayer(unstyledImages: true)
        defer { unstyled.close() }
        var figures: [String] = []
        for (renderer, shouldPass) in [(LottieWebPlayer.Renderer.html, false), (.svg, true)] {
            try unstyled.load(s.json, renderer: renderer)
            let difference = FrameDifference(try unstyled.render(frames: [0])[0], expected)
            XCTAssertEqual(difference.passes, shouldPass,
                           "\(renderer) on an unstyled page: \(difference.meanPerChannel), \(difference.offShare)")
            figures.append(String(format: "%@ %.3f / %.2f %%", renderer.rawValue, difference.worstMean,
                                  difference.offShare * 100))
        }
        print("lottie-web on a page without `img { display: block }`, walker frame 0: " + figures.joined(separator: ", "))
    }

    /// `portable` plays masked clips in the players from one file: the bouncer sample (a mask over two nested symbols,
    /// every frame) and `flxanimate05-mom-bg-mask`, each exported once, played by lottie-web's three renderers (this
    /// class's bound) and by rlottie (`RLottieConformanceTests`' bound: the criterion, else the compensated
    /// one after undoing rlottie's image alpha and a 3 × 3 blur).
    func testMaskedClipsPlayInLottieWebAndRLottieFromOneFile() throws {
        var exports = [TestPaths.packageRoot.appendingPathComponent("Samples/animate-bouncer-long")]
        exports += try TestPaths.corpus("animate_atlas").filter { $0.lastPathComponent == "flxanimate05-mom-bg-mask" }
        XCTAssertEqual(exports.count, 2)
        let player = try Self.player()
        for export in exports {
            let s = try LottieConformanceSubject(export, profile: .portable)
            let text = String(decoding: s.json, as: UTF8.self)
            // A mask over a filtered node is drawn into the node's baked pictures (flxanimate05-mom-bg-mask's
            // background); any other mask is a mask path.
            let baked = s.result.diagnostics.contains { $0.code == "lottie-filter-baked" }
            XCTAssertTrue(text.contains("\"masksProperties\"") || baked, "\(s.name): the export has no masks")
            XCTAssertFalse(text.contains("\"tt\":"), "\(s.name): the portable export uses a track matte")
            let frames = s.chosenFrames(limit: Self.frameLimit)
            let expected = frames.map { s.expected($0) }
            let rlottie = try XCTUnwrap(RLottiePlayer(json: s.json, key: "\(s.name)-masked"), "\(s.name): rlottie refuses it")
            for (frame, wanted) in zip(frames, expected) {
                let actual = rlottie.render(frame: frame)
                let raw = FrameDifference(actual, wanted)
                let compensated = raw.passes ? raw
                    : FrameDifference(actual.undoingRLottieImageAlpha().boxBlurred(), wanted.boxBlurred(), offBy: 32)
                XCTAssertTrue(compensated.worstMean <= RLottieConformanceTests.compensatedMeanLimit
                              && compensated.offShare <= RLottieConformanceTests.compensatedOffLimit,
                              "\(s.name) frame \(frame) in rlottie: \(compensated.meanPerChannel), \(compensated.offShare)")
            }
            for renderer in LottieWebPlayer.Renderer.allCases {
                try player.load(s.json, renderer: renderer)
                let key = "\(s.name)/portable/\(renderer.rawValue)"
                for (frame, wanted) in zip(frames, expected) {
                    let difference = FrameDifference(try player.render(frames: [frame])[0], wanted)
                    XCTAssertTrue(Self.acceptable(difference, key: key, frame: frame),
                                  "\(key) frame \(frame): \(difference.meanPerChannel), \(difference.offShare)")
                }
            }
        }
    }

    /// Labels are markers: lottie-web's `goToAndStop(markerName)` shows the frame `keyframe render --clip <label>`
    /// shows, and rlottie reads the same markers. The walker's whole-timeline file marks `walk` and `wave`; the
    /// hopbot's `robot` file marks its Flump labels `hop` and `wave`; the single files of the waver (two DragonBones
    /// animations of one armature) and of the hopbot (movies and labels) mark every clip. Each marker's frame is
    /// compared, in the svg renderer, with the clip's first frame drawn by Keyframe at its own framing, which sits
    /// in the file's canvas where the clip's framing lies in the file's.
    func testMarkersShowTheFramesKeyframeRenderShowsForTheirClips() throws {
        let player = try Self.player()
        var checked = 0
        for (sample, clipName, single) in [("animate-walker", "walker", false), ("flump-hopbot", "robot", false),
                                           ("dragonbones-waver", nil, true), ("flump-hopbot", nil, true)] as [(String, String?, Bool)] {
            let url = TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)")
            let document = try Importer.importDocument(at: url)
            let library = try AtlasLibrary(document: document, folder: url)
            let scene = RenderScene(document: document, library: library)
            var options = ExportOptions(clips: clipName.map { [$0] })
            options.lottie.singleFile = single
            let result = try XCTUnwrap(Exporters.exporter(for: .lottie)).export(document, assetsFolder: url, options: options)
            let json = try XCTUnwrap(result.clips.first).main.bytes
            // Where each clip lies in root space, and so the file's own origin.
            func framing(_ clip: Clip) throws -> Framing {
                let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                fps: document.frameRate.framesPerSecond, selection: .all)
                return try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
            }
            let fileClips = clipName.map { name in document.clips.filter { $0.name == name } } ?? document.clips
            let origin = try fileClips.map { -(try framing($0)).rootToDevice.tx }.min()!
            let originY = try fileClips.map { -(try framing($0)).rootToDevice.ty }.min()!
            // The expected markers: a file of one clip marks the other clips within it (Flump labels without
            // their movie's name); the single file marks every clip.
            var expected: [(name: String, clip: Clip, start: Double)] = []
            if let clipName, let host = document.clip(named: clipName) {
                for clip in document.clips where clip.name != host.name && clip.composition == host.composition
                    && clip.start.value >= host.start.value
                    && clip.start.value + clip.duration.value <= host.start.value + host.duration.value
                {
                    let name = clip.name.hasPrefix(host.name + ":") ? String(clip.name.dropFirst(host.name.count + 1)) : clip.name
                    expected.append((name, clip, clip.start.value - host.start.value))
                }
            } else {
                expected = document.clips.map { ($0.name, $0, -1) }
            }
            XCTAssertFalse(expected.isEmpty, sample)
            let info = try player.load(json, renderer: .svg)
            // lottie-web reads some names as data (markerParser: JSON, or `key:value` lines); such a marker has no name
            // there, and the export says so.
            XCTAssertEqual(info.markers.count, expected.count, "\(sample): lottie-web's markers")
            let rlottie = try XCTUnwrap(RLottiePlayer(json: json, key: "\(sample)-markers-\(single)"))
            XCTAssertEqual(rlottie.markers.map(\.name), expected.map(\.name), "\(sample): rlottie's markers")
            for ((name, clip, start), marker) in zip(expected, info.markers) {
                let readable = marker.name == name
                XCTAssertTrue(readable || marker.name.isEmpty, "\(sample): lottie-web names \(name) \(marker.name)")
                if start >= 0 { XCTAssertEqual(marker.start, start, "\(sample) \(name)") }
                XCTAssertEqual(marker.duration, Double(clip.duration.value.rounded(.up)), "\(sample) \(name)")
                XCTAssertEqual(rlottie.markers.first { $0.name == name }?.start, Int(marker.start), "\(sample) \(name)")
                // Keyframe's first frame of the clip, at its own framing.
                let clipFraming = try framing(clip)
                var renderer = FrameRenderer()
                var wanted = Bitmap(width: clipFraming.width, height: clipFraming.height)
                let pose = LottieConformanceSubject.asExported(scene.sampler.sample(clip: clip, time: Frames(0)),
                                                               profile: .portable)
                renderer.render(pose, library: library, framing: clipFraming, background: .transparent, into: &wanted)
                XCTAssertEqual(readable, !result.diagnostics.contains {
                    $0.code == "lottie-marker-name" && $0.message.contains("\"\(name)\"") }, "\(sample) \(name)")
                // lottie-web finds the marker by name, unless it reads the name as data (then by its frame).
                let frame = readable ? try player.render(marker: name) : try player.render(frames: [Int(marker.start)])[0]
                let rect = PixelRect(x: Int((-clipFraming.rootToDevice.tx - origin).rounded()),
                                     y: Int((-clipFraming.rootToDevice.ty - originY).rounded()),
                                     width: clipFraming.width, height: clipFraming.height)
                let difference = FrameDifference(frame.cropped(to: rect), wanted)
                // A frame showing a mesh (the waver's flag, mostly edge) is held to the mesh bound instead
                // (LottieMeshConformanceTests: 3 × 3 blur, mean ≤ 3/255, ≤ 5 % off by > 32/255).
                let meshes = pose.items.contains { $0.mesh != nil }
                let meshBound = LottieMeshConformanceTests.passes(
                    LottieMeshConformanceTests.compensated(frame.cropped(to: rect), wanted, rlottie: false))
                XCTAssertTrue(difference.passes || (meshes && meshBound),
                              "\(sample) marker \(name): \(difference.meanPerChannel), \(difference.offShare)")
                // rlottie at the marker's frame, within its bound (RLottieConformanceTests).
                let played = rlottie.render(frame: Int(marker.start)).cropped(to: rect)
                let raw = FrameDifference(played, wanted)
                let compensated = raw.passes ? raw
                    : FrameDifference(played.undoingRLottieImageAlpha().boxBlurred(), wanted.boxBlurred(), offBy: 32)
                XCTAssertTrue(compensated.worstMean <= RLottieConformanceTests.compensatedMeanLimit
                              && compensated.offShare <= RLottieConformanceTests.compensatedOffLimit,
                              "\(sample) marker \(name) in rlottie: \(compensated.meanPerChannel), \(compensated.offShare)")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 11)
    }
}
#endif
