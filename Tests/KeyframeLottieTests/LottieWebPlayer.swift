#if canImport(Glibc)  // ChromiumSession is Linux-only.
import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// lottie-web 5.13 — the player web apps ship — playing Lottie files in a headless Chromium, with any of its three
/// renderers.
///
/// The player is loaded from `../shared/players/lottie-web-5.13.0/lottie.min.js` (the build with every renderer; never
/// copied into the project) by a page written to a temporary folder. One browser serves many files: ``load(_:renderer:)``
/// replaces the animation on the same page, and ``render(frames:)`` shows each frame with `goToAndStop(frame, true)`
/// and takes a screenshot of the animation's own rectangle on a transparent page, so what comes back is what the
/// renderer drew, alpha included, at device scale 1.
final class LottieWebPlayer {
    /// lottie-web's renderers.
    enum Renderer: String, CaseIterable {
        /// SVG elements (lottie-web's default).
        case svg
        /// A 2D canvas.
        case canvas
        /// HTML elements with CSS transforms.
        case html
    }

    /// What lottie-web reports about a loaded file.
    struct Info {
        var width: Int
        var height: Int
        /// `totalFrames` (`op − ip`).
        var frames: Double
        /// The markers lottie-web read (`markers`: name, start frame, duration).
        var markers: [(name: String, start: Double, duration: Double)]
    }

    /// lottie-web refused a file or failed while drawing it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let folder = TestPaths.shared.appendingPathComponent("players/lottie-web-5.13.0")
    static let script = folder.appendingPathComponent("lottie.min.js")

    private let session: ChromiumSession
    private let pageFolder: URL
    private var viewport = (width: 0, height: 0)

    /// Starts Chromium with a page that has lottie-web loaded. Skips (`XCTSkip`) when Chromium or the player is absent.
    /// `unstyledImages`: the page leaves images to the browser's default style (see ``page(script:unstyledImages:)``).
    init(unstyledImages: Bool = false) throws {
        guard let executable = ChromiumSession.executable() else {
            throw XCTSkip("chromium is not installed (Scripts/ensure-deps.sh test installs it); lottie-web cannot run")
        }
        guard FileManager.default.fileExists(atPath: Self.script.path) else {
            throw XCTSkip("\(Self.script.path) is absent (../shared beside the checkout has it in CI)")
        }
        pageFolder = try TestPaths.temporaryFolder("keyframe-lottie-web")
        let page = pageFolder.appendingPathComponent("player.html")
        try Data(Self.page(script: Self.script, unstyledImages: unstyledImages).utf8).write(to: page)
        session = try ChromiumSession(executable: executable, width: 800, height: 600, watchNetwork: false)
        viewport = (800, 600)
        try session.makeBackgroundTransparent()
        try session.navigate(page.absoluteString)
        guard (try session.evaluate("typeof lottie === 'object' && lottie.version") as? String) == "5.13.0" else {
            throw Failure(description: "lottie-web 5.13.0 did not load from \(Self.script.path)")
        }
    }

    deinit { close() }

    /// Closes the browser and removes the page.
    func close() {
        session.close()
        try? FileManager.default.removeItem(at: pageFolder)
    }

    /// Loads `json` (a Lottie file, images embedded) with `renderer`, replacing the animation shown before, and waits
    /// until its DOM and images are ready. Throws lottie-web's own error when it refuses the file.
    @discardableResult
    func load(_ json: [UInt8], renderer: Renderer) throws -> Info {
        let text = String(decoding: json, as: UTF8.self)
        let value = try session.evaluate("keyframeLottie.load(\(text), '\(renderer.rawValue)')", timeout: 120)
        guard let result = value as? [String: Any], let width = (result["w"] as? NSNumber)?.intValue,
            let height = (result["h"] as? NSNumber)?.intValue
        else { throw Failure(description: "lottie-web (\(renderer)) returned \(String(describing: value))") }
        if let errors = result["errors"] as? [String], !errors.isEmpty {
            throw Failure(description: "lottie-web (\(renderer)) refuses the file: \(errors.joined(separator: "; "))")
        }
        if width > viewport.width || height > viewport.height {
            viewport = (max(width, viewport.width), max(height, viewport.height))
            try session.resize(width: viewport.width, height: viewport.height)
        }
        let markers = (result["markers"] as? [[String: Any]] ?? []).map { marker in
            (name: marker["name"] as? String ?? "", start: (marker["start"] as? NSNumber)?.doubleValue ?? .nan,
             duration: (marker["duration"] as? NSNumber)?.doubleValue ?? .nan)
        }
        return Info(width: width, height: height, frames: (result["frames"] as? NSNumber)?.doubleValue ?? 0,
                    markers: markers)
    }

