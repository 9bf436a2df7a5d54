import KeyframeEngine
import KeyframeImport
import KeyframeJSON
import KeyframeModel
@_spi(Testing) import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// One input surface of Keyframe as a fuzz target: the real library entry point run on bytes in memory.
///
/// The libFuzzer executables in `Fuzz/` and the regression test (`KeyframeRobustnessTests`) call these same
/// functions, so a committed crash input is replayed through exactly the code the fuzzer ran. A surface returns
/// normally whatever the input (errors are the expected answer to bad bytes); it traps only on a broken invariant
/// (a PNG that does not survive decode → encode → decode), which libFuzzer reports as a crash.
public struct FuzzSurface: Sendable {
    /// The target's name: the fuzzer executable is `fuzz-<name>`, its regression inputs live in
    /// `FuzzRegressions/<name>/`.
    public var name: String
    /// Runs the entry point on `bytes`.
    public var run: @Sendable ([UInt8]) -> Void

    /// Every surface, in a fixed order.
    public static let all: [FuzzSurface] = [
        FuzzSurface(name: "json", run: FuzzHarness.json),
        FuzzSurface(name: "animate", run: FuzzHarness.animate),
        FuzzSurface(name: "spritemap", run: FuzzHarness.spritemap),
        FuzzSurface(name: "dragonbones", run: FuzzHarness.dragonBones),
        FuzzSurface(name: "dbbin", run: FuzzHarness.dbbin),
        FuzzSurface(name: "flump-json", run: FuzzHarness.flumpJSON),
        FuzzSurface(name: "flump-xml", run: FuzzHarness.flumpXML),
        FuzzSurface(name: "sheet-json", run: FuzzHarness.sheetJSON),
        FuzzSurface(name: "sheet-xml", run: FuzzHarness.sheetXML),
        FuzzSurface(name: "document", run: FuzzHarness.document),
        FuzzSurface(name: "script", run: FuzzHarness.script),
        FuzzSurface(name: "png", run: FuzzHarness.png),
        FuzzSurface(name: "png-encode", run: FuzzHarness.pngEncode),
        FuzzSurface(name: "render", run: FuzzHarness.render),
    ]

    /// The surface called `name`.
    public static func named(_ name: String) -> FuzzSurface? { all.first { $0.name == name } }
}

/// The entry points behind each ``FuzzSurface``.
public enum FuzzHarness {
    /// Options for every import: images are never among the in-memory files' pixels that matter, so a missing atlas
    /// image is a warning, not an error (the atlas JSON still has to make sense).
    static let importOptions = ImportOptions(allowMissingImages: true)

    /// `KeyframeJSON`'s parser; a parsed value must also survive writing and parsing again.
    public static func json(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        let written = JSONWriter.write(value)
        guard let again = try? JSONParser.parse(written) else {
            preconditionFailure("JSONWriter output does not parse again")
        }
        precondition(JSONWriter.write(again) == written, "JSON write → parse → write is not stable")
    }

    /// An Animate texture atlas export whose `Animation.json` is `bytes`, with a fixed one-sprite spritemap.
    public static func animate(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(
            files: ["Animation.json": bytes, "spritemap1.json": Array(FuzzFixtures.spritemap.utf8)],
            main: "Animation.json", name: "fuzz", options: importOptions)
    }

    /// An Animate export whose `spritemap1.json` is `bytes`, with a fixed `Animation.json` using its sprites.
    public static func spritemap(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(
            files: ["Animation.json": Array(FuzzFixtures.animation.utf8), "spritemap1.json": bytes],
            main: "Animation.json", name: "fuzz", options: importOptions)
    }

    /// A DragonBones export whose `fuzz_ske.json` is `bytes`, with a fixed texture atlas.
    public static func dragonBones(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(
            files: ["fuzz_ske.json": bytes, "fuzz_tex.json": Array(FuzzFixtures.dragonBonesAtlas.utf8)],
            main: "fuzz_ske.json", name: "fuzz", options: importOptions)
    }

    /// A DragonBones export whose binary skeleton `fuzz_ske.dbbin` is `bytes`, with a fixed texture atlas.
    public static func dbbin(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(
            files: ["fuzz_ske.dbbin": bytes, "fuzz_tex.json": Array(FuzzFixtures.dragonBonesAtlas.utf8)],
            main: "fuzz_ske.dbbin", name: "fuzz", options: importOptions)
    }

    /// A Flump export whose `library.json` is `bytes`.
    public static func flumpJSON(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(files: ["library.json": bytes], main: "library.json", name: "fuzz",
                                         options: importOptions)
    }

    /// A Flump export whose `library.xml` is `bytes`.
    public static func flumpXML(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(files: ["library.xml": bytes], main: "library.xml", name: "fuzz",
                                         options: importOptions)
    }

    /// A JSON sprite sheet (hash or array) whose `sheet.json` is `bytes`; its image is missing, so its size comes
    /// from `meta.size` or the frames' extent.
    public static func sheetJSON(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(files: ["sheet.json": bytes], main: "sheet.json", name: "fuzz",
                                         options: importOptions)
    }

    /// A Starling/Sparrow sprite sheet whose `sheet.xml` is `bytes` (image missing, as for ``sheetJSON(_:)``).
    public static func sheetXML(_ bytes: [UInt8]) {
        _ = try? Importer.importDocument(files: ["sheet.xml": bytes], main: "sheet.xml", name: "fuzz",
                                         options: importOptions)
    }

