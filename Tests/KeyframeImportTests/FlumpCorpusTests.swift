import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

// Conformance over ../shared/corpus/flump/* and ../shared/corpus/flump_xml/*: every sample converts, every movie
// samples and renders at every frame, and frame counts, labels, textures and displayed symbols agree with values
// derived from the raw files by Foundation's own readers (FlumpRawLibrary), not by the importer.

final class FlumpCorpusTests: XCTestCase {
    /// Every Flump sample folder of both corpus families.
    static func samples() throws -> [URL] {
        let folders = try TestPaths.corpus("flump") + TestPaths.corpus("flump_xml")
        XCTAssertGreaterThanOrEqual(folders.count, 7, "expected the six JSON samples and the XML sample")
        return folders
    }

    /// The library file of a sample folder: the one JSON or XML file in it.
    static func libraryFile(in folder: URL) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let candidates = names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".xml") }
        XCTAssertEqual(candidates.count, 1, "\(folder.lastPathComponent): \(candidates)")
        return folder.appendingPathComponent(try XCTUnwrap(candidates.first))
    }

    func testEverySampleConvertsWithTheRawFramesLabelsAndTextures() throws {
        for folder in try Self.samples() {
            let name = folder.lastPathComponent
            let raw = try FlumpRawLibrary(url: try Self.libraryFile(in: folder))
            let document = try Importer.importDocument(at: folder)
            XCTAssertEqual(document.source.format, .flump, name)
            XCTAssertEqual(document.frameRate.framesPerSecond, raw.frameRate, name)
            XCTAssertEqual(document.diagnostics.filter { $0.severity == .warning }, [], name)

            // One composition per movie, with the raw movie length and one node per played layer.
            XCTAssertEqual(Set(document.compositions.map(\.id)), Set(raw.movies.map(\.id)), name)
            for movie in raw.movies {
                let composition = try XCTUnwrap(document.composition(movie.id), "\(name): \(movie.id)")
                XCTAssertEqual(composition.duration.value, Double(movie.frames), "\(name): \(movie.id) length")
                XCTAssertEqual(composition.nodes.map(\.name), movie.playedLayers.map(\.name), "\(name): \(movie.id) layers")
            }

            // The root is the first movie no other movie nests.
            let nested = Set(raw.movies.flatMap { $0.playedLayers.flatMap { $0.keyframes.compactMap(\.ref) } })
            XCTAssertEqual(document.root, raw.movies.first { !nested.contains($0.id) }?.id, name)
            XCTAssertEqual(document.compositions.first?.id, document.root, "\(name): the root is listed first")

            // Clips: one per movie over its whole length, and one per label up to the next label.
            var expectedClips: [String: (start: Double, duration: Double)] = [:]
            for movie in raw.movies where movie.frames > 0 {
                expectedClips[movie.id] = (0, Double(movie.frames))
                let labels = movie.playedLayers.flatMap { layer in
                    layer.keyframes.compactMap { k in k.label.map { (frame: k.index, name: $0) } }
                }.sorted { $0.frame < $1.frame }
                for (i, label) in labels.enumerated() {
                    let next = labels[(i + 1)...].first { $0.frame > label.frame }?.frame ?? movie.frames
                    expectedClips["\(movie.id):\(label.name)"] = (Double(label.frame), Double(next - label.frame))
                }
            }
            XCTAssertEqual(Set(document.clips.map(\.name)), Set(expectedClips.keys), name)
            for clip in document.clips {
                guard let expected = expectedClips[clip.name] else { continue }
                XCTAssertEqual(clip.start.value, expected.start, "\(name): clip \(clip.name) start")
                XCTAssertEqual(clip.duration.value, expected.duration, "\(name): clip \(clip.name) length")
                XCTAssertEqual(clip.loopCount, 0, "\(name): clip \(clip.name)")
            }

            // Sprites: the 1× group's textures (the only group in most samples), size = rect ÷ scale factor.
            let group = try XCTUnwrap(raw.textureGroups.first { $0.scaleFactor == 1 } ?? raw.textureGroups.first)
            XCTAssertEqual(document.assets.sprites.map(\.id), group.textures.map(\.symbol), name)
            XCTAssertEqual(document.assets.images.map(\.path), group.files, name)
            for texture in group.textures {
                let sprite = try XCTUnwrap(document.assets.sprites.first { $0.id == texture.symbol })
                XCTAssertEqual(sprite.region, Rect(x: texture.rect[0], y: texture.rect[1], width: texture.rect[2],
                                                   height: texture.rect[3]), "\(name): \(texture.symbol)")
                XCTAssertEqual(sprite.origin, Vector2(x: -texture.origin[0] / group.scaleFactor,
                                                      y: -texture.origin[1] / group.scaleFactor), "\(name): \(texture.symbol)")
            }
        }
    }

    /// At every frame of every movie, each layer shows the raw keyframe's symbol (a texture or a nested movie)
    /// while the frame is inside the layer, and nothing after the layer ends.
    func testDisplayedSymbolsFollowTheRawKeyframes() throws {
        for folder in try Self.samples() {
            let name = folder.lastPathComponent
            let raw = try FlumpRawLibrary(url: try Self.libraryFile(in: folder))
            let document = try Importer.importDocument(at: folder)
            let sampler = PoseSampler(document: document)
            for movie in raw.movies {
                let composition = try XCTUnwrap(document.composition(movie.id))
                for frame in 0..<movie.frames {
                    let pose = sampler.sample(composition: movie.id, frame: Frames(Double(frame)), collectNodes: true)
                    for (index, layer) in movie.playedLayers.enumerated() {
                        let node = composition.nodes[index]
                        let path = "\(movie.id)/\(node.id)"
                        let state = pose.nodes.first { $0.path == path }
                        let current = layer.keyframes.last { $0.index <= frame }
                        let expected: String?
                        if frame >= layer.frames || layer.keyframes.allSatisfy({ $0.ref == nil }) {
                            expected = nil
                        } else {
                            expected = current?.ref
                        }
                        var shown: String? = nil
                        switch state?.content {
                        case .sprite(let id)?: shown = id
                        case .composition(let instance)?: shown = instance.composition
                        default: shown = nil
                        }
                        XCTAssertEqual(shown, expected, "\(name) \(movie.id) layer \(layer.name) frame \(frame)")
                        if case .sprite(let id)? = state?.content, current?.visible != false {
                            XCTAssertTrue(pose.items.contains { $0.path == path && $0.sprite == id },
                                          "\(name) \(movie.id) layer \(layer.name) frame \(frame): sprite not drawn")
                        }
                    }
                }
            }
        }
    }

    /// Every movie renders at every frame: the atlas decodes, every drawn sprite resolves, and a frame that draws
    /// something has covered pixels.
    func testEveryMovieRendersEveryFrame() throws {
        for folder in try Self.samples() {
            let name = folder.lastPathComponent
            let document = try Importer.importDocument(at: folder)
            let library = try AtlasLibrary(document: document, folder: folder)
            let sampler = PoseSampler(document: document)
            var renderer = FrameRenderer()
            var bitmap = Bitmap(width: 0, height: 0)
            var rendered = 0
            for composition in document.compositions {
                for frame in 0..<Int(composition.duration.value) {
                    let pose = sampler.sample(composition: composition.id, frame: Frames(Double(frame)))
                    for item in pose.items {
                        XCTAssertNotNil(library.sprite(item.sprite), "\(name) \(composition.id) \(frame): \(item.sprite)")
                        for value in [item.transform.a, item.transform.b, item.transform.c, item.transform.d,
                                      item.transform.tx, item.transform.ty] {
                            XCTAssertTrue(value.isFinite, "\(name) \(composition.id) \(frame)")
                        }
                    }
                    // A fully transparent layer (alpha 0, as the cube at frame 29) draws no pixels.
                    guard pose.items.contains(where: { $0.color.alphaMultiplier > 0.05 }),
                        let bounds = Framing.bounds(of: pose, library: library)
                    else { continue }
                    let framing = Framing(scene: bounds, size: (width: 96, height: 96))
                    renderer.render(pose, library: library, framing: framing, background: .transparent, into: &bitmap)
                    var covered = 0
                    for y in 0..<bitmap.height {
                        for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y).a > 0 { covered += 1 }
                    }
                    XCTAssertGreaterThan(covered, 0, "\(name) \(composition.id) frame \(frame) draws nothing")
                    rendered += 1
                }
            }
            XCTAssertGreaterThan(rendered, 0, name)
        }
    }

    /// Every converted sample satisfies docs/keyframe.schema.json and its reference rules
    /// (Scripts/validate-schema.py; skipped when python3 or its jsonschema package is missing).
    func testConvertedSamplesMatchTheSchema() throws {
        var documents: [String: [UInt8]] = [:]
        for folder in try Self.samples() {
            for factor in [1.0, 2.0] {
                let document = try Importer.importDocument(at: folder, options: ImportOptions(scaleFactor: factor))
                documents["\(folder.lastPathComponent)@\(Int(factor))x"] = document.jsonBytes()
            }
        }
        try SchemaValidator.assertValid(documents, "converted Flump output")
    }

    /// The pixel placement of the cube sample (one 42×42 texture, origin and pivot at its centre) at frames where
    /// the raw keyframes give it exactly: frame 9 puts the centre at (100, 0), turned 90° clockwise.
    func testCubePlacementAtAKeyframe() throws {
        let samples = try Self.samples()
        let folder = try XCTUnwrap(samples.first { $0.lastPathComponent == "pixi-flump-cube" })
        let document = try Importer.importDocument(at: folder)
        let pose = PoseSampler(document: document).sample(composition: "cubeAnimation", frame: Frames(9))
        let item = try XCTUnwrap(pose.items.first)
        // The texture's centre (21, 21) lands on loc (100, 0).
        let centre = item.transform.apply(Vector2(x: 21, y: 21))
        XCTAssertEqual(centre.x, 100, accuracy: 1e-9)
        XCTAssertEqual(centre.y, 0, accuracy: 1e-9)
        // skew (1.5708, 1.5708) rad: the texture's x axis points down the screen.
        XCTAssertEqual(item.transform.a, cos(1.5708), accuracy: 1e-12)
        XCTAssertEqual(item.transform.b, sin(1.5708), accuracy: 1e-12)
    }
}
