@_spi(Testing) import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// The fast preset's own compressor (`PNGCompressor.frames`): every file it writes must decode, through libpng, to
/// exactly the samples that libpng's own zlib path stores for the same pixels — for every layout, filter set and
/// shape of content, including the rows and runs its shortcuts are about (empty rows, transparent margins, long zero
/// runs, repeated pixels) and sizes around its vector widths — and its plain C, SSE2 and widest vector paths must
/// write the same bytes.
final class FramesCompressorTests: XCTestCase {
    /// The reference: libpng with zlib, no filter, level 0.
    static let reference = PNGEncodingOptions(compressionLevel: 0, filters: .none, strategy: .default)

    /// Encodes with both compressors and compares the stored samples libpng reads back; the frames compressor's vector
    /// paths must agree byte for byte.
    private func assertSameSamples(_ pixels: [UInt8], width: Int, height: Int, layout: PNGPixelLayout,
                                   filters: PNGFilters, _ label: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        var frames = PNGEncoder(options: PNGEncodingOptions(
            compressionLevel: 1, filters: filters, strategy: .default, compressor: .frames))
        var zlib = PNGEncoder(options: Self.reference)
        let png = try frames.encode(pixels: pixels, width: width, height: height, layout: layout)
        for vectors in [PNGVectorInstructions.none, .sse2] {
            frames.options.vectorInstructions = vectors
            let bytes = try frames.encode(pixels: pixels, width: width, height: height, layout: layout)
            XCTAssertTrue(bytes == png, "\(label): \(vectors) vectors write other bytes", file: file, line: line)
        }
        let expected = try PNGDecoder().decodeStraight(zlib.encode(pixels: pixels, width: width, height: height,
                                                                   layout: layout))
        let decoded: (width: Int, height: Int, pixels: [UInt8])
        do { decoded = try PNGDecoder().decodeStraight(png) } catch {
            XCTFail("\(label): libpng refuses the file: \(error)", file: file, line: line)
            return
        }
        XCTAssertEqual(decoded.width, width, label, file: file, line: line)
        XCTAssertEqual(decoded.height, height, label, file: file, line: line)
        if decoded.pixels != expected.pixels {
            let first = zip(decoded.pixels, expected.pixels).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            XCTFail("\(label): samples differ, first at byte \(first) (pixel \(first / 4): x \(first / 4 % width), "
                    + "y \(first / 4 / width))", file: file, line: line)
        }
    }

