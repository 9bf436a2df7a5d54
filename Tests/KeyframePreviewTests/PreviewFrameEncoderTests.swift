import KeyframePNG
import KeyframePreview
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// The preview's pictures: keys and patches rebuild every frame exactly, and a page grows with what changes.
final class PreviewFrameEncoderTests: XCTestCase {
    /// A 320 × 240 frame: seeded noise (which no compressor shrinks) with a 16 × 16 square at (x, 40), and
    /// transparent margins of 20 pixels.
    func frame(square x: Int) -> Bitmap {
        var generator = SeededGenerator(seed: 29)
        var bitmap = Bitmap(width: 320, height: 240)
        for py in 20..<220 {
            for px in 20..<300 {
                let v = UInt8.random(in: 0...255, using: &generator)
                bitmap.setPixel(x: px, y: py, RGBAColor(r: v, g: v &* 3, b: 255 &- v).premultiplied)
            }
        }
        for py in 40..<56 { for px in x..<x + 16 { bitmap.setPixel(x: px, y: py, RGBAColor(r: 255, g: 0, b: 0).premultiplied) } }
        return bitmap
    }

    func testKeysAndPatchesRebuildEveryFrameAndStoreOnlyWhatChanges() throws {
        var encoder = PreviewFrameEncoder()
        var store = PreviewImageStore()
        var png = PNGEncoder(options: .fast)
        var whole = 0
        var frames: [(bitmap: Bitmap, layers: [PreviewClip.Layer])] = []
        // The square moves 4 px a frame for 12 frames, then the first frame comes back (a loop).
        for x in Array(stride(from: 40, to: 88, by: 4)) + [40] {
            let bitmap = frame(square: x)
            let bytes = try png.encode(bitmap)
            whole += bytes.count
            frames.append((bitmap, try encoder.layers(for: bytes, store: &store)))
        }
        for (index, frame) in frames.enumerated() {
            let rebuilt = try PreviewComposition.compose(frame.layers.map { [$0.image, $0.x, $0.y] }, pictures: store.images,
                                                         width: 320, height: 240)
            XCTAssertEqual(rebuilt, frame.bitmap, "frame \(index)")
        }
        // One key (the noise cropped to its 280 × 200 content) and a patch per later frame, each the square's
        // track so far; the repeated first frame is the first frame's layers.
        XCTAssertEqual(frames[0].layers.count, 1)
        XCTAssertEqual(frames[0].layers[0].x, 20)
        XCTAssertEqual(frames[0].layers[0].y, 20)
        XCTAssertEqual(frames.last?.layers, frames[0].layers)
        for frame in frames.dropFirst().dropLast() {
            XCTAssertEqual(frame.layers.count, 2)
            XCTAssertEqual(frame.layers[0], frames[0].layers[0])
        }
        XCTAssertEqual(store.images.count, 12)
        XCTAssertLessThan(Double(store.byteCount), 0.2 * Double(whole),
                          "stored \(store.byteCount) bytes against \(whole) for the frames whole")
    }

    /// A frame that changes everywhere becomes a key of its own instead of a patch as large as the frame.
    func testAFrameThatChangesEverywhereBecomesAKey() throws {
        var encoder = PreviewFrameEncoder()
        var store = PreviewImageStore()
        var png = PNGEncoder(options: .fast)
        let first = frame(square: 40)
        var inverted = first
        for i in inverted.pixels.indices where i % 4 != 3 { inverted.pixels[i] = 255 - inverted.pixels[i] }
        inverted = Bitmap(width: 320, height: 240, premultipliedRGBA: inverted.pixels.enumerated().map { i, v in
            first.pixels[i - i % 4 + 3] == 0 ? 0 : v
        })!
        _ = try encoder.layers(for: try png.encode(first), store: &store)
        let layers = try encoder.layers(for: try png.encode(inverted), store: &store)
        XCTAssertEqual(layers.count, 1)
        XCTAssertEqual(try PreviewComposition.compose(layers.map { [$0.image, $0.x, $0.y] }, pictures: store.images,
                                                      width: 320, height: 240), inverted)
    }
}
