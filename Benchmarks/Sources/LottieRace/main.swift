// The Lottie race: Keyframe's `render` against rlottie playing Keyframe's own Lottie export of the same clip, in the
// same process, at the same size, on one thread each, for the same frames. See docs/performance.md.
import CRLottieRace
import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// Command-line settings.
struct Settings {
    var frames = 48
    var repetitions = 5
    var png = PNGPreset.fast
    var profile = LottieExportSettings.Profile.portable
    var only: [String] = []

    static let usage = """
        usage: lottie-race [--frames N] [--repetitions N] [--png fast|compact] [--profile portable|full] [NAME...]
          Renders the first clip of every bundled sample (and two corpus exports, when ../shared/corpus exists) with
          Keyframe and with rlottie playing Keyframe's Lottie export: raster-only and end-to-end (import/load, render,
          PNG encode and write). NAMEs restrict the run to inputs whose folder name contains one of them.
        """

    static func parse(_ arguments: [String]) -> Settings {
        var settings = Settings()
        var rest = arguments[...]
        func value(_ option: String) -> String {
            guard let next = rest.popFirst() else { fail("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--frames": settings.frames = positive(value(argument), argument)
            case "--repetitions": settings.repetitions = positive(value(argument), argument)
            case "--png":
                guard let preset = PNGPreset(rawValue: value(argument)) else { fail("--png: fast or compact") }
                settings.png = preset
            case "--profile":
                guard let profile = LottieExportSettings.Profile(rawValue: value(argument)) else {
                    fail("--profile: portable or full")
                }
                settings.profile = profile
            case "-h", "--help": print(usage); exit(0)
            default:
                if argument.hasPrefix("-") { fail("unknown option \(argument)") }
                settings.only.append(argument)
            }
        }
        return settings
    }
}

func positive(_ text: String, _ option: String) -> Int {
    guard let number = Int(text), number > 0 else { fail("\(option): a positive integer") }
    return number
}

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("lottie-race: error: \(message)\n".utf8))
    exit(code)
}

/// rlottie playing a Lottie file from memory (C API, synchronous rendering on the calling thread).
final class RLottie {
    let animation: OpaquePointer
    let width: Int
    let height: Int
    let frameCount: Int

    /// Loads `json`. `key` must differ between loads of the same file: rlottie caches parsed files by key, and a
    /// cached load would not be a load.
    init?(json: [UInt8], key: String) {
        var text = json
        text.append(0)
        let loaded: OpaquePointer? = text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                lottie_animation_from_data($0, key, "")
            }
        }
        guard let loaded else { return nil }
        animation = loaded
        var w = 0, h = 0
        lottie_animation_get_size(animation, &w, &h)
        width = w
        height = h
        frameCount = lottie_animation_get_totalframe(animation)
    }

    deinit { lottie_animation_destroy(animation) }

    /// Renders `frame` into `buffer` (ARGB32 premultiplied words, `width × height`).
    func render(frame: Int, into buffer: inout [UInt32]) {
        buffer.withUnsafeMutableBufferPointer {
            lottie_animation_render(animation, frame, $0.baseAddress, width, height, width * 4)
        }
    }
}

/// rlottie's premultiplied `0xAARRGGBB` words as a premultiplied RGBA ``Bitmap`` (what ``PNGEncoder`` takes).
func bitmap(fromARGB words: [UInt32], width: Int, height: Int, into bitmap: inout Bitmap) {
    if bitmap.width != width || bitmap.height != height { bitmap = Bitmap(width: width, height: height) }
    bitmap.pixels.withUnsafeMutableBufferPointer { out in
        words.withUnsafeBufferPointer { words in
            for i in 0..<words.count {
                let word = words[i]
                out[i &* 4] = UInt8(truncatingIfNeeded: word >> 16)
                out[i &* 4 &+ 1] = UInt8(truncatingIfNeeded: word >> 8)
                out[i &* 4 &+ 2] = UInt8(truncatingIfNeeded: word)
                out[i &* 4 &+ 3] = UInt8(truncatingIfNeeded: word >> 24)
            }
        }
    }
}