    /// Content generators: each stresses another part of the compressor.
    private static func content(_ kind: Int, count: Int, bpp: Int, width: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count)
        let rowBytes = width * bpp
        switch kind {
        case 0:  // noise
            for i in 0..<count { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
        case 1:  // sparse blobs over zero, rows left empty, content touching both edges
            let blobs = 1 + Int(random.next() % 6)
            for _ in 0..<blobs {
                let start = Int(random.next() % UInt64(max(1, count)))
                let length = Int(random.next() % UInt64(max(1, rowBytes * 3)))
                for i in start..<min(count, start + length) { bytes[i] = UInt8(truncatingIfNeeded: random.next() | 1) }
            }
        case 2:  // flat colours: long repeats of the previous pixel, separated by edges
            var pixel = (0..<bpp).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for i in stride(from: 0, to: count, by: bpp) {
                if random.next() % 97 == 0 { pixel = (0..<bpp).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
                for k in 0..<bpp where i + k < count { bytes[i + k] = pixel[k] }
            }
        case 3:  // smooth gradients with a little noise: what sprites look like after filtering
            for i in 0..<count {
                let x = (i % max(1, rowBytes)) / bpp, y = i / max(1, rowBytes)
                bytes[i] = UInt8(truncatingIfNeeded: x * 3 + y * 2 + (i % bpp) * 40 + Int(random.next() % 3))
            }
        default:  // alternating zero runs of every length and short patterns
            var i = 0
            while i < count {
                let run = Int(random.next() % 300)
                i += run
                let pattern = Int(random.next() % 12)
                for k in 0..<pattern where i + k < count { bytes[i + k] = UInt8(truncatingIfNeeded: random.next() | 1) }
                i += pattern
            }
        }
        return bytes
    }

    func testEveryLayoutFilterSetAndContentMatchesZlib() throws {
        let sizes = [(1, 1), (1, 9), (2, 3), (3, 1), (4, 4), (5, 7), (8, 3), (15, 2), (16, 5), (17, 3), (31, 4),
                     (33, 17), (64, 64), (111, 37), (129, 3)]
        let filterSets: [PNGFilters] = [.none, .sub, .up, .average, .paeth, [.sub, .up, .paeth], .all]
        var cases = 0
        for layout in PNGPixelLayout.allCases {
            for (width, height) in sizes {
                for kind in 0..<5 {
                    let bpp = layout.bytesPerPixel
                    var pixels = Self.content(kind, count: width * height * bpp, bpp: bpp, width: width,
                                              seed: UInt64(width * 7919 + height * 31 + kind))
                    if layout == .premultipliedRGBA { pixels = Self.premultiplied(pixels) }
                    for filters in filterSets {
                        try assertSameSamples(pixels, width: width, height: height, layout: layout, filters: filters,
                                              "\(layout) \(width)×\(height) content \(kind) filters \(filters.rawValue)")
                        cases += 1
                    }
                }
            }
        }
        XCTAssertEqual(cases, 5 * 15 * 5 * 7)
    }

    /// Premultiplied pixels whose colour exceeds their alpha are not valid, but are stored as zlib's path stores them
    /// (clamped), as every other pixel is.
    func testInvalidPremultipliedPixelsAreStoredAsTheZlibPathStoresThem() throws {
        let pixels = Self.content(0, count: 40 * 30 * 4, bpp: 4, width: 40, seed: 5)
        try assertSameSamples(pixels, width: 40, height: 30, layout: .premultipliedRGBA, filters: [.sub, .up, .paeth],
                              "noise as premultiplied RGBA")
    }

    /// Wide rows (more bytes than a block holds), long runs that cross rows and blocks, and content after a long
    /// stretch of empty rows.
    func testLargeSparseAndWideImages() throws {
        var wide = [UInt8](repeating: 0, count: 9000 * 3 * 4)
        for i in stride(from: 0, to: wide.count, by: 4) where (i / 4) % 1000 < 700 {
            wide[i] = UInt8(truncatingIfNeeded: i / 4); wide[i + 1] = 7; wide[i + 2] = UInt8(truncatingIfNeeded: i / 9)
            wide[i + 3] = 255
        }
        try assertSameSamples(wide, width: 9000, height: 3, layout: .rgba, filters: [.sub, .up, .paeth], "9000×3")
        var late = [UInt8](repeating: 0, count: 700 * 700 * 4)
        for i in (late.count - 5000)..<late.count { late[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 7) | 1 }
        try assertSameSamples(late, width: 700, height: 700, layout: .rgba, filters: .all, "content after empty rows")
        let empty = [UInt8](repeating: 0, count: 300 * 200 * 4)
        try assertSameSamples(empty, width: 300, height: 200, layout: .premultipliedRGBA, filters: .all, "empty")
        let opaque = [UInt8](repeating: 255, count: 257 * 129 * 4)
        try assertSameSamples(opaque, width: 257, height: 129, layout: .rgba, filters: .all, "opaque white")
    }

    /// The encoder keeps its working memory between images: a small image after a large one, and the large one again,
    /// give the bytes a fresh encoder gives.
    func testReusedEncoderGivesTheBytesOfAFreshOne() throws {
        let big = Bitmap(width: 300, height: 200, premultipliedRGBA: Self.premultiplied(
            Self.content(1, count: 300 * 200 * 4, bpp: 4, width: 300, seed: 1)))!
        let small = Bitmap(width: 7, height: 5, premultipliedRGBA: Self.premultiplied(
            Self.content(3, count: 7 * 5 * 4, bpp: 4, width: 7, seed: 2)))!
        var reused = PNGEncoder(options: .fast)
        let first = try reused.encode(big)
        let smallBytes = try reused.encode(small)
        XCTAssertEqual(try reused.encode(big), first)
        XCTAssertEqual(smallBytes, try PNGEncoder(options: .fast).encodeCopy(small))
        XCTAssertEqual(first, try PNGEncoder(options: .fast).encodeCopy(big))
        XCTAssertEqual(try PNGDecoder().decode(first), big)
        XCTAssertEqual(try PNGDecoder().decode(smallBytes), small)
    }

    /// Interlaced images are left to zlib (Adam7 passes are not rows of the image).
    func testInterlacedImagesFallBackToZlib() throws {
        let image = Bitmap(width: 19, height: 11, premultipliedRGBA: Self.premultiplied(
            Self.content(3, count: 19 * 11 * 4, bpp: 4, width: 19, seed: 3)))!
        var options = PNGEncodingOptions.fast
        options.interlaced = true
        var encoder = PNGEncoder(options: options)
        let png = try encoder.encode(image)
        XCTAssertTrue(try PNGDecoder().info(of: png).isInterlaced)
        XCTAssertEqual(try PNGDecoder().decode(png), image)
    }

    private static func premultiplied(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for p in stride(from: 0, to: out.count, by: 4) {
            for c in 0..<3 { out[p + c] = min(out[p + c], out[p + 3]) }
        }
        return out
    }
}
