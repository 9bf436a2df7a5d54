import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe render --animated` to GIF and WebP: each file, decoded frame by frame by decoders Keyframe did not
/// write (Pillow for both, ffmpeg for GIF, webpmux and dwebp for WebP's container and first frame), is `render`'s PNG frames — WebP lossless
/// exactly, GIF and lossy WebP within the bounds docs/cli.md documents — shown at the output rate.
final class AnimatedGIFWebPCLITests: XCTestCase {
    var samples: URL { TestPaths.packageRoot.appendingPathComponent("Samples") }
    /// `render`'s first frame of the case being checked.
    var firstRendered = URL(fileURLWithPath: "/")
    var decoder: String { TestPaths.packageRoot.appendingPathComponent("Scripts/decode-animation.py").path }

    /// How far a decoded frame is from the rendered one, in straight RGBA: alpha everywhere, colour where both are
    /// visible (a fully transparent pixel's colour is not seen). Mean and maximum absolute error per channel.
    struct FrameError {
        var mean: Double
        var max: Int

        init(_ actual: [UInt8], _ expected: [UInt8]) {
            var total = 0, largest = 0, channels = 0
            for pixel in stride(from: 0, to: min(actual.count, expected.count), by: 4) {
                let alpha = abs(Int(actual[pixel + 3]) - Int(expected[pixel + 3]))
                total += alpha; largest = Swift.max(largest, alpha); channels += 1
                guard actual[pixel + 3] > 0, expected[pixel + 3] > 0 else { continue }
                for channel in 0..<3 {
                    let difference = abs(Int(actual[pixel + channel]) - Int(expected[pixel + channel]))
                    total += difference; largest = Swift.max(largest, difference); channels += 1
                }
            }
            mean = channels == 0 ? 0 : Double(total) / Double(channels)
            max = actual.count == expected.count ? largest : 255
        }
    }

    /// The decoder's frames of `file`, with where each rendered frame falls among them (by the decoded durations).
    func decode(_ file: URL, with tool: String, into folder: URL) throws -> (frames: [URL], loop: Int?, durations: [Int]) {
        let result = try CommandRun.run(["python3", decoder, tool, file.path, folder.path])
        XCTAssertEqual(result.status, 0, result.output)
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], result.output)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        return (names.map { folder.appendingPathComponent($0) }, (object["loop"] as? NSNumber)?.intValue,
                (object["durations"] as? [NSNumber])?.map(\.intValue) ?? [])
    }

    /// The decoded frame showing at the start of each of `count` frames at `fps`, from the decoded durations (ms).
    func schedule(_ durations: [Int], count: Int, fps: Double, tick: Int) -> [Int] {
        var starts: [Int] = [0]
        for duration in durations { starts.append(starts.last! + duration) }
        return (0..<count).map { frame in
            let time = Int((Double(frame) * Double(1000 / tick) / fps).rounded()) * tick
            return max(0, min(durations.count - 1, starts.lastIndex { $0 <= time } ?? 0))
        }
    }

    /// Compares decoded frames with the rendered ones; returns the errors, writing a diff for frames over `bound`.
    func compare(_ decoded: [URL], order: [Int], rendered: [URL], name: String, bound: (mean: Double, max: Int))
        throws -> [FrameError]
    {
        var errors: [FrameError] = []
        for (frame, reference) in rendered.enumerated() {
            let actualPNG = [UInt8](try Data(contentsOf: URL(fileURLWithPath: decoded[order[frame]].path)))
            let expectedPNG = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference.path)))
            let error = FrameError(try PNGDecoder().decodeStraight(actualPNG).pixels,
                                   try PNGDecoder().decodeStraight(expectedPNG).pixels)
            if error.mean > bound.mean || error.max > bound.max {
                let actual = try PNGDecoder().decode(actualPNG)
                let comparison = BitmapComparison.compare(actual, try PNGDecoder().decode(expectedPNG), tolerance: bound.max)
                var encoder = PNGEncoder(options: .fast)
                comparison.writeArtifacts(named: "\(name)-\(frame).png", actual: actual,
                                          directory: BitmapComparison.artifactDirectory, encoder: { try encoder.encode($0) })
            }
            errors.append(error)
        }
        return errors
    }

    /// One animation of a sample's clip checked against its frames with one decoder.
    struct Case {
        var sample: String, clip: String, file: String, options: [String], tool: String
        var bound: (mean: Double, max: Int)
    }

    func check(_ test: Case, root: URL, corrupt: Bool = false) throws -> (errors: [FrameError], bytes: Int, apng: Int) {
        let work = root.appendingPathComponent("\(test.clip)-\(test.file)-\(test.tool)\(corrupt ? "-corrupt" : "")")
        let frames = work.appendingPathComponent("frames")
        let animation = work.appendingPathComponent(test.file)
        let sample = samples.appendingPathComponent(test.sample).path
        let run = try CLIRunner.run(["render", sample, "--clip", test.clip, "-o", frames.path, "--animated",
                                     animation.path] + test.options)
        XCTAssertEqual(run.status, 0, run.stderr)
        let apng = work.appendingPathComponent("apng.png")
        XCTAssertEqual(try CLIRunner.run(["render", sample, "--clip", test.clip, "-o", frames.path, "--animated",
                                          apng.path] + test.options.filter { $0.hasPrefix("#") || $0 == "--background" }).status, 0)
        var rendered = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasSuffix(".png") }
            .sorted().map { frames.appendingPathComponent($0) }
        if corrupt {
            // The control: one rendered frame with a square painted over it must fail the comparison.
            var picture = try PNGDecoder().decodeStraight([UInt8](try Data(contentsOf: URL(fileURLWithPath: rendered[rendered.count / 2].path))))
            for y in 0..<min(24, picture.height) {
                for x in 0..<min(24, picture.width) {
                    let offset = (y * picture.width + x) * 4
                    picture.pixels.replaceSubrange(offset..<offset + 4, with: [255, 0, 255, 255])
                }
            }
            var encoder = PNGEncoder(options: .fast)
            let bytes = try encoder.encode(pixels: picture.pixels, width: picture.width, height: picture.height, layout: .rgba)
            let copy = work.appendingPathComponent("corrupt.png")
            try Data(bytes).write(to: copy)
            rendered[rendered.count / 2] = copy
        }
        let decoded = try decode(animation, with: test.tool, into: work.appendingPathComponent("decoded"))
        let fps = 24.0
        let tick = test.file.hasSuffix(".gif") ? 10 : 1
        let order: [Int]
        if test.tool == "pillow" {
            let length = Int((Double(rendered.count) * Double(1000 / tick) / fps).rounded()) * tick
            XCTAssertEqual(decoded.durations.reduce(0, +), length, "\(test.file): the durations add up to the clip's length")
            // The clip's plays (the summary line says "looping" or "playing N×"), as each format stores them.
            let plays = run.stdout.contains("looping") ? 0
                : Int(run.stdout.components(separatedBy: "playing ").last?.prefix { $0.isNumber } ?? "") ?? -1
            let loop: Int? = tick == 1 ? plays : (plays == 1 ? nil : max(0, plays - 1))
            XCTAssertEqual(decoded.loop, loop, "\(test.file): the loop count for \(plays) play(s)")
            order = schedule(decoded.durations, count: rendered.count, fps: fps, tick: tick)
        } else {
            // ffmpeg gives no durations here; the frames must come in the order Pillow finds them.
            let reference = try decode(animation, with: "pillow", into: work.appendingPathComponent("pillow"))
            XCTAssertEqual(decoded.frames.count, reference.frames.count, "\(test.file): ffmpeg and Pillow count the same frames")
            order = schedule(reference.durations, count: rendered.count, fps: fps, tick: tick)
        }
        let errors = try compare(decoded.frames, order: order, rendered: rendered, name: "\(test.clip)-\(test.file)",
                                 bound: test.bound)
        if test.file.hasSuffix(".webp"), try CommandRun.run(["sh", "-c", "command -v webpmux"]).status == 0 {
            // libwebp's own tool reads the container: the loop count and one frame per distinct rendered frame at most.
            let info = try CommandRun.run(["webpmux", "-info", animation.path])
            XCTAssertTrue(info.output.contains("Loop Count : \(decoded.loop ?? -1)"), info.output)
            XCTAssertTrue(info.output.contains("Number of frames: \(decoded.frames.count)"), info.output)
        }
        if test.file.hasSuffix(".webp"), !corrupt, try CommandRun.run(["sh", "-c", "command -v dwebp"]).status == 0 {
            firstRendered = rendered[0]
            let error = try firstFrameWithDWebP(animation, in: work)
            XCTAssertTrue(error == nil || error == 0, "\(test.file): dwebp's first frame is off by \(error ?? 0)")
        }
        let bytes = try FileManager.default.attributesOfItem(atPath: animation.path)[.size] as? Int ?? 0
        let apngBytes = try FileManager.default.attributesOfItem(atPath: apng.path)[.size] as? Int ?? 0
        return (errors, bytes, apngBytes)
    }

    /// libwebp's own tools on the first frame: `webpmux` extracts it, `dwebp` decodes it, and it is placed at its
    /// offset on a transparent canvas; returns the largest error against `render`'s frame 0 (lossless only: else nil).
    func firstFrameWithDWebP(_ file: URL, in folder: URL) throws -> Int? {
        guard !file.lastPathComponent.contains("-q") else { return nil }
        let frame = folder.appendingPathComponent("first.webp"), pam = folder.appendingPathComponent("first.pam")
        XCTAssertEqual(try CommandRun.run(["webpmux", "-get", "frame", "1", file.path, "-o", frame.path]).status, 0)
        XCTAssertEqual(try CommandRun.run(["dwebp", frame.path, "-pam", "-o", pam.path]).status, 0)
        let info = try CommandRun.run(["webpmux", "-info", file.path]).output
        let row = try XCTUnwrap(info.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1:") })
        let fields = row.split(separator: " ").map(String.init)  // 1: width height alpha x y …
        let (x, y) = (Int(fields[4]) ?? 0, Int(fields[5]) ?? 0)
        let data = [UInt8](try Data(contentsOf: pam))
        let header = String(decoding: data.prefix(200), as: UTF8.self)
        let width = Int(header.firstMatch(of: /WIDTH (\d+)/)?.1 ?? "") ?? 0
        let height = Int(header.firstMatch(of: /HEIGHT (\d+)/)?.1 ?? "") ?? 0
        let start = try XCTUnwrap(header.range(of: "ENDHDR\n")).upperBound.utf16Offset(in: header)
        let expected = try PNGDecoder().decodeStraight([UInt8](try Data(contentsOf: firstRendered)))
        var canvas = [UInt8](repeating: 0, count: expected.pixels.count)
        for row in 0..<height {
            for column in 0..<width {
                let from = start + (row * width + column) * 4, to = ((y + row) * expected.width + x + column) * 4
                canvas.replaceSubrange(to..<to + 4, with: data[from..<from + 4])
            }
        }
        return FrameError(canvas, expected.pixels).max
    }

    func requireDecoders(_ tools: [String]) throws {
        for tool in tools where try CommandRun.run(["sh", "-c", "command -v \(tool)"]).status != 0 {
            throw XCTSkip("\(tool) is not installed (Scripts/ensure-deps.sh test installs it)")
        }
        if try CommandRun.run(["python3", "-c", "import PIL"]).status != 0 {
            throw XCTSkip("Pillow is not installed (Scripts/ensure-deps.sh test installs it from PyPI)")
        }
    }

    func testDecodedFramesMatchRenderedFrames() throws {
        try requireDecoders(["ffmpeg", "python3"])
        let root = try TestPaths.temporaryFolder("animated-gif-webp")
        defer { try? FileManager.default.removeItem(at: root) }
        let opaque = ["--background", "#336699"]
        let cases: [Case] = [
            Case(sample: "animate-walker", clip: "walk", file: "walk.webp", options: [], tool: "pillow", bound: (0, 0)),
            Case(sample: "animate-walker", clip: "walk", file: "walk-o.webp", options: opaque, tool: "pillow", bound: (0, 0)),
            Case(sample: "animate-walker", clip: "walk", file: "walk-q.webp", options: ["--webp", "lossy"], tool: "pillow",
                 bound: Self.lossyBound),
            Case(sample: "animate-walker", clip: "walk", file: "walk.gif", options: [], tool: "pillow", bound: Self.gifBound),
            Case(sample: "animate-walker", clip: "walk", file: "walk.gif", options: [], tool: "ffmpeg", bound: Self.gifBound),
            Case(sample: "animate-walker", clip: "walk", file: "walk-o.gif", options: opaque, tool: "ffmpeg", bound: Self.gifBound),
            Case(sample: "animate-walker", clip: "walk", file: "walk-g.gif", options: ["--gif-palette", "global", "--dither"],
                 tool: "pillow", bound: Self.gifBound),
            Case(sample: "dragonbones-waver", clip: "wave", file: "wave.gif", options: [], tool: "pillow", bound: Self.gifBound),
            Case(sample: "dragonbones-waver", clip: "wave", file: "wave.webp", options: [], tool: "pillow", bound: (0, 0)),
        ]
        for test in cases {
            let result = try check(test, root: root)
            let worst = result.errors.map(\.mean).max() ?? 0
            let largest = result.errors.map(\.max).max() ?? 0
            print("\(test.sample) \(test.file) \(test.options.joined(separator: " ")) [\(test.tool)]: \(result.errors.count) "
                  + "frames, worst mean error \(String(format: "%.3f", worst)), max \(largest); \(result.bytes) bytes "
                  + "(APNG \(result.apng))")
            XCTAssertFalse(result.errors.isEmpty, "\(test.file): no frames compared")
            XCTAssertLessThanOrEqual(worst, test.bound.mean, "\(test.file) [\(test.tool)]: mean error per channel")
            XCTAssertLessThanOrEqual(largest, test.bound.max, "\(test.file) [\(test.tool)]: largest error")
        }
    }

    /// The control: a frame that differs from the decoded one fails, for the exact and the bounded comparisons.
    func testACorruptedFrameFails() throws {
        try requireDecoders(["python3"])
        let root = try TestPaths.temporaryFolder("animated-gif-webp-control")
        defer { try? FileManager.default.removeItem(at: root) }
        for test in [Case(sample: "animate-walker", clip: "walk", file: "walk.webp", options: [], tool: "pillow", bound: (0, 0)),
                     Case(sample: "animate-walker", clip: "walk", file: "walk.gif", options: [], tool: "pillow", bound: Self.gifBound)] {
            let result = try check(test, root: root, corrupt: true)
            let failing = result.errors.enumerated().filter { $0.element.mean > test.bound.mean || $0.element.max > test.bound.max }
            XCTAssertEqual(failing.map(\.offset), [result.errors.count / 2], "\(test.file): only the corrupted frame fails")
        }
    }

    /// Options that do not fit the format, or values out of range, are usage errors (exit 2) and write nothing.
    func testOptionsMustFitTheFormat() throws {
        let root = try TestPaths.temporaryFolder("animated-gif-webp-usage")
        defer { try? FileManager.default.removeItem(at: root) }
        let walker = samples.appendingPathComponent("animate-walker").path
        let gif = root.appendingPathComponent("a.gif").path, webp = root.appendingPathComponent("a.webp").path
        for (arguments, message) in [
            (["--animated", webp, "--webp", "lossy=101"], "--webp lossy=101: expected lossless, lossy or lossy=QUALITY"),
            (["--animated", webp, "--webp", "fast"], "--webp fast: expected"),
            (["--animated", gif, "--webp", "lossy"], "--webp applies to an --animated .webp file"),
            (["--animated", webp, "--dither"], "--gif-palette and --dither apply to an --animated .gif file"),
            (["--animated", gif, "--gif-palette", "local"], "--gif-palette local: expected global or frame"),
            (["--gif-palette", "global"], "--webp, --gif-palette and --dither apply to --animated"),
            (["--animated", root.appendingPathComponent("a.jpg").path], "the extension chooses the format"),
        ] {
            let run = try CLIRunner.run(["render", walker, "--clip", "walk", "-o", root.path] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: gif))
        XCTAssertFalse(FileManager.default.fileExists(atPath: webp))
    }

    /// Lossy WebP at the default quality (90): the bound on a frame's mean error per channel (measured: 2.70 at
    /// worst on the walk); single pixels are not bounded (a lossy block's edge).
    static let lossyBound = (mean: 4.0, max: 255)
    /// GIF: the bound on a frame's mean error per channel (measured: 2.07 with frame palettes, 2.18 global and
    /// dithered, 0.08 opaque); single pixels are not bounded, since alpha is one bit (127 becomes 0).
    static let gifBound = (mean: 3.0, max: 255)
}
