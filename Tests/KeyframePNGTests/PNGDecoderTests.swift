import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// Decoding every colour type and depth, and refusing bad input with a typed error.
final class PNGDecoderTests: XCTestCase {
    func testEveryFixtureDecodesToItsExpectedPixels() throws {
        XCTAssertEqual(pngFixtures.count, 34)
        for fixture in pngFixtures {
            let png = try XCTUnwrap(Data(base64Encoded: fixture.png), fixture.name)
            let straight = try XCTUnwrap(Data(base64Encoded: fixture.rgba), fixture.name)
            let expected = try XCTUnwrap(Bitmap(width: 7, height: 5, straightRGBA: [UInt8](straight)))
            let decoded = try PNGDecoder().decode([UInt8](png))
            XCTAssertEqual(decoded, expected, fixture.name)
            let info = try PNGDecoder().info(of: [UInt8](png))
            XCTAssertEqual(info.width, 7)
            XCTAssertEqual(info.height, 5)
            XCTAssertEqual(info.isInterlaced, fixture.name.hasSuffix("-interlaced"), fixture.name)
            XCTAssertEqual(info.hasTransparencyChunk, fixture.name.contains("trns") || fixture.name.hasPrefix("palette"))
        }
    }

    func testFixtureHeadersReportStoredFormat() throws {
        let palette = try XCTUnwrap(pngFixtures.first { $0.name == "palette4" })
        let info = try PNGDecoder().info(of: [UInt8](XCTUnwrap(Data(base64Encoded: palette.png))))
        XCTAssertEqual(info.colorType, .palette)
        XCTAssertEqual(info.bitDepth, 4)
        let gray16 = try XCTUnwrap(pngFixtures.first { $0.name == "gray16" })
        let info16 = try PNGDecoder().info(of: [UInt8](XCTUnwrap(Data(base64Encoded: gray16.png))))
        XCTAssertEqual(info16.colorType, .gray)
        XCTAssertEqual(info16.bitDepth, 16)
    }

    func testNonPNGInputThrowsNotPNG() {
        for bytes in [[], [0x89, 0x50], Array("GIF89a and then some more bytes".utf8), [UInt8](repeating: 0, count: 64)] {
            XCTAssertThrowsError(try PNGDecoder().decode(bytes)) { error in
                XCTAssertEqual((error as? PNGError)?.kind, .notPNG, "\(bytes.prefix(8))")
            }
        }
    }

    func testEveryTruncationThrowsInsteadOfAborting() throws {
        var encoder = PNGEncoder(options: .compact)
        let png = try encoder.encode(gradient(width: 23, height: 17))
        for length in 0..<png.count {
            XCTAssertThrowsError(try PNGDecoder().decode(Array(png[0..<length])), "length \(length)") { error in
                XCTAssertTrue(error is PNGError)
            }
        }
        XCTAssertNoThrow(try PNGDecoder().decode(png))
    }

    func testCorruptBytesThrowWithLibpngMessage() throws {
        var encoder = PNGEncoder()
        let png = try encoder.encode(gradient(width: 16, height: 16))
        // Flip a byte inside the IDAT payload: CRC mismatch (or a zlib error) must surface as a PNGError.
        var corrupt = png
        corrupt[50] ^= 0xFF
        XCTAssertThrowsError(try PNGDecoder().decode(corrupt)) { error in
            let e = error as? PNGError
            XCTAssertEqual(e?.kind, .invalidData)
            XCTAssertFalse(e?.message.isEmpty ?? true)
        }
        // Random garbage after a valid signature, many seeds.
        var state: UInt64 = 42
        var rng = SeededGenerator(seed: 0x1234_5678)
        for _ in 0..<200 {
            var bytes = Array(png.prefix(8))
            for _ in 0..<Int.random(in: 0..<200, using: &rng) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            XCTAssertThrowsError(try PNGDecoder().decode(bytes))
        }
        // Mutations of a valid file: each either decodes or throws; none may crash.
        for i in 8..<png.count {
            var mutated = png
            mutated[i] = mutated[i] &+ 0x5A
            _ = try? PNGDecoder().decode(mutated)
        }
    }

    func testLimitsRejectOversizedImagesBeforeDecoding() throws {
        var encoder = PNGEncoder()
        let png = try encoder.encode(gradient(width: 300, height: 20))
        let narrow = PNGDecoder(limits: PNGDecodingLimits(maxWidth: 256))
        XCTAssertThrowsError(try narrow.decode(png)) { error in
            XCTAssertEqual((error as? PNGError)?.kind, .limitExceeded, "\(error)")
        }
        let few = PNGDecoder(limits: PNGDecodingLimits(maxPixels: 5000))
        XCTAssertThrowsError(try few.decode(png)) { error in
            XCTAssertEqual((error as? PNGError)?.kind, .limitExceeded, "\(error)")
        }
        XCTAssertNoThrow(try PNGDecoder(limits: PNGDecodingLimits(maxWidth: 300, maxPixels: 6000)).decode(png))
    }

    func testHeaderClaimingAHugeImageIsRejected() throws {
        // A hand-made IHDR for 100000 × 100000 RGBA with a valid CRC and no data.
        var ihdr: [UInt8] = Array("IHDR".utf8)
        ihdr += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 6, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
        let crc = crc32(ihdr)
        png += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        XCTAssertThrowsError(try PNGDecoder().decode(png)) { error in
            XCTAssertEqual((error as? PNGError)?.kind, .limitExceeded, "\(error)")
        }
    }

    func testMissingFileThrowsFileSystemErrorWithPath() {
        XCTAssertThrowsError(try PNGDecoder().decode(contentsOf: "/nonexistent/nope.png")) { error in
            let e = error as? PNGError
            XCTAssertEqual(e?.kind, .fileSystem)
            XCTAssertEqual(e?.path, "/nonexistent/nope.png")
        }
    }
}

/// CRC-32 (PNG polynomial), for hand-made chunks.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
}

/// A premultiplied test image with varied colour and alpha.
func gradient(width: Int, height: Int) -> Bitmap {
    var straight = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            straight[i] = UInt8((x * 255) / max(1, width - 1))
            straight[i + 1] = UInt8((y * 255) / max(1, height - 1))
            straight[i + 2] = UInt8((x * y) % 256)
            straight[i + 3] = UInt8((x * 7 + y * 13) % 256)
        }
    }
    return Bitmap(width: width, height: height, straightRGBA: straight)!
}