/// How far rlottie's first frame is from Keyframe's: the worst channel's mean absolute difference (0–255), a check
/// that both sides draw the same picture at the same size (docs/conformance.md has the full comparison).
func firstFrameDifference(_ entrant: Entrant, json: [UInt8]) -> Double {
    guard let player = RLottie(json: json, key: "race-check-\(entrant.name)") else { return .nan }
    var buffer = [UInt32](repeating: 0, count: player.width * player.height)
    player.render(frame: entrant.lottieFrames[0], into: &buffer)
    var theirs = Bitmap(width: 0, height: 0)
    bitmap(fromARGB: buffer, width: player.width, height: player.height, into: &theirs)
    var renderer = FrameRenderer()
    var ours = Bitmap(width: 0, height: 0)
    renderer.render(entrant.plans[0], scenes: [entrant.scene], framing: entrant.framing, background: .transparent,
                    into: &ours)
    guard ours.pixels.count == theirs.pixels.count else { return .infinity }
    var sums = [0, 0, 0, 0]
    for i in 0..<ours.pixels.count { sums[i % 4] += abs(Int(ours.pixels[i]) - Int(theirs.pixels[i])) }
    return Double(sums.max()!) / Double(max(ours.width * ours.height, 1))
}

/// One input of the race, prepared outside the timings.
struct Entrant {
    var name: String
    var input: URL
    var clip: Clip
    var scene: RenderScene
    var plans: [FramePlan]
    var framing: Framing
    /// The Lottie export of the first clip, written to the scratch folder.
    var lottie: URL
    /// rlottie frame numbers for `plans` (plan `i` of the clip is Lottie frame `i`).
    var lottieFrames: [Int]
}

/// The inputs: every bundled sample and two corpus exports (one Animate atlas, one DragonBones skeleton).
func inputs(root: URL) -> [URL] {
    let samples = ["animate-walker", "animate-bouncer-long", "bta-spinner", "flump-hopbot", "dragonbones-waver"]
        .map { root.appendingPathComponent("Samples/\($0)") }
    let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    let extra = ["animate_atlas/libanimateatlas-balltest-bta", "dragonbones/db5.5-mecha1406-with-dbbin"]
        .map { corpus.appendingPathComponent($0) }
        .filter { FileManager.default.fileExists(atPath: $0.path) }
    return samples + extra
}

func prepare(_ input: URL, settings: Settings, scratch: URL) throws -> Entrant {
    let name = input.lastPathComponent
    let document = try Importer.importDocument(at: input)
    let folder = try Importer.detect(input).folder
    let scene = try RenderScene(document: document, assetsFolder: folder)
    guard let clip = document.clips.first else { fail("\(name): no clips", code: 1) }
    var options = ExportOptions(clips: [clip.name])
    options.lottie = LottieExportSettings(profile: settings.profile, images: .embed)
    guard let exporter = Exporters.exporter(for: .lottie) else { fail("this build has no Lottie exporter", code: 1) }
    let result = try exporter.export(document, assetsFolder: folder, options: options)
    guard let main = result.clips.first?.main else { fail("\(name): the export wrote nothing", code: 1) }
    let lottie = scratch.appendingPathComponent("\(name).json")
    try Data(main.bytes).write(to: lottie)
    let rate = document.frameRate
    let all = try FramePlan.plans(for: clip, documentRate: rate, fps: rate.framesPerSecond, selection: .all)
    // The first N frames; a shorter clip is played again from its start (the same frames on both sides).
    var plans: [FramePlan] = []
    var lottieFrames: [Int] = []
    while plans.count < settings.frames {
        for (index, plan) in all.enumerated() where plans.count < settings.frames {
            var copy = plan
            copy.number = plans.count
            plans.append(copy)
            lottieFrames.append(index)
        }
    }
    // `keyframe render`'s default framing (the stage), which is also the Lottie file's w × h.
    let framing = try Framing.make(plans: all, scenes: [scene], fit: .stage, size: nil).framing
    return Entrant(name: name, input: input, clip: clip, scene: scene, plans: plans, framing: framing, lottie: lottie,
                   lottieFrames: lottieFrames)
}

/// The time `body` takes: wall clock, and the CPU time of the calling thread (user + system). Everything measured runs
/// on the calling thread, so the thread's CPU time is the work itself, without the waits a shared machine adds.
struct Took {
    var wall: Double
    var cpu: Double
}

func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