    /// The loaded animation at each of `frames` (`goToAndStop(frame, true)`), as premultiplied bitmaps of the
    /// animation's size.
    func render(frames: [Int]) throws -> [Bitmap] {
        try frames.map { try show("\($0)") }
    }

    /// The loaded animation at the start of marker `name` (`goToAndStop(name)`: lottie-web looks the marker up).
    func render(marker name: String) throws -> Bitmap {
        let literal = String(decoding: try JSONSerialization.data(withJSONObject: [name]), as: UTF8.self)
        return try show("\(literal)[0]")
    }

    /// The frame lottie-web shows after `goToAndStop(<argument>, true)`.
    private func show(_ argument: String) throws -> Bitmap {
        let value = try session.evaluate("keyframeLottie.show(\(argument))")
        guard let result = value as? [String: Any], let width = (result["w"] as? NSNumber)?.doubleValue,
            let height = (result["h"] as? NSNumber)?.doubleValue
        else { throw Failure(description: "lottie-web returned \(String(describing: value)) for frame \(argument)") }
        if let errors = result["errors"] as? [String], !errors.isEmpty {
            throw Failure(description: "lottie-web failed drawing frame \(argument): \(errors.joined(separator: "; "))")
        }
        let png = try session.screenshot(x: 0, y: 0, width: width, height: height)
        return try PNGDecoder().decode(png)
    }

    /// The page: lottie-web from ../shared, one container at the page's top-left corner, and the two functions the
    /// player calls (`load` waits for lottie-web's `DOMLoaded` and `loaded_images` events and gathers its `error`
    /// events; `show` goes to a frame and waits for two animation frames, so the screenshot sees it drawn).
    ///
    /// Unless `unstyledImages`, the page styles the container's images as blocks: lottie-web's html renderer places
    /// each picture as an inline `<img>`, which a page without that style sets on the text baseline, several pixels
    /// below its place (docs/conformance.md).
    static func page(script: URL, unstyledImages: Bool) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8">
        <style>html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
        #stage { position: absolute; left: 0; top: 0; overflow: hidden; }\(unstyledImages ? "" : """

        /* lottie-web's html renderer draws images as inline <img>: block keeps them off the text baseline. */
        #stage img { display: block; }
        """)</style>
        <script src="\(script.absoluteString)"></script>
        <script>
        window.keyframeLottie = {
          animation: null, errors: [], size: null,
          load(data, renderer) {
            if (this.animation) { this.animation.destroy(); this.animation = null; }
            const stage = document.getElementById('stage');
            stage.innerHTML = '';
            stage.style.width = data.w + 'px';
            stage.style.height = data.h + 'px';
            this.errors = [];
            this.size = { w: data.w, h: data.h };
            return new Promise((resolve) => {
              let dom = false, images = false, settled = false;
              const finish = () => {
                if (settled) { return; }
                settled = true;
                const a = this.animation;
                resolve({ w: data.w, h: data.h, frames: a ? a.totalFrames : 0, errors: this.errors,
                          markers: a ? a.markers.map((m) => ({ name: m.payload.name, start: m.time,
                                                                duration: m.duration })) : [] });
              };
              try {
                const a = lottie.loadAnimation({ container: stage, renderer: renderer, loop: false, autoplay: false,
                                                 animationData: data });
                this.animation = a;
                a.addEventListener('error', (e) => {
                  const n = e.nativeError;
                  this.errors.push(String(n && (n.stack || n.message) || n || e.type));
                  finish();
                });
                a.addEventListener('data_failed', () => { this.errors.push('data_failed'); finish(); });
                a.addEventListener('DOMLoaded', () => { dom = true; if (images) { finish(); } });
                a.addEventListener('loaded_images', () => { images = true; if (dom) { finish(); } });
                setTimeout(() => {
                  if (!settled) { this.errors.push('not loaded after 10 s (DOMLoaded: ' + dom + ', images: ' + images + ')'); finish(); }
                }, 10000);
              } catch (error) {
                this.errors.push(String(error && error.stack || error));
                finish();
              }
            });
          },
          show(frame) {
            const count = this.errors.length;
            try { this.animation.goToAndStop(frame, true); } catch (error) { this.errors.push(String(error.stack || error)); }
            return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() =>
              resolve({ w: this.size.w, h: this.size.h, errors: this.errors.slice(count) }))));
          }
        };
        </script></head>
        <body><div id="stage"></div></body></html>
        """
    }
}
#endif
