// The Lottie race: Keyframe's `render` against rlottie and ThorVG playing Keyframe's own Lottie export of the same clip,
// in the same process, at the same size, on one thread each, for the same frames. See docs/performance.md.
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
    /// Frame sides; `nil` is the export's own size (the Lottie file's `w` × `h`).
    var sizes: [Int?] = [nil, 512, 1024]
    var only: [String] = []

    static let usage = """
        usage: lottie-race [--size native|N]... [--frames N] [--repetitions N] [--png fast|compact]
                           [--profile portable|full] [NAME...]
          Renders the first clip of every bundled sample (and two corpus exports, when ../shared/corpus exists) with
          Keyframe, and with rlottie and ThorVG playing Keyframe's Lottie export: raster-only and end-to-end
          (import/load, render, PNG encode and write). --size (repeatable; default: native, 512 and 1024) fits the
          stage into an N × N frame, centred, on every side. NAMEs restrict the run to inputs whose folder name
          contains one of them. The players' frames are written with zlib level 1, the up filter and run-length
          strategy (and, in a second column, with Keyframe's --png preset).
        """

    static func parse(_ arguments: [String]) -> Settings {
        var settings = Settings()
        var sizes: [Int?] = []
        var rest = arguments[...]
        func value(_ option: String) -> String {
            guard let next = rest.popFirst() else { fail("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--frames": settings.frames = positive(value(argument), argument)
            case "--repetitions": settings.repetitions = positive(value(argument), argument)
            case "--size":
                let text = value(argument)
                sizes.append(text == "native" ? nil : positive(text, argument))
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
        if !sizes.isEmpty { settings.sizes = sizes }
        return settings
    }
}

func positive(_ text: String, _ option: String) -> Int {
    guard let number = Int(text), number > 0, number <= 8192 else { fail("\(option): an integer from 1 to 8192") }
    return number
}

func fail(_ message: String, code: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("lottie-race: error: \(message)\n".utf8))
    exit(code)
}

/// zlib level 1, the up filter, run-length strategy: how the players' frames are written (the fast preset before
/// Keyframe had its own compressor).
let playersPNG = PNGEncodingOptions(compressionLevel: 1, filters: .up, strategy: .runLength)

/// One input of the race at one size, prepared outside the timings.
struct Entrant {
    var name: String
    var input: URL
    var clip: Clip
    var scene: RenderScene
    var plans: [FramePlan]
    var framing: Framing
    /// The frame side asked for (`nil`: the export's own size).
    var side: Int?
    /// The Lottie export of the first clip.
    var lottie: URL
    /// Lottie frame numbers for `plans` (plan `i` of the clip is Lottie frame `i`).
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

/// The Lottie export and the frames of `input`'s first clip, at every size asked for.
func prepare(_ input: URL, settings: Settings, scratch: URL) throws -> [Entrant] {
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
    // The first N frames; a shorter clip is played again from its start (the same frames on every side).
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
    return try settings.sizes.map { side in
        // `keyframe render`'s framing of the stage (the Lottie file's w × h), fitted into side × side when asked.
        let framing = try Framing.make(plans: all, scenes: [scene], fit: .stage, size: side.map { ($0, $0) }).framing
        return Entrant(name: name, input: input, clip: clip, scene: scene, plans: plans, framing: framing, side: side,
                       lottie: lottie, lottieFrames: lottieFrames)
    }
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

func medianOf(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.isEmpty ? .nan : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The runs of one entrant, each for all its frames, by measurement.
struct Times {
    var runs: [String: [Took]] = [:]
    /// Bytes of the PNG files each end-to-end pipeline wrote (the same every repetition).
    var bytes: [String: Int] = [:]

    mutating func add(_ key: String, _ took: Took) { runs[key, default: []].append(took) }
    func median(_ key: String, _ measure: KeyPath<Took, Double>) -> Double {
        medianOf((runs[key] ?? []).map { $0[keyPath: measure] })
    }
}

/// The total size of the files in `folder`.
func folderBytes(_ folder: URL) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.reduce(0) { total, name in
        let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size]
        return total + ((size as? NSNumber)?.intValue ?? 0)
    }
}

/// One repetition of every measurement of `entrant`, in an order that rotates between repetitions so that no side
/// always runs first (on a colder cache) or last.
func race(_ entrant: Entrant, settings: Settings, scratch: URL, repetition: Int, times: inout Times) throws {
    let png = PNGEncodingOptions(preset: settings.png)
    let json = [UInt8](try Data(contentsOf: entrant.lottie))
    let width = entrant.framing.width, height = entrant.framing.height
    let tag = "\(entrant.name)-\(entrant.side.map(String.init) ?? "native")"
    guard let rlottie = RLottie(json: json, key: "race-raster-\(tag)-\(repetition)") else {
        fail("\(entrant.name): rlottie refuses the export", code: 1)
    }
    let frameCount = FramePlan.frameCount(of: entrant.clip, documentRate: entrant.scene.document.frameRate,
                                          fps: entrant.scene.document.frameRate.framesPerSecond)
    guard rlottie.frameCount == frameCount,
        entrant.side != nil || (rlottie.fileWidth == width && rlottie.fileHeight == height)
    else {
        fail("\(entrant.name): the Lottie file is \(rlottie.fileWidth)×\(rlottie.fileHeight), \(rlottie.frameCount) "
             + "frames; keyframe render draws \(width)×\(height), \(frameCount) frames", code: 1)
    }
    let thorvg = ThorVG(json: json, width: width, height: height)

    /// Each measurement: the time, and the bytes of the PNG files it wrote.
    var measurements: [(String, () throws -> (Took, Int?))] = []
    // Raster only: sample + draw every frame into a reused buffer; the players: update + draw into a reused buffer.
    measurements.append(("raster keyframe", {
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        let took = time {
            for plan in entrant.plans {
                renderer.renderReusingBuffer(plan, scenes: [entrant.scene], framing: entrant.framing,
                                             background: .transparent, into: &frame)
            }
        }
        return (took, nil)
    }))
    measurements.append(("raster rlottie", {
        var buffer = [UInt32](repeating: 0, count: width * height)
        let took = time {
            for frame in entrant.lottieFrames { rlottie.render(frame: frame, width: width, height: height, into: &buffer) }
        }
        return (took, nil)
    }))
    if let thorvg {
        measurements.append(("raster thorvg", {
            (time { for frame in entrant.lottieFrames { thorvg.render(frame: frame) } }, nil)
        }))
    }

    // End to end: from the input on disk to PNG files on disk. Keyframe: import, atlas decode, then `keyframe
    // render`'s own renderer (BatchRenderer, one job), with and without reusing the bytes of equal frames.
    func keyframeEndToEnd(reuse: Bool) -> () throws -> (Took, Int?) {
        {
            let folder = scratch.appendingPathComponent("keyframe-\(tag)-\(reuse)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let took = try time {
                let document = try Importer.importDocument(at: entrant.input)
                let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(entrant.input).folder)
                let rate = document.frameRate
                let all = try FramePlan.plans(for: entrant.clip, documentRate: rate, fps: rate.framesPerSecond,
                                              selection: .all)
                let plans = entrant.lottieFrames.enumerated().map { number, index in
                    var plan = all[index]
                    plan.number = number
                    return plan
                }
                let framing = try Framing.make(plans: all, scenes: [scene], fit: .stage,
                                               size: entrant.side.map { ($0, $0) }).framing
                let renderer = BatchRenderer(scenes: [scene], framing: framing, png: png, jobs: 1,
                                             reusesIdenticalFrames: reuse)
                _ = try renderer.run(plans, into: folder, fileName: { "f\($0.number).png" })
            }
            return (took, folderBytes(folder))
        }
    }
    measurements.append(("e2e keyframe", keyframeEndToEnd(reuse: true)))
    measurements.append(("e2e keyframe, no reuse", keyframeEndToEnd(reuse: false)))
    // The players: read the Lottie file, load it, draw every frame, convert to premultiplied RGBA, write PNGs with
    // the same writer — with zlib level 1 + up + run-length, and with Keyframe's preset.
    for (label, options) in [("zlib", playersPNG), ("keyframe png", png)] {
        measurements.append(("e2e rlottie, \(label)", {
            let folder = scratch.appendingPathComponent("rlottie-\(tag)-\(label)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let took = try time {
                let bytes = [UInt8](try Data(contentsOf: entrant.lottie))
                guard let player = RLottie(json: bytes, key: "race-e2e-\(tag)-\(label)-\(repetition)") else {
                    fail("\(entrant.name): rlottie refuses the export", code: 1)
                }
                var buffer = [UInt32](repeating: 0, count: width * height)
                var frame = Bitmap(width: width, height: height)
                var encoder = PNGEncoder(options: options)
                for (number, index) in entrant.lottieFrames.enumerated() {
                    player.render(frame: index, width: width, height: height, into: &buffer)
                    bitmap(fromARGB: buffer, width: width, height: height, into: &frame)
                    try encoder.write(frame, to: folder.appendingPathComponent("f\(number).png").path)
                }
            }
            return (took, folderBytes(folder))
        }))
        if thorvg != nil {
            measurements.append(("e2e thorvg, \(label)", {
                let folder = scratch.appendingPathComponent("thorvg-\(tag)-\(label)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let took = try time {
                    let bytes = [UInt8](try Data(contentsOf: entrant.lottie))
                    guard let player = ThorVG(json: bytes, width: width, height: height) else {
                        fail("\(entrant.name): ThorVG refuses the export", code: 1)
                    }
                    var frame = Bitmap(width: width, height: height)
                    var encoder = PNGEncoder(options: options)
                    for (number, index) in entrant.lottieFrames.enumerated() {
                        player.render(frame: index)
                        bitmap(fromRGBA: player.bytes, width: width, height: height, into: &frame)
                        try encoder.write(frame, to: folder.appendingPathComponent("f\(number).png").path)
                    }
                }
                return (took, folderBytes(folder))
            }))
        }
    }
    let offset = repetition % measurements.count
    for (key, measure) in measurements[offset...] + measurements[..<offset] {
        let (took, bytes) = try measure()
        times.add(key, took)
        if let bytes { times.bytes[key] = bytes }
    }
}

/// How far a player's first frame is from Keyframe's: the worst channel's mean absolute difference (0–255), a check
/// that both draw the same picture at the same size and place (docs/conformance.md has the full comparison).
func firstFrameDifferences(_ entrant: Entrant, json: [UInt8]) -> (rlottie: Double, thorvg: Double) {
    let width = entrant.framing.width, height = entrant.framing.height
    var renderer = FrameRenderer()
    var ours = Bitmap(width: 0, height: 0)
    renderer.render(entrant.plans[0], scenes: [entrant.scene], framing: entrant.framing, background: .transparent,
                    into: &ours)
    func difference(_ theirs: Bitmap) -> Double {
        guard ours.pixels.count == theirs.pixels.count else { return .infinity }
        var sums = [0, 0, 0, 0]
        for i in 0..<ours.pixels.count { sums[i % 4] += abs(Int(ours.pixels[i]) - Int(theirs.pixels[i])) }
        return Double(sums.max()!) / Double(max(width * height, 1))
    }
    var rlottieDifference = Double.nan, thorvgDifference = Double.nan
    if let player = RLottie(json: json, key: "race-check-\(entrant.name)-\(width)") {
        var buffer = [UInt32](repeating: 0, count: width * height)
        player.render(frame: entrant.lottieFrames[0], width: width, height: height, into: &buffer)
        var theirs = Bitmap(width: 0, height: 0)
        bitmap(fromARGB: buffer, width: width, height: height, into: &theirs)
        rlottieDifference = difference(theirs)
    }
    if let player = ThorVG(json: json, width: width, height: height) {
        player.render(frame: entrant.lottieFrames[0])
        var theirs = Bitmap(width: 0, height: 0)
        bitmap(fromRGBA: player.bytes, width: width, height: height, into: &theirs)
        thorvgDifference = difference(theirs)
    }
    return (rlottieDifference, thorvgDifference)
}

func geometricMean(_ values: [Double]) -> Double {
    let finite = values.filter { $0.isFinite && $0 > 0 }
    return finite.isEmpty ? .nan : exp(finite.map { log($0) }.reduce(0, +) / Double(finite.count))
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
let thorvgVersion: String
switch ThorVG.api {
case .success(let api): thorvgVersion = "ThorVG \(api.version)"
case .failure(let reason): thorvgVersion = "ThorVG not available: \(reason)"
}
print("Lottie race: keyframe render vs rlottie and \(thorvgVersion) playing Keyframe's Lottie export (profile "
      + "\(settings.profile.rawValue))")
print("one thread each, \(settings.frames) frames per clip, Keyframe's PNG preset \(settings.png.rawValue), the players' "
      + "PNGs zlib level 1 + up + run-length (and Keyframe's preset), median of \(settings.repetitions) repetitions; "
      + "load average at start: \(load)")
print("ratio = the player's time / Keyframe's (≥ 1.0: Keyframe is at least as fast); end to end uses Keyframe with "
      + "reuse of equal frames (its default) against the players with zlib PNGs unless a column says otherwise; frame 0 Δ "
      + "= worst channel's mean absolute difference (0–255) from Keyframe's first frame, a check that all draw the same "
      + "picture")
var rows: [(entrant: Entrant, times: Times, check: (rlottie: Double, thorvg: Double))] = []
do {
    for input in selected {
        for entrant in try prepare(input, settings: settings, scratch: scratch) {
            var times = Times()
            for repetition in 0..<settings.repetitions {
                try race(entrant, settings: settings, scratch: scratch, repetition: repetition, times: &times)
            }
            let check = firstFrameDifferences(entrant, json: [UInt8](try Data(contentsOf: entrant.lottie)))
            rows.append((entrant, times, check))
        }
    }
} catch {
    fail("\(error)", code: 1)
}

/// The largest first-frame difference (0–255) at which a player still draws Keyframe's picture.
let likeForLike = 10.0

func ratioText(_ value: Double) -> String { value.isFinite ? String(format: "%.2f×", value) : "–" }
func msText(_ value: Double) -> String { value.isFinite ? String(format: "%.3f", value) : "–" }

for side in settings.sizes {
    let sized = rows.filter { $0.entrant.side == side }
    let sizeName = side.map { "\($0)×\($0)" } ?? "native size"
    for (title, measure) in [("thread CPU time", \Took.cpu), ("wall clock", \Took.wall)] {
        print("")
        print("\(sizeName), \(title), ms per frame:")
        print("")
        print("| input | size | raster Keyframe | rlottie | ThorVG | ratio rlottie | ratio ThorVG | e2e Keyframe | "
              + "no reuse | e2e rlottie | e2e ThorVG | ratio rlottie | ratio ThorVG | ratio rlottie, no reuse | "
              + "ratio ThorVG, no reuse | rlottie with Keyframe's PNG | ThorVG with Keyframe's PNG |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        var ratios: [String: [Double]] = [:]
        /// The same, without inputs whose first frames differ by more than `likeForLike` (a player drawing another
        /// picture — the waver's mesh, which neither player draws — is not like for like).
        var alike: [String: [Double]] = [:]
        for (entrant, times, check) in sized {
            let frames = Double(entrant.plans.count)
            func m(_ key: String) -> Double { times.median(key, measure) * 1000 / frames }
            let values = (rk: m("raster keyframe"), rr: m("raster rlottie"), rt: m("raster thorvg"),
                          ek: m("e2e keyframe"), en: m("e2e keyframe, no reuse"), er: m("e2e rlottie, zlib"),
                          et: m("e2e thorvg, zlib"), erk: m("e2e rlottie, keyframe png"),
                          etk: m("e2e thorvg, keyframe png"))
            let line: [(String, Double)] = [
                ("raster rlottie", values.rr / values.rk), ("raster thorvg", values.rt / values.rk),
                ("e2e rlottie", values.er / values.ek), ("e2e thorvg", values.et / values.ek),
                ("e2e rlottie no reuse", values.er / values.en), ("e2e thorvg no reuse", values.et / values.en),
                ("e2e rlottie keyframe png", values.erk / values.en), ("e2e thorvg keyframe png", values.etk / values.en),
            ]
            for (key, value) in line { ratios[key, default: []].append(value) }
            if check.rlottie <= likeForLike, check.thorvg <= likeForLike {
                for (key, value) in line { alike[key, default: []].append(value) }
            }
            print("| \(entrant.name) | \(entrant.framing.width)×\(entrant.framing.height) | \(msText(values.rk)) | "
                  + "\(msText(values.rr)) | \(msText(values.rt)) | \(ratioText(line[0].1)) | \(ratioText(line[1].1)) | "
                  + "\(msText(values.ek)) | \(msText(values.en)) | \(msText(values.er)) | \(msText(values.et)) | "
                  + "\(ratioText(line[2].1)) | \(ratioText(line[3].1)) | \(ratioText(line[4].1)) | "
                  + "\(ratioText(line[5].1)) | \(msText(values.erk)) (\(ratioText(line[6].1))) | "
                  + "\(msText(values.etk)) (\(ratioText(line[7].1))) |")
        }
        for (label, set) in [("", ratios), (", like for like (frame 0 Δ ≤ \(Int(likeForLike)) for both players)", alike)] {
            func mean(_ key: String) -> String { ratioText(geometricMean(set[key] ?? [])) }
            print("")
            print("geometric means (\(sizeName), \(title)\(label), \(set["raster rlottie"]?.count ?? 0) inputs): raster "
                  + "\(mean("raster rlottie")) rlottie, \(mean("raster thorvg")) ThorVG (goal ≥ 1.2×); end to end "
                  + "\(mean("e2e rlottie")) rlottie, \(mean("e2e thorvg")) ThorVG (goal ≥ 2×); without reuse "
                  + "\(mean("e2e rlottie no reuse")) rlottie, \(mean("e2e thorvg no reuse")) ThorVG; the players with "
                  + "Keyframe's PNG preset: \(mean("e2e rlottie keyframe png")) rlottie, "
                  + "\(mean("e2e thorvg keyframe png")) ThorVG (no reuse)")
        }
    }
    print("")
    print("\(sizeName), PNG bytes written end to end (\(settings.frames) frames), and frame 0 Δ:")
    print("")
    print("| input | Keyframe KB | rlottie zlib KB | Keyframe / rlottie zlib | ThorVG zlib KB | rlottie, Keyframe's PNG KB "
          + "| frame 0 Δ rlottie | frame 0 Δ ThorVG |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    var keyframeTotal = 0, rlottieTotal = 0
    for (entrant, times, check) in sized {
        let k = times.bytes["e2e keyframe"] ?? 0, r = times.bytes["e2e rlottie, zlib"] ?? 0
        keyframeTotal += k
        rlottieTotal += r
        print("| \(entrant.name) | \(k / 1024) | \(r / 1024) | \(String(format: "%.3f", Double(k) / Double(max(r, 1)))) | "
              + "\((times.bytes["e2e thorvg, zlib"] ?? 0) / 1024) | \((times.bytes["e2e rlottie, keyframe png"] ?? 0) / 1024) | "
              + "\(String(format: "%.2f", check.rlottie)) | \(String(format: "%.2f", check.thorvg)) |")
    }
    print("")
    print(String(format: "total (%@): Keyframe %.1f MB, rlottie zlib %.1f MB: %.3f× (goal ≤ 1.1×)", sizeName,
                 Double(keyframeTotal) / 1e6, Double(rlottieTotal) / 1e6,
                 Double(keyframeTotal) / Double(max(rlottieTotal, 1))))
}
