import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// The APNG writer's chunks, read back the way the APNG specification lays them out: each frame's data, wrapped as
/// a PNG of its own, decodes with libpng to that frame's rectangle, and the frames composed in order are the frames
/// added. (Chromium decodes whole files in `AnimatedRenderCLITests`.)
final class AnimatedPNGWriterTests: XCTestCase {
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    func chunks(_ png: [UInt8]) throws -> [Chunk] {
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var out: [Chunk] = []
        var offset = 8
        while offset < png.count {
            let length = Int(be32(png, offset))
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            out.append(Chunk(type: type, data: Array(png[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        XCTAssertEqual(offset, png.count)
        return out
    }

    func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// A standalone PNG of one frame: its own IHDR, then `data` as IDAT — written with a real libpng encode of an
    /// image of that size, whose IDAT is swapped out, so only the frame data comes from the writer.
    func standalone(width: Int, height: Int, data: [UInt8]) throws -> [UInt8] {
        var encoder = PNGEncoder(options: .fast)
        let blank = try encoder.encode(pixels: [UInt8](repeating: 0, count: width * height * 4), width: width,
                                       height: height, layout: .rgba)
        var out = Array(blank.prefix(8 + 25))  // signature and IHDR
        out += chunkBytes("IDAT", data)
        out += chunkBytes("IEND", [])
        return out
    }

    /// A chunk with its CRC-32 computed bit by bit from the PNG specification's definition (no table).
    func chunkBytes(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        func be(_ v: UInt32) { out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        be(UInt32(data.count))
        let body = Array(type.utf8) + data
        out += body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        be(crc ^ 0xFFFF_FFFF)
        return out
    }

    /// Three 6 × 4 frames: noise, the same noise (held), then one pixel changed.
    func testFramesAreStoredAsChangedRectanglesAndHeldFramesLengthenTheirTime() throws {
        var generator = SeededGenerator(seed: 5)
        let first = (0..<(6 * 4 * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var third = first
        third[(2 * 6 + 3) * 4] ^= 0xFF  // pixel (3, 2): red changed
        third[(2 * 6 + 3) * 4 + 3] = 0  // and now fully transparent: the rectangle replaces it, it does not blend
        var writer = AnimatedPNGWriter(width: 6, height: 4, frameDuration: (1, 24), plays: 3)
        for frame in [first, first, third] { try writer.add(straightRGBA: frame) }
        XCTAssertEqual(writer.frameCount, 3)
        let file = try chunks(try writer.finish())
        XCTAssertEqual(file.map(\.type), ["IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "IEND"])
        XCTAssertEqual(file[0].data, [0, 0, 0, 6, 0, 0, 0, 4, 8, 6, 0, 0, 0])
        XCTAssertEqual(be32(file[1].data, 0), 2, "two stored frames")
        XCTAssertEqual(be32(file[1].data, 4), 3, "plays three times")
        // fcTL: sequence, width, height, x, y, delay num/den, dispose none, blend source.
        let control1 = file[2].data, control2 = file[4].data
        XCTAssertEqual([be32(control1, 0), be32(control1, 4), be32(control1, 8), be32(control1, 12), be32(control1, 16)],
                       [0, 6, 4, 0, 0])
        XCTAssertEqual(Array(control1[20..<26]), [0, 2, 0, 24, 0, 0], "the held frame counts twice: 2/24 s")
        XCTAssertEqual([be32(control2, 0), be32(control2, 4), be32(control2, 8), be32(control2, 12), be32(control2, 16)],
                       [1, 1, 1, 3, 2], "only the changed pixel")
        XCTAssertEqual(Array(control2[20..<26]), [0, 1, 0, 24, 0, 0])
        XCTAssertEqual(be32(file[5].data, 0), 2, "fdAT sequence numbers follow the fcTL's")
        // The file's own chunks carry correct CRCs: recompute them from the definition.
        let bytes = try writer.finish()
        var offset = 8
        for chunk in file {
            let expected = chunkBytes(chunk.type, chunk.data)
            XCTAssertEqual(Array(bytes[offset..<offset + expected.count]), expected, "\(chunk.type)'s CRC")
            offset += expected.count
        }
        // Each frame's data decodes with libpng to its rectangle of the added frame.
        let frame1 = try PNGDecoder().decodeStraight(try standalone(width: 6, height: 4, data: file[3].data))
        XCTAssertEqual(frame1.pixels, first)
        let patch = try PNGDecoder().decodeStraight(try standalone(width: 1, height: 1, data: Array(file[5].data.dropFirst(4))))
        XCTAssertEqual(patch.pixels, Array(third[(2 * 6 + 3) * 4..<(2 * 6 + 3) * 4 + 4]))
    }

    func testFrameDurationsAreExactWhereTheyCanBe() {
        XCTAssertTrue(AnimatedPNGWriter.frameDuration(fps: 24) == (1, 24))
        XCTAssertTrue(AnimatedPNGWriter.frameDuration(fps: 60) == (1, 60))
        XCTAssertTrue(AnimatedPNGWriter.frameDuration(fps: 0.5) == (2, 1))
        XCTAssertTrue(AnimatedPNGWriter.frameDuration(fps: 23.976) == (125, 2997), "1000/23976 in lowest terms")
        let d = AnimatedPNGWriter.frameDuration(fps: 29.97)
        XCTAssertEqual(Double(d.numerator) / Double(d.denominator), 1 / 29.97, accuracy: 1e-9)
    }

    func testFramesOfAnotherSizeAndEmptyAnimationsAreErrors() throws {
        var writer = AnimatedPNGWriter(width: 4, height: 4, frameDuration: (1, 24), plays: 0)
        XCTAssertThrowsError(try writer.finish())
        var encoder = PNGEncoder()
        let other = try encoder.encode(Bitmap(width: 5, height: 4))
        XCTAssertThrowsError(try writer.add(png: other)) { XCTAssertTrue("\($0)".contains("5×4, not 4×4"), "\($0)") }
        XCTAssertThrowsError(try writer.add(png: [1, 2, 3]))
    }
}
