import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// The Lottie half of the fidelity table in docs/conformance.md (`make fidelity`, which also runs the Core Animation
/// half and writes the table): every clip of every bundled sample (every frame) and of every corpus export (first,
/// middle and last frame) exported to Lottie (`portable`), played by rlottie, ThorVG and lottie-web (svg and canvas),
/// each frame compared with `keyframe render` of the same frame as the source defines it — meshes deformed, filters
/// and blend modes drawn: nothing the export leaves out is left out of the reference.
///
/// Runs only with `KEYFRAME_FIDELITY=1` (it takes several minutes); the conformance tests are what CI asserts. The
/// rows go to `.build/fidelity/lottie.json`, read by `Scripts/fidelity-table.py`.
final class FidelityTableTests: XCTestCase {
    static let enabled = ProcessInfo.processInfo.environment["KEYFRAME_FIDELITY"] == "1"
    static let output = TestPaths.packageRoot.appendingPathComponent(".build/fidelity/lottie.json")

    /// One player's figures over the compared frames of one clip: the worst frame's.
    struct Cell: Codable {
        /// Worst channel mean (0–255) and share of pixels off by more than 8/255.
        var mean = 0.0, off = 0.0
        /// The same after the player's documented sampling is averaged out: both frames blurred 3 × 3 (and rlottie's
        /// 253/255 image alpha undone), share off by more than 32/255.
        var compensatedMean = 0.0, compensatedOff = 0.0
        /// Frames meeting the criterion (mean ≤ 1/255, ≤ 2 % off by > 8/255), and frames compared.
        var passing = 0, frames = 0
        /// Why the player drew nothing to compare (it refused the file), if so.
        var failure: String? = nil

        mutating func add(_ player: Bitmap, _ reference: Bitmap, rlottie: Bool) {
            let raw = FrameDifference(player, reference)
            let compensated = FrameDifference((rlottie ? player.undoingRLottieImageAlpha() : player).boxBlurred(),
                                              reference.boxBlurred(), offBy: 32)
            mean = max(mean, raw.worstMean)
            off = max(off, raw.offShare)
            compensatedMean = max(compensatedMean, compensated.worstMean)
            compensatedOff = max(compensatedOff, compensated.offShare)
            passing += raw.passes ? 1 : 0
            frames += 1
        }
    }

    /// One clip's row.
    struct Row: Codable {
        var export: String
        var clip: String
        var frames: [Int]
        var width: Int
        var height: Int
        /// Warnings the export gave for the clip (what it still approximates), with their measured error.
        var warnings: [String]
        var players: [String: Cell]
    }

