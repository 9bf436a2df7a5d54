import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

// Every frame of every movie of every Flump sample (the XML one included, which has no third-party golden) against
// a player that runs the raw library (read by FlumpRawLibrary, not by the importer) the way Flump's ActionScript
// runtime does, written from formats.md §4.2 and `Movie.as` / `Layer.as`:
// - `Layer`: one display object per keyframe, shared by consecutive keyframes naming the same symbol; a layer that
//   never names anything shows nothing. `drawFrame(f)`: past the layer's last keyframe's end the current display is
//   hidden (and stays the current display); otherwise the current keyframe is the last one whose index ≤ f, its
//   display object is swapped in — a movie swapped in restarts (`addedToLayer`: `goTo(0)`, and it skips the
//   `advanceTime` of that tick) —, and on a tweened keyframe that is not the layer's last, p = (f − index)/duration,
//   eased to p − ease·p·(1 − p), takes x, y, scaleX, scaleY, skewX, skewY, alpha linearly towards the next keyframe;
//   otherwise the keyframe's own values; pivot and visible always come from the current keyframe;
// - `Movie.advanceTime`: a movie of more than one frame moves one frame per tick and wraps, drawing its layers when
//   its frame changes; then every layer's current display that is a movie advances by the same tick — whether or
//   not it is visible, and whatever its parent's frame did. So a nested movie keeps running across its parent's
//   loop while its layer keeps the same display object (pixi-flump-runtime does the same; NestedClockTests and the
//   `flump-own/nested-deep` golden check that against it);
// - the display matrix is scale, then skew, then the translation that puts the pivot on (x, y); a texture's pixel
//   `pivot` is the one placed (2013 schema and 2012 `resources.json`: the texture drawn at −origin inside the
//   display, whose pivot the keyframe gives).
// Each top-level movie is played from its construction for one pass and compared at every tick, exactly up to
// floating-point noise (1e-9).

final class FlumpDrawFrameOracleTests: XCTestCase {
    /// Our own libraries with nested movies inside nested movies (Tests/KeyframeEngineTests/Fixtures/flump-own).
    static let ownLibraries = ["nested-clock", "nested-deep", "resources-2012"].map {
        TestPaths.packageRoot.appendingPathComponent("Tests/KeyframeEngineTests/Fixtures/flump-own/\($0)/export")
    }

