import Foundation
@_spi(Testing) import KeyframePNG
import KeyframeRaster
import XCTest

/// Round trips, presets, determinism and atomic file writes.
final class PNGEncoderTests: XCTestCase {
    func testPremultipliedRoundTripIsExactForBothPresets() throws {
        let image = gradient(width: 37, height: 29)
        for options in [PNGEncodingOptions.fast, .compact, PNGEncodingOptions(compressionLevel: 0, filters: .none, strategy: .default, interlaced: true)] {
            var encoder = PNGEncoder(options: options)
            let png = try encoder.encode(image)
            XCTAssertEqual(try PNGDecoder().decode(png), image, "\(options)")
        }
    }

    func testStoredPixelsAreStraightAlpha() throws {
        var image = Bitmap(width: 1, height: 1)
        image.setPixel(x: 0, y: 0, RGBAColor(r: 200, g: 100, b: 50, a: 128).premultiplied)
        var encoder = PNGEncoder(options: PNGEncodingOptions(compressionLevel: 0, filters: .none, strategy: .default))
        let png = try encoder.encode(image)
        // Level 0: the single row sits uncompressed in the zlib stream as [filter, r, g, b, a].
        let needle: [UInt8] = [0, 199, 100, 50, 128]
        XCTAssertTrue(png.indices.contains { i in i + 5 <= png.count && Array(png[i..<(i + 5)]) == needle })
    }

    /// Every (channel, alpha) pair is converted to straight alpha exactly as `(c · 255 + a / 2) / a`
    /// (clamped to 255; 0 for a = 0): the encoder's plain C path multiplies with a 24-bit reciprocal,
    /// its AVX2 path with a single-precision one, and this checks all 65,536 pairs, including channels
    /// above their alpha, against the integer division on every path.
    func testUnpremultiplyMatchesIntegerDivisionForEveryPair() throws {
        var premultiplied = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for a in 0..<256 {
            for c in 0..<256 {
                let i = (a * 256 + c) * 4
                premultiplied[i] = UInt8(c)
                premultiplied[i + 1] = UInt8(255 - c)
                premultiplied[i + 2] = UInt8(c / 2)
                premultiplied[i + 3] = UInt8(a)
            }
        }
        let image = try XCTUnwrap(Bitmap(width: 256, height: 256, premultipliedRGBA: premultiplied))
        for vectors in PNGVectorInstructions.allCases {
            var options = PNGEncodingOptions(compressionLevel: 0, filters: .none, strategy: .default)
            options.vectorInstructions = vectors
            var encoder = PNGEncoder(options: options)
            let rows = try Self.storedRows(of: encoder.encode(image), rowBytes: 256 * 4, height: 256)
            Self.assertDivision(rows, "\(vectors) vectors")
        }
    }

    /// Checks rows written from `testUnpremultiplyMatchesIntegerDivisionForEveryPair`'s image.
    private static func assertDivision(_ rows: [[UInt8]], _ label: String) {
        var mismatches = 0
        for a in 0..<256 {
            for c in 0..<256 {
                let stored = rows[a]
                for (channel, value) in [c, 255 - c, c / 2].enumerated() {
                    let expected = a == 0 ? 0 : min(255, (value * 255 + a / 2) / a)
                    if Int(stored[1 + c * 4 + channel]) != expected {
                        mismatches += 1
                        if mismatches < 10 {
                            XCTFail("\(label): c \(value) a \(a): \(stored[1 + c * 4 + channel]) ≠ \(expected)")
                        }
                    }
                }
                XCTAssertEqual(Int(stored[1 + c * 4 + 3]), a, label)
            }
        }
        XCTAssertEqual(mismatches, 0, label)
    }