func time(_ body: () throws -> Void) rethrows -> Took {
    let clock = ContinuousClock()
    let cpu = threadCPUSeconds()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Took(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                cpu: threadCPUSeconds() - cpu)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The runs of one entrant, each for all its frames.
struct Times {
    var keyframeRaster: [Took] = []
    var rlottieRaster: [Took] = []
    var keyframeEndToEnd: [Took] = []
    var rlottieEndToEnd: [Took] = []
    /// The share of the end-to-end runs spent before the first frame: Keyframe's import and atlas decoding,
    /// rlottie's load (parse and embedded image decoding).
    var keyframeImport: [Took] = []
    var rlottieLoad: [Took] = []
}

func race(_ entrant: Entrant, settings: Settings, scratch: URL, repetition: Int, times: inout Times) throws {
    let png = PNGEncodingOptions(preset: settings.png)
    let json = [UInt8](try Data(contentsOf: entrant.lottie))
    guard let player = RLottie(json: json, key: "race-raster-\(entrant.name)-\(repetition)") else {
        fail("\(entrant.name): rlottie refuses the export", code: 1)
    }
    guard player.width == entrant.framing.width, player.height == entrant.framing.height,
        player.frameCount == FramePlan.frameCount(of: entrant.clip, documentRate: entrant.scene.document.frameRate,
                                                  fps: entrant.scene.document.frameRate.framesPerSecond)
    else {
        fail("\(entrant.name): the Lottie file is \(player.width)×\(player.height), \(player.frameCount) frames; "
             + "keyframe render draws \(entrant.framing.width)×\(entrant.framing.height)", code: 1)
    }

    // Raster only: sample + draw every frame into a reused buffer; rlottie: update + draw into a reused buffer.
    // The order alternates between repetitions so neither side always runs on a warmer cache.
    let keyframeRaster = {
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        return time {
            for plan in entrant.plans {
                renderer.renderReusingBuffer(plan, scenes: [entrant.scene], framing: entrant.framing,
                                             background: .transparent, into: &frame)
            }
        }
    }
    let rlottieRaster = {
        var buffer = [UInt32](repeating: 0, count: player.width * player.height)
        return time {
            for frame in entrant.lottieFrames { player.render(frame: frame, into: &buffer) }
        }
    }

    // End to end: from the input on disk to PNG files on disk, with the same PNG preset and the same writer.
    // Keyframe: import, atlas decode, then `keyframe render`'s own renderer (BatchRenderer, one job).
    let keyframeFolder = scratch.appendingPathComponent("keyframe-\(entrant.name)")
    let rlottieFolder = scratch.appendingPathComponent("rlottie-\(entrant.name)")
    try FileManager.default.createDirectory(at: keyframeFolder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: rlottieFolder, withIntermediateDirectories: true)
    var keyframeImport = Took(wall: 0, cpu: 0), rlottieLoad = Took(wall: 0, cpu: 0)
    let keyframeEndToEnd = {
        try time {
            var document: Document?
            var loaded: RenderScene?
            keyframeImport = try time {
                document = try Importer.importDocument(at: entrant.input)
                loaded = try RenderScene(document: document!, assetsFolder: try Importer.detect(entrant.input).folder)
            }
            guard let document, let scene = loaded else { return }
            let rate = document.frameRate
            let all = try FramePlan.plans(for: entrant.clip, documentRate: rate, fps: rate.framesPerSecond,
                                          selection: .all)
            let plans = entrant.lottieFrames.enumerated().map { number, index in
                var plan = all[index]
                plan.number = number
                return plan
            }
            let framing = try Framing.make(plans: all, scenes: [scene], fit: .stage, size: nil).framing
            let renderer = BatchRenderer(scenes: [scene], framing: framing, png: png, jobs: 1)
            _ = try renderer.run(plans, into: keyframeFolder, fileName: { "f\($0.number).png" })
        }
    }
    let rlottieEndToEnd = {
        try time {
            var player: RLottie?
            rlottieLoad = try time {
                let bytes = [UInt8](try Data(contentsOf: entrant.lottie))
                player = RLottie(json: bytes, key: "race-e2e-\(entrant.name)-\(repetition)")
            }
            guard let loaded = player else { fail("\(entrant.name): rlottie refuses the export", code: 1) }
            var buffer = [UInt32](repeating: 0, count: loaded.width * loaded.height)
            var frame = Bitmap(width: loaded.width, height: loaded.height)
            var encoder = PNGEncoder(options: png)
            for (number, index) in entrant.lottieFrames.enumerated() {
                loaded.render(frame: index, into: &buffer)
                bitmap(fromARGB: buffer, width: loaded.width, height: loaded.height, into: &frame)
                try encoder.write(frame, to: rlottieFolder.appendingPathComponent("f\(number).png").path)
            }
        }
    }
    if repetition % 2 == 0 {
        times.keyframeRaster.append(keyframeRaster())
        times.rlottieRaster.append(rlottieRaster())
        times.keyframeEndToEnd.append(try keyframeEndToEnd())
        times.rlottieEndToEnd.append(try rlottieEndToEnd())
        times.keyframeImport.append(keyframeImport)
        times.rlottieLoad.append(rlottieLoad)
    } else {
        times.rlottieRaster.append(rlottieRaster())
        times.keyframeRaster.append(keyframeRaster())
        times.rlottieEndToEnd.append(try rlottieEndToEnd())
        times.keyframeEndToEnd.append(try keyframeEndToEnd())
        times.keyframeImport.append(keyframeImport)
        times.rlottieLoad.append(rlottieLoad)
    }
}

let settings = Settings.parse(Array(CommandLine.arguments.dropFirst()))
let root = URL(fileURLWithPath: #filePath)  // Benchmarks/Sources/LottieRace/main.swift
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("keyframe-lottie-race-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

let selected = inputs(root: root).filter { url in
    settings.only.isEmpty || settings.only.contains { url.lastPathComponent.contains($0) }
}
if selected.isEmpty { fail("no input matches \(settings.only.joined(separator: " "))") }
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
    .joined(separator: " ") ?? "?"
print("Lottie race: keyframe render vs rlottie playing Keyframe's Lottie export (profile \(settings.profile.rawValue))")
print("one thread each, \(settings.frames) frames per clip, PNG preset \(settings.png.rawValue), "
      + "median of \(settings.repetitions) repetitions; load average at start: \(load)")
print("ratio = rlottie time / Keyframe time (≥ 1.0: Keyframe is at least as fast); frame 0 Δ = worst channel's mean")
print("absolute difference (0–255) between the two first frames, a check that both draw the same picture")
print("")
var rows: [(entrant: Entrant, times: Times, check: Double)] = []
do {
    for input in selected {
        let entrant = try prepare(input, settings: settings, scratch: scratch)
        var times = Times()
        for repetition in 0..<settings.repetitions {
            try race(entrant, settings: settings, scratch: scratch, repetition: repetition, times: &times)
        }
        let check = firstFrameDifference(entrant, json: [UInt8](try Data(contentsOf: entrant.lottie)))
        rows.append((entrant, times, check))
    }
} catch {
    fail("\(error)", code: 1)
}

func geometricMean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
}

for (title, measure) in [("thread CPU time", \Took.cpu), ("wall clock", \Took.wall)] {
    print("")
    print("\(title):")
    print("")
    print("| input | clip | size | raster Keyframe ms/frame | raster rlottie ms/frame | raster ratio | end-to-end Keyframe ms/frame | end-to-end rlottie ms/frame | end-to-end ratio | of which import / load ms | frame 0 Δ |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|")
    var rasterRatios: [Double] = []
    var endToEndRatios: [Double] = []
    for (entrant, times, check) in rows {
        func m(_ runs: [Took]) -> Double { median(runs.map { $0[keyPath: measure] }) }
        let frames = Double(entrant.plans.count)
        let kr = m(times.keyframeRaster), rr = m(times.rlottieRaster)
        let ke = m(times.keyframeEndToEnd), re = m(times.rlottieEndToEnd)
        rasterRatios.append(rr / kr)
        endToEndRatios.append(re / ke)
        print(String(format: "| %@ | %@ | %d×%d | %.3f | %.3f | %.2f× | %.3f | %.3f | %.2f× | %.1f / %.1f | %.2f |",
                     entrant.name, entrant.clip.name, entrant.framing.width, entrant.framing.height,
                     kr * 1000 / frames, rr * 1000 / frames, rr / kr, ke * 1000 / frames, re * 1000 / frames, re / ke,
                     m(times.keyframeImport) * 1000, m(times.rlottieLoad) * 1000, check))
    }
    print("")
    print(String(format: "geometric mean of the ratios (%@): raster %.2f×, end-to-end %.2f× (goal ≥ 1.0×)", title,
                 geometricMean(rasterRatios), geometricMean(endToEndRatios)))
}