    func testEveryFrameFollowsDrawFrame() throws {
        var checked = 0
        let folders = try FlumpCorpusTests.samples() + [TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")]
            + Self.ownLibraries
        for folder in folders {
            checked += try compare(folder)
        }
        print("FlumpDrawFrameOracleTests: \(checked) movie-frames of \(folders.count) libraries compared")
        XCTAssertGreaterThan(checked, 500)
    }

    /// A grandchild movie keeps running when its parent movie wraps (the case the first version of this test got
    /// wrong): in `nested-deep`, `scene` holds the 10-frame `walker`, which shows the 7-frame `wheel` all through
    /// and the 4-frame `wave` on a layer that ends after 6 frames. The runtime's frames are checked here directly
    /// against the player, and the player against pixi-flump-runtime's record of the same library.
    func testNestedMoviesKeepRunningAcrossTheirParentsLoop() throws {
        let folder = Self.ownLibraries[1]
        XCTAssertEqual(folder.deletingLastPathComponent().lastPathComponent, "nested-deep")
        let raw = try FlumpRawLibrary(url: folder.appendingPathComponent("library.json"))
        let player = try Player(raw: raw, movie: "scene")
        let golden = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.deletingLastPathComponent().appendingPathComponent("golden/scene.json")))
            as! [String: Any]
        let frames = golden["frames"] as! [[String: Any]]
        var wheelFrames: [Int] = [], waveFrames: [Int] = []
        for (tick, frame) in frames.enumerated() {
            if tick > 0 { player.advance() }
            let walker = try XCTUnwrap(player.root.layers[0].currentMovie)
            let wheel = try XCTUnwrap(walker.layers[1].currentMovie)
            let wave = try XCTUnwrap(walker.layers[2].currentMovie)
            wheelFrames.append(wheel.frame)
            waveFrames.append(wave.frame)
            let goldenWalker = (frame["layers"] as! [[String: Any]])[0]["child"] as! [String: Any]
            let goldenLayers = goldenWalker["layers"] as! [[String: Any]]
            XCTAssertEqual(walker.frame, goldenWalker["frame"] as? Int, "tick \(tick)")
            XCTAssertEqual(wheel.frame, (goldenLayers[1]["child"] as? [String: Any])?["frame"] as? Int, "wheel, tick \(tick)")
            XCTAssertEqual(wave.frame, (goldenLayers[2]["child"] as? [String: Any])?["frame"] as? Int, "wave, tick \(tick)")
        }
        XCTAssertEqual(wheelFrames, (0..<40).map { $0 % 7 })
        XCTAssertEqual(waveFrames, (0..<40).map { $0 % 4 })
        // And the converted document shows the same frames.
        XCTAssertEqual(try compare(folder), 40 + 10 + 7 + 4)
    }

    /// Plays every movie of the library in `folder` with ``Player`` and compares each tick with the converted
    /// document's pose; returns the number of frames compared.
    private func compare(_ folder: URL) throws -> Int {
        let raw = try FlumpRawLibrary(url: try FlumpCorpusTests.libraryFile(in: folder))
        let document = try Importer.importDocument(at: folder)
        let sampler = PoseSampler(document: document)
        let name = folder.lastPathComponent == "export" ? folder.deletingLastPathComponent().lastPathComponent
            : folder.lastPathComponent
        var checked = 0
        for movie in raw.movies {
            let player = try Player(raw: raw, movie: movie.id)
            for frame in 0..<movie.frames {
                if frame > 0 { player.advance() }
                let pose = sampler.sample(composition: movie.id, frame: Frames(Double(frame)))
                var expected: [(sprite: String, matrix: Matrix2D, alpha: Double)] = []
                player.draw(into: &expected)
                let label = "\(name) \(movie.id) frame \(frame)"
                XCTAssertEqual(pose.items.map(\.sprite), expected.map(\.sprite), label)
                for (item, want) in zip(pose.items, expected) {
                    let m = item.transform, e = want.matrix
                    for (a, b) in [(m.a, e.a), (m.b, e.b), (m.c, e.c), (m.d, e.d), (m.tx, e.tx), (m.ty, e.ty)] {
                        XCTAssertEqual(a, b, accuracy: 1e-9, "\(label) \(item.sprite)")
                    }
                    XCTAssertEqual(item.color.alphaMultiplier, want.alpha, accuracy: 1e-12, "\(label) \(item.sprite)")
                }
                checked += 1
            }
        }
        return checked
    }

    /// One top-level movie played tick by tick with the ActionScript runtime's display-object rules.
    final class Player {
        let raw: FlumpRawLibrary
        let textures: [String: FlumpRawLibrary.Texture]
        let scale: Double
        let root: MovieInstance

        init(raw: FlumpRawLibrary, movie: String) throws {
            self.raw = raw
            let group = try XCTUnwrap(raw.textureGroups.first { $0.scaleFactor == 1 } ?? raw.textureGroups.first)
            textures = Dictionary(group.textures.map { ($0.symbol, $0) }, uniquingKeysWith: { a, _ in a })
            scale = group.scaleFactor
            let movies = Dictionary(raw.movies.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            root = MovieInstance(try XCTUnwrap(movies[movie]), movies: movies, depth: 0)
        }

        /// One tick of the clock (one frame's time).
        func advance() { root.advanceTime() }

        /// The sprites drawn now, back to front, with their matrices and alphas.
        func draw(into items: inout [(sprite: String, matrix: Matrix2D, alpha: Double)]) {
            draw(root, parent: .identity, alpha: 1, into: &items)
        }

        private func draw(_ movie: MovieInstance, parent: Matrix2D, alpha: Double,
                          into items: inout [(sprite: String, matrix: Matrix2D, alpha: Double)]) {
            for layer in movie.layers {
                guard let display = layer.current, layer.visible, let k = layer.keyframe else { continue }
                var v = (x: k.x, y: k.y, sx: k.scaleX, sy: k.scaleY, kx: k.skewX, ky: k.skewY, alpha: k.alpha)
                if let p = layer.progress {
                    let n = layer.layer.keyframes[layer.keyframeIndex + 1]
                    v = (k.x + (n.x - k.x) * p, k.y + (n.y - k.y) * p, k.scaleX + (n.scaleX - k.scaleX) * p,
                         k.scaleY + (n.scaleY - k.scaleY) * p, k.skewX + (n.skewX - k.skewX) * p,
                         k.skewY + (n.skewY - k.skewY) * p, k.alpha + (n.alpha - k.alpha) * p)
                }
                let a = v.sx * cos(v.ky), b = v.sx * sin(v.ky), c = -v.sy * sin(v.kx), d = v.sy * cos(v.kx)
                func placed(_ pivot: (Double, Double)) -> Matrix2D {
                    parent.concatenating(Matrix2D(a: a, b: b, c: c, d: d, tx: v.x - (a * pivot.0 + c * pivot.1),
                                                  ty: v.y - (b * pivot.0 + d * pivot.1)))
                }
                switch display.content {
                case .empty:
                    break
                case .texture(let symbol):
                    guard let texture = textures[symbol] else { break }
                    // Old schemas draw the texture at `offset` (= −origin) inside the display the pivot moves.
                    let pivot = raw.isOldSchema
                        ? (k.pivotX + texture.origin[0] / scale, k.pivotY + texture.origin[1] / scale) : (k.pivotX, k.pivotY)
                    items.append((symbol, placed(pivot), alpha * v.alpha))
                case .movie(let child):
                    draw(child, parent: placed((k.pivotX, k.pivotY)), alpha: alpha * v.alpha, into: &items)
                }
            }
        }
    }

    /// A display object on a layer: nothing, a texture, or a movie with its own playhead.
    final class Display {
        enum Content {
            case empty
            case texture(String)
            case movie(MovieInstance)
        }
        let content: Content
        init(_ content: Content) { self.content = content }
    }

    /// `Movie.as`: a playhead in whole frames, layers, and the skipped tick after being swapped in.
    final class MovieInstance {
        let movie: FlumpRawLibrary.Movie
        let frames: Int
        private(set) var frame = -1
        var layers: [LayerInstance] = []
        private var skipAdvance = false

        init(_ movie: FlumpRawLibrary.Movie, movies: [String: FlumpRawLibrary.Movie], depth: Int) {
            self.movie = movie
            frames = movie.frames
            layers = movie.playedLayers.map { LayerInstance($0, movies: movies, depth: depth) }
            update(to: 0)
        }

        /// `addedToLayer`: back to frame 0, and this tick's `advanceTime` is skipped.
        func addedToLayer() {
            update(to: 0)
            skipAdvance = true
        }

        /// `advanceTime` by one frame's time.
        func advanceTime() {
            if skipAdvance {
                skipAdvance = false
                return
            }
            if frames > 1 { update(to: (frame + 1) % frames) }
            for layer in layers { layer.currentMovie?.advanceTime() }
        }

        /// `updateFrame`: layers are drawn when the frame changes.
        private func update(to newFrame: Int) {
            guard newFrame != frame else { return }
            frame = newFrame
            for layer in layers { layer.drawFrame(newFrame) }
        }
    }

    /// `Layer.as`: its display objects, the current one, and what `drawFrame` last set.
    final class LayerInstance {
        let layer: FlumpRawLibrary.Layer
        /// One per keyframe; `nil` for a layer that never names a symbol.
        private let displays: [Display]?
        private(set) var current: Display?
        private(set) var keyframeIndex = 0
        private(set) var visible = true
        /// The eased tween progress towards the next keyframe, or `nil` when the keyframe's own values show.
        private(set) var progress: Double?

        var keyframe: FlumpRawLibrary.Keyframe? {
            layer.keyframes.indices.contains(keyframeIndex) ? layer.keyframes[keyframeIndex] : nil
        }
        var currentMovie: MovieInstance? {
            if case .movie(let movie)? = current?.content { return movie }
            return nil
        }

        init(_ layer: FlumpRawLibrary.Layer, movies: [String: FlumpRawLibrary.Movie], depth: Int) {
            self.layer = layer
            guard layer.flipbook || layer.keyframes.contains(where: { $0.ref != nil }) else {
                displays = nil
                return
            }
            var list: [Display] = []
            for (index, k) in layer.keyframes.enumerated() {
                if index > 0, layer.keyframes[index - 1].ref == k.ref {
                    list.append(list[index - 1])
                } else if let ref = k.ref, let movie = movies[ref], depth < 64 {
                    list.append(Display(.movie(MovieInstance(movie, movies: movies, depth: depth + 1))))
                } else {
                    list.append(Display(k.ref.map { .texture($0) } ?? .empty))
                }
            }
            displays = list
            current = list.first
        }

        func drawFrame(_ frame: Int) {
            guard let displays else { return }
            if frame >= layer.frames {
                visible = false
                keyframeIndex = layer.keyframes.count - 1
                return
            }
            if layer.keyframes[keyframeIndex].index > frame { keyframeIndex = 0 }
            while keyframeIndex < layer.keyframes.count - 1, layer.keyframes[keyframeIndex + 1].index <= frame {
                keyframeIndex += 1
            }
            let display = displays[keyframeIndex]
            if current !== display {
                if case .movie(let movie) = display.content { movie.addedToLayer() }
                current = display
            }
            let k = layer.keyframes[keyframeIndex]
            if keyframeIndex == layer.keyframes.count - 1 || k.index == frame || !k.tweened {
                progress = nil
            } else {
                var p = Double(frame - k.index) / Double(k.duration)
                p -= k.ease * p * (1 - p)
                progress = p
            }
            visible = k.visible
        }
    }
}