    /// The rows of a PNG written at zlib level 0 without filters: IDAT payloads joined, the zlib
    /// header skipped, stored blocks unwrapped; each row starts with its filter byte (0).
    private static func storedRows(of png: [UInt8], rowBytes: Int, height: Int) throws -> [[UInt8]] {
        var stream: [UInt8] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IDAT" { stream += png[(offset + 8)..<(offset + 8 + length)] }
            offset += 12 + length
        }
        var data: [UInt8] = []
        var position = 2
        while position + 5 <= stream.count {
            let final = stream[position] & 1
            XCTAssertEqual(stream[position] & 6, 0, "level 0 writes stored blocks")
            let length = Int(stream[position + 1]) | Int(stream[position + 2]) << 8
            data += stream[(position + 5)..<(position + 5 + length)]
            position += 5 + length
            if final == 1 { break }
        }
        let stride = rowBytes + 1
        XCTAssertEqual(data.count, stride * height)
        return (0..<height).map { Array(data[($0 * stride)..<(($0 + 1) * stride)]) }
    }

    func testRawLayoutsRoundTrip() throws {
        let w = 5, h = 3
        var encoder = PNGEncoder()
        for layout in PNGPixelLayout.allCases where layout != .premultipliedRGBA {
            let n = layout.bytesPerPixel
            let raw = (0..<(w * h * n)).map { UInt8(($0 * 29) % 256) }
            let png = try encoder.encode(pixels: raw, width: w, height: h, layout: layout)
            let decoded = try PNGDecoder().decode(png)
            var expected = [UInt8]()
            for p in 0..<(w * h) {
                let s = Array(raw[(p * n)..<(p * n + n)])
                switch layout {
                case .rgba: expected += s
                case .rgb: expected += s + [255]
                case .gray: expected += [s[0], s[0], s[0], 255]
                case .grayAlpha: expected += [s[0], s[0], s[0], s[1]]
                case .premultipliedRGBA: break
                }
            }
            XCTAssertEqual(decoded, Bitmap(width: w, height: h, straightRGBA: expected), "\(layout)")
        }
    }

    func testOutputIsDeterministicAndHasNoTimeChunk() throws {
        let image = gradient(width: 64, height: 48)
        var a = PNGEncoder()
        var b = PNGEncoder()
        let first = try a.encode(image)
        XCTAssertEqual(first, try a.encode(image))
        XCTAssertEqual(first, try b.encode(image))
        XCTAssertEqual(chunkTypes(first), ["IHDR", "IDAT", "IEND"])
        XCTAssertEqual(chunkTypes(try PNGEncoder(options: .compact).encodeCopy(image)).first, "IHDR")
    }

    func testPresetsDifferAndCompactIsSmallerOnSmoothImages() throws {
        let image = gradient(width: 128, height: 128)
        var fast = PNGEncoder(options: .fast)
        var compact = PNGEncoder(options: .compact)
        let f = try fast.encode(image)
        let c = try compact.encode(image)
        XCTAssertNotEqual(f, c)
        XCTAssertLessThan(c.count, f.count)
    }

    func testInvalidArgumentsThrow() {
        var encoder = PNGEncoder()
        XCTAssertThrowsError(try encoder.encode(Bitmap(width: 0, height: 4))) { error in
            XCTAssertEqual((error as? PNGError)?.kind, .encodingFailed)
        }
        XCTAssertThrowsError(try encoder.encode(pixels: [1, 2, 3], width: 2, height: 2, layout: .rgb))
    }

    func testWriteIsAtomicAndLeavesNoTemporaryFiles() throws {
        let dir = NSTemporaryDirectory() + "keyframe-png-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/frame-0001.png"
        var encoder = PNGEncoder()
        let image = gradient(width: 20, height: 10)
        try encoder.write(image, to: path)
        try encoder.write(image, to: path)  // replaces the existing file
        XCTAssertEqual(try PNGDecoder().decode(contentsOf: path), image)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["frame-0001.png"])
        // A folder at the path is refused, not replaced.
        try FileManager.default.createDirectory(atPath: dir + "/taken.png", withIntermediateDirectories: false)
        XCTAssertThrowsError(try encoder.write(image, to: dir + "/taken.png")) { error in
            XCTAssertEqual((error as? PNGError)?.kind, .fileSystem)
            XCTAssertEqual((error as? PNGError)?.path, dir + "/taken.png")
        }
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/taken.png", isDirectory: &isFolder) && isFolder.boolValue)
        // Missing parent folders are created.
        try encoder.write(image, to: dir + "/missing/frame.png")
        XCTAssertEqual(try PNGDecoder().decode(contentsOf: dir + "/missing/frame.png"), image)
    }

    private func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var i = 8
        while i + 8 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            types.append(String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self))
            i += 12 + length
        }
        return types
    }
}

extension PNGEncoder {
    /// Encodes with a throwaway copy (lets tests call it on a temporary).
    func encodeCopy(_ bitmap: Bitmap) throws -> [UInt8] {
        var copy = self
        return try copy.encode(bitmap)
    }
}
