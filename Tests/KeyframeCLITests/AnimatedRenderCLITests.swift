#if canImport(Glibc)  // ChromiumSession is Linux-only.
import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe render --animated`: the animated PNG, decoded frame by frame by Chromium's own image decoder
/// (WebCodecs `ImageDecoder`), is `render`'s PNG frames — exactly when they are opaque, within the rounding of the
/// browser's premultiplied canvas when not — each shown for 1/fps, looping as the clip does.
final class AnimatedRenderCLITests: XCTestCase {
    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }

    /// Every frame of `file` as Chromium decodes it: (duration in µs, PNG bytes of the frame), and the loop count.
    func decode(_ file: URL, in chromium: ChromiumSession, folder: URL) throws -> (frames: [(Int, [UInt8])], loops: Double?) {
        let page = folder.appendingPathComponent("decode-\(file.lastPathComponent).html")
        let base64 = try Data(contentsOf: file).base64EncodedString()
        try Data("<!DOCTYPE html><script>window.animation = \"\(base64)\";</script>".utf8).write(to: page)
        try chromium.navigate(page.absoluteURL.absoluteString)
        let value = try chromium.evaluate("""
            (async () => {
              const bytes = Uint8Array.from(atob(window.animation), c => c.charCodeAt(0));
              const decoder = new ImageDecoder({ data: bytes, type: "image/png" });
              await decoder.tracks.ready; await decoder.completed;
              const track = decoder.tracks.selectedTrack;
              const frames = [];
              for (let i = 0; i < track.frameCount; i++) {
                const { image } = await decoder.decode({ frameIndex: i });
                const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
                canvas.getContext("2d").drawImage(image, 0, 0);
                const blob = await canvas.convertToBlob({ type: "image/png" });
                const data = new Uint8Array(await blob.arrayBuffer());
                let text = ""; for (const b of data) text += String.fromCharCode(b);
                frames.push([image.duration, btoa(text)]);
                image.close();
              }
              return { frames, loops: track.repetitionCount === Infinity ? -1 : track.repetitionCount };
            })()
            """)
        let object = try XCTUnwrap(value as? [String: Any])
        let frames = try XCTUnwrap(object["frames"] as? [[Any]]).map { entry -> (Int, [UInt8]) in
            ((entry[0] as? NSNumber)?.intValue ?? -1, [UInt8](Data(base64Encoded: entry[1] as? String ?? "") ?? Data()))
        }
        let loops = (object["loops"] as? NSNumber)?.doubleValue
        return (frames, loops == -1 ? .infinity : loops)
    }

    func testAnimatedPNGDecodesToRendersFrames() throws {
        guard let executable = ChromiumSession.executable() else {
            throw XCTSkip("chromium is not installed (Scripts/ensure-deps.sh installs it); the animation cannot be decoded")
        }
        let root = try TestPaths.temporaryFolder("animated-render")
        defer { try? FileManager.default.removeItem(at: root) }
        let chromium = try ChromiumSession(executable: executable, width: 400, height: 300)
        defer { chromium.close() }
        for (background, tolerance) in [("#336699", 0), (nil, 2)] as [(String?, Int)] {
            let options = ["--clip", "walk"] + (background.map { ["--background", $0] } ?? [])
            let frames = root.appendingPathComponent("frames-\(tolerance)")
            let animation = root.appendingPathComponent("walk-\(tolerance).png")
            let result = try CLIRunner.run(["render", walker, "-o", frames.path, "--animated", animation.path] + options)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("\(animation.path): animated PNG, 24 frame(s) at 24 fps, looping"),
                          result.stdout)
            let decoded = try decode(animation, in: chromium, folder: root)
            XCTAssertEqual(decoded.frames.count, 24)
            XCTAssertEqual(decoded.loops, .infinity, "the walk clip loops")
            for (index, frame) in decoded.frames.enumerated() {
                XCTAssertEqual(Double(frame.0), 1_000_000 / 24, accuracy: 1000, "frame \(index) lasts 1/24 s")
                let expected = try PNGDecoder().decode(contentsOf: frames.appendingPathComponent(String(format: "walk-%04d.png", index)).path)
                let comparison = BitmapComparison.compare(try PNGDecoder().decode(frame.1), expected, tolerance: tolerance)
                if !comparison.matches {
                    var encoder = PNGEncoder(options: .fast)
                    comparison.writeArtifacts(named: "animated-walk-\(index).png", actual: try PNGDecoder().decode(frame.1),
                                              directory: BitmapComparison.artifactDirectory, encoder: { try encoder.encode($0) })
                }
                XCTAssertTrue(comparison.matches, "frame \(index), tolerance \(tolerance): \(comparison.summary)")
            }
        }
        // A held pose is one frame shown longer: the spinner's wheel stops at frame 16 and holds to frame 23, so the
        // animation stores 17 frames, the last shown for 8/24 s, and no frame files are left without -o.
        let spinner = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path
        let spin = root.appendingPathComponent("spin.png")
        let run = try CLIRunner.run(["render", spinner, "--animated", spin.path, "--background", "#ffffff"], directory: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        let decoded = try decode(spin, in: chromium, folder: root)
        XCTAssertEqual(decoded.frames.count, 17)
        XCTAssertEqual(Double(decoded.frames.last?.0 ?? 0), 8 * 1_000_000 / 24, accuracy: 1000)
        XCTAssertEqual(Double(decoded.frames.map(\.0).reduce(0, +)), 1_000_000, accuracy: 17 * 1000, "the whole second")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("spinner-") }, [],
                       "without -o no frame files are left")
    }

    func testBadUses() throws {
        let root = try TestPaths.temporaryFolder("animated-render-bad")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("a.png").path
        let several = try CLIRunner.run(["render", walker, "--animated", file])
        XCTAssertEqual(several.status, 1)
        XCTAssertTrue(several.stderr.contains("--animated writes one clip's animation; choose it with --clip (clips: walk, wave, walker)"),
                      several.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        XCTAssertEqual(try CLIRunner.run(["render", walker, "--clip", "walk", "--animated", root.appendingPathComponent("a.jpg").path]).status, 2)
        XCTAssertEqual(try CLIRunner.run(["render", walker, "--clip", "walk", "--animated", file, "--at", "0.5"]).status, 2)
        // A folder where the file should be: refused before anything is drawn.
        let folder = root.appendingPathComponent("taken.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let refused = try CLIRunner.run(["render", walker, "--clip", "walk", "--animated", folder.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.hasPrefix("keyframe: error: cannot write \(folder.path): "), refused.stderr)
    }
}
#endif