    /// The normalized document reader and its validation; a valid document must survive writing and reading again.
    public static func document(_ bytes: [UInt8]) {
        guard let document = try? Document(jsonBytes: bytes), (try? document.validate()) != nil else { return }
        let written = document.jsonBytes()
        guard let again = try? Document(jsonBytes: written) else {
            preconditionFailure("a valid document's JSON does not read again")
        }
        precondition(again.jsonBytes() == written, "document write → read → write is not stable")
    }

    /// The animator script reader.
    public static func script(_ bytes: [UInt8]) {
        _ = try? AnimatorScript(jsonBytes: bytes, file: "fuzz.json")
    }

    /// PNG decoding with the standard limits; every decoded image is encoded and decoded again and must come back
    /// pixel for pixel (libpng itself is not instrumented, so this checks the wrapper on both sides).
    public static func png(_ bytes: [UInt8]) {
        let decoder = PNGDecoder()
        guard let bitmap = try? decoder.decode(bytes) else { return }
        // Encoding a huge image under the sanitizers takes longer than the fuzzer's time-out; decoding is the surface.
        guard bitmap.width * bitmap.height <= 1 << 22 else { return }
        var encoder = PNGEncoder()
        guard let encoded = try? encoder.encode(bitmap) else {
            preconditionFailure("a decoded \(bitmap.width)×\(bitmap.height) image cannot be encoded")
        }
        guard let again = try? decoder.decode(encoded) else {
            preconditionFailure("an encoded \(bitmap.width)×\(bitmap.height) image cannot be decoded")
        }
        precondition(again == bitmap, "PNG decode → encode → decode changed the pixels")
    }

    /// The fast preset's compressor on an image made of `bytes`: the first four choose the width (1–256), height
    /// (1–64), pixel layout and filter set, the rest are the pixels (repeated to fill the image, so short inputs give
    /// runs and repeats). libpng must read back exactly the samples it reads from zlib's encoding of the same pixels,
    /// and every vector path (plain C, SSE2, the widest the CPU has) must write the same bytes.
    public static func pngEncode(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return }
        let width = 1 + Int(bytes[0]), height = 1 + Int(bytes[1] & 63)
        let layout = PNGPixelLayout.allCases[Int(bytes[2]) % PNGPixelLayout.allCases.count]
        let mask = Int32(bytes[3] & 0xF8)  // the five filter bits; none set means all five
        let filters = PNGFilters(rawValue: mask == 0 ? PNGFilters.all.rawValue : mask)
        let body = bytes.dropFirst(4)
        var pixels = [UInt8](repeating: 0, count: width * height * layout.bytesPerPixel)
        if !body.isEmpty {
            for i in pixels.indices { pixels[i] = body[body.startIndex + i % body.count] }
        }
        var frames = PNGEncoder(options: PNGEncodingOptions(
            compressionLevel: 1, filters: filters, strategy: .default, compressor: .frames))
        var zlib = PNGEncoder(options: PNGEncodingOptions(compressionLevel: 0, filters: .none, strategy: .default))
        let decoder = PNGDecoder()
        guard let png = try? frames.encode(pixels: pixels, width: width, height: height, layout: layout),
            let reference = try? zlib.encode(pixels: pixels, width: width, height: height, layout: layout)
        else { preconditionFailure("a \(width)×\(height) \(layout) image cannot be encoded") }
        guard let decoded = try? decoder.decodeStraight(png) else {
            preconditionFailure("libpng cannot read the frames compressor's \(width)×\(height) \(layout) image")
        }
        guard let expected = try? decoder.decodeStraight(reference) else {
            preconditionFailure("libpng cannot read zlib's \(width)×\(height) \(layout) image")
        }
        precondition(decoded.pixels == expected.pixels,
                     "the frames compressor changed the samples of a \(width)×\(height) \(layout) image")
        for vectors in [PNGVectorInstructions.none, .sse2] {
            frames.options.vectorInstructions = vectors
            guard let bytes = try? frames.encode(pixels: pixels, width: width, height: height, layout: layout) else {
                preconditionFailure("a \(width)×\(height) \(layout) image cannot be encoded with \(vectors) vectors")
            }
            precondition(bytes == png, "\(vectors) vectors write other bytes for a \(width)×\(height) \(layout) image")
        }
    }

    /// Reads a normalized document and renders its first clip at its first and a middle frame into a 32 × 32 frame
    /// framing the stage, with a fixed 16 × 16 bitmap for each atlas image: absurd transforms, sizes and tracks reach
    /// the engine and the rasterizer.
    public static func render(_ bytes: [UInt8]) {
        guard let document = try? Document(jsonBytes: bytes), (try? document.validate()) != nil,
            let clip = document.clips.first
        else { return }
        var bitmaps: [String: Bitmap] = [:]
        for image in document.assets.images.prefix(16) { bitmaps[image.id] = FuzzFixtures.checker }
        let library = AtlasLibrary(document: document, bitmaps: bitmaps)
        let scene = RenderScene(document: document, library: library)
        let stage = document.stage ?? Rect(x: 0, y: 0, width: 32, height: 32)
        let framing = Framing(scene: stage, size: (32, 32))
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        let duration = clip.duration.value
        for time in [0, duration.isFinite ? duration / 2 : 0] {
            let pose = scene.sampler.sample(clip: clip, time: Frames(time))
            renderer.render(pose, library: library, framing: framing, background: .transparent, into: &frame)
        }
    }
}