    func testEveryClipInEveryLottiePlayer() throws {
        guard Self.enabled else { throw XCTSkip("set KEYFRAME_FIDELITY=1 (make fidelity) to regenerate the fidelity table") }
        let samples = try FileManager.default.contentsOfDirectory(
            at: TestPaths.packageRoot.appendingPathComponent("Samples"), includingPropertiesForKeys: nil)
            .filter { $0.hasDirectoryPath && $0.lastPathComponent != "scripts" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let corpus = try ["animate_atlas", "dragonbones", "flump", "flump_xml"].flatMap { try TestPaths.corpus($0) }
        // KEYFRAME_FIDELITY_ONLY=NAME,NAME measures only those exports (the table then lists only them).
        let only = ProcessInfo.processInfo.environment["KEYFRAME_FIDELITY_ONLY"].map { Set($0.split(separator: ",").map(String.init)) }
        let web: LottieWebPlayer? = try? LottieWebPlayer()
        defer { web?.close() }
        var rows: [Row] = []
        for export in samples + corpus where only?.contains(export.lastPathComponent) ?? true {
            let isSample = samples.contains(export)
            rows += try fidelity(of: export, everyFrame: isSample, web: web)
            try write(rows)
        }
        print("fidelity: \(rows.count) clips written to \(Self.output.path)")
    }

    /// The rows of every clip of `export`.
    func fidelity(of export: URL, everyFrame: Bool, web: LottieWebPlayer?) throws -> [Row] {
        let document = try Importer.importDocument(at: export)
        let library = try AtlasLibrary(document: document, folder: try Importer.detect(export).folder)
        let scene = RenderScene(document: document, library: library)
        var rows: [Row] = []
        for clip in document.clips {
            var options = ExportOptions(clips: [clip.name])
            options.lottie = LottieExportSettings(profile: .portable, images: .embed)
            let (result, _) = try LottieExporter().exportWithReports(document, library: library, clips: [clip],
                                                                    options: options)
            guard let json = result.clips.first?.main.bytes else { continue }
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            guard !plans.isEmpty else { continue }
            let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
            let frames = everyFrame ? Array(plans.indices) : Array(Set([0, (plans.count - 1) / 2, plans.count - 1])).sorted()
            var renderer = FrameRenderer()
            let references = frames.map { index -> Bitmap in
                var bitmap = Bitmap(width: framing.width, height: framing.height)
                renderer.render(plans[index], scenes: [scene], framing: framing, background: .transparent, into: &bitmap)
                return bitmap
            }
            var row = Row(export: export.lastPathComponent, clip: clip.name, frames: frames, width: framing.width,
                          height: framing.height,
                          warnings: result.diagnostics.filter { $0.severity == .warning }.map(\.message), players: [:])
            row.players["rlottie"] = rlottie(json, key: "\(row.export)/\(clip.name)", frames: frames,
                                             references: references)
            row.players["ThorVG"] = try thorvg(json, frames: frames, references: references)
            if let web {
                for renderer in [LottieWebPlayer.Renderer.svg, .canvas] {
                    row.players["lottie-web \(renderer.rawValue)"] = lottieWeb(web, json, renderer: renderer,
                                                                              frames: frames, references: references)
                }
            }
            rows.append(row)
        }
        return rows
    }

    private func rlottie(_ json: [UInt8], key: String, frames: [Int], references: [Bitmap]) -> Cell {
        var cell = Cell()
        guard let player = RLottiePlayer(json: json, key: key) else {
            cell.failure = "rlottie refuses the file"
            return cell
        }
        for (frame, reference) in zip(frames, references) {
            let bitmap = player.render(frame: frame)
            guard bitmap.width == reference.width, bitmap.height == reference.height else {
                cell.failure = "size \(bitmap.width)×\(bitmap.height)"
                return cell
            }
            cell.add(bitmap, reference, rlottie: true)
        }
        return cell
    }

    private func thorvg(_ json: [UInt8], frames: [Int], references: [Bitmap]) throws -> Cell {
        var cell = Cell()
        let folder = try TestPaths.temporaryFolder("keyframe-fidelity")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.json")
        try Data(json).write(to: file)
        do {
            let (_, bitmaps) = try ThorVGPlayer.render(file, frames: frames)
            for (bitmap, reference) in zip(bitmaps, references) {
                guard bitmap.width == reference.width, bitmap.height == reference.height else {
                    cell.failure = "size \(bitmap.width)×\(bitmap.height)"
                    return cell
                }
                cell.add(bitmap, reference, rlottie: false)
            }
        } catch let skip as XCTSkip {
            cell.failure = "\(skip)"
        } catch {
            cell.failure = "\(error)"
        }
        return cell
    }

    private func lottieWeb(_ web: LottieWebPlayer, _ json: [UInt8], renderer: LottieWebPlayer.Renderer, frames: [Int],
                           references: [Bitmap]) -> Cell {
        var cell = Cell()
        do {
            try web.load(json, renderer: renderer)
            for (bitmap, reference) in zip(try web.render(frames: frames), references) {
                guard bitmap.width == reference.width, bitmap.height == reference.height else {
                    cell.failure = "size \(bitmap.width)×\(bitmap.height)"
                    return cell
                }
                cell.add(bitmap, reference, rlottie: false)
            }
        } catch {
            cell.failure = "\(error)"
        }
        return cell
    }

    private func write(_ rows: [Row]) throws {
        try FileManager.default.createDirectory(at: Self.output.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(rows).write(to: Self.output)
    }
}
