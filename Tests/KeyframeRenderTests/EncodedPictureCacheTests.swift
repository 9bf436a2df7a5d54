import Dispatch
import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
@testable import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Equal pictures are encoded once, and a reused picture always gets exactly the bytes encoding it would give.
final class EncodedPictureCacheTests: XCTestCase {
    private func picture(_ seed: UInt64, width: Int = 40, height: Int = 30) -> Bitmap {
        var random = SeededGenerator(seed: seed)
        var bitmap = Bitmap(width: width, height: height)
        for y in 5..<(height - 5) {
            for x in 3..<(width - 3) {
                let a = UInt8.random(in: 1...255, using: &random)
                bitmap.setPixel(x: x, y: y, RGBAColor(r: UInt8.random(in: 0...255, using: &random), g: a / 2, b: 0, a: a).premultiplied)
            }
        }
        return bitmap
    }

    private func fresh(_ bitmap: Bitmap, _ options: PNGEncodingOptions = .fast) throws -> [UInt8] {
        var encoder = PNGEncoder(options: options)
        return try encoder.encode(bitmap)
    }

    func testEqualPicturesAreEncodedOnce() throws {
        let cache = EncodedPictureCache()
        var encoder = PNGEncoder(options: .fast)
        let a = picture(1), b = picture(2)
        let first = try cache.png(for: a, encoder: &encoder)
        let other = try cache.png(for: b, encoder: &encoder)
        let again = try cache.png(for: a, encoder: &encoder)
        XCTAssertFalse(first.reused)
        XCTAssertFalse(other.reused)
        XCTAssertTrue(again.reused)
        XCTAssertEqual(again.png, first.png)
        XCTAssertEqual(first.png, try fresh(a))
        XCTAssertEqual(other.png, try fresh(b))
        XCTAssertEqual(cache.statistics, EncodedPictureCache.Counts(encoded: 2, reused: 1))
        // Other settings are other files.
        var compact = PNGEncoder(options: .compact)
        let compactBytes = try cache.png(for: a, encoder: &compact)
        XCTAssertFalse(compactBytes.reused)
        XCTAssertEqual(compactBytes.png, try fresh(a, .compact))
    }

    /// With every hash equal, only the pixel comparison tells pictures apart: one pixel of difference must still give
    /// the picture its own bytes.
    func testPicturesWithTheSameHashButOnePixelApartKeepTheirOwnBytes() throws {
        let cache = EncodedPictureCache(byteLimit: 1 << 30, hash: { _, _ in 42 })
        var encoder = PNGEncoder(options: .fast)
        let a = picture(3)
        var b = a
        b.setPixel(x: 20, y: 15, RGBAColor(r: 1, g: 2, b: 3, a: 255).premultiplied)
        let pa = try cache.png(for: a, encoder: &encoder)
        let pb = try cache.png(for: b, encoder: &encoder)
        XCTAssertFalse(pb.reused)
        XCTAssertEqual(pa.png, try fresh(a))
        XCTAssertEqual(pb.png, try fresh(b))
        XCTAssertNotEqual(pa.png, pb.png)
        XCTAssertTrue(try cache.png(for: b, encoder: &encoder).reused)
    }

    /// Only the inked region is compared, so the region and the background belong to the key: the same pixels inside
    /// a region are another picture when the region or the colour around it differs.
    func testRegionAndBackgroundAreWhatTheyClaim() throws {
        let cache = EncodedPictureCache(byteLimit: 1 << 30, hash: { _, _ in 7 })
        var encoder = PNGEncoder(options: .fast)
        let content = PixelRect(x: 3, y: 5, width: 34, height: 20)
        let a = picture(4)
        let inside = try cache.png(for: a, inked: content, background: .transparent, encoder: &encoder)
        XCTAssertEqual(inside.png, try fresh(a))
        var filled = a
        for y in 0..<a.height {
            for x in 0..<a.width where y < 5 || y >= 25 || x < 3 || x >= 37 {
                filled.setPixel(x: x, y: y, RGBAColor(r: 9, g: 9, b: 9, a: 255).premultiplied)
            }
        }
        let other = try cache.png(for: filled, inked: content, background: RGBAColor(r: 9, g: 9, b: 9, a: 255),
                                  encoder: &encoder)
        XCTAssertFalse(other.reused)
        XCTAssertEqual(other.png, try fresh(filled))
        let wider = try cache.png(for: a, inked: PixelRect(x: 0, y: 0, width: 40, height: 30), background: .transparent,
                                  encoder: &encoder)
        XCTAssertFalse(wider.reused)
        XCTAssertEqual(wider.png, inside.png)
    }

    /// Workers asking for the same pictures at the same time encode each one once.
    func testConcurrentWorkersEncodeEachPictureOnce() throws {
        let cache = EncodedPictureCache()
        let pictures = (0..<6).map { picture(UInt64(10 + $0), width: 200, height: 120) }
        let expected = try pictures.map { try fresh($0) }
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var encoder = PNGEncoder(options: .fast)
            for round in 0..<12 {
                let index = (worker + round) % pictures.count
                guard let result = try? cache.png(for: pictures[index], encoder: &encoder),
                    result.png == expected[index]
                else { mismatches.add(); continue }
            }
        }
        XCTAssertEqual(mismatches.value, 0)
        XCTAssertEqual(cache.statistics, EncodedPictureCache.Counts(encoded: 6, reused: 8 * 12 - 6))
    }

    func testOldestPicturesAreForgottenBeyondTheLimit() throws {
        let a = picture(20), b = picture(21)
        // Room for a's pixels and PNG bytes, not for b's as well.
        let cache = EncodedPictureCache(byteLimit: a.pixels.count + (try fresh(a)).count + 64)
        var encoder = PNGEncoder(options: .fast)
        _ = try cache.png(for: a, encoder: &encoder)
        XCTAssertTrue(try cache.png(for: a, encoder: &encoder).reused)
        _ = try cache.png(for: b, encoder: &encoder)  // over the limit: a is forgotten
        let again = try cache.png(for: a, encoder: &encoder)
        XCTAssertFalse(again.reused)
        XCTAssertEqual(again.png, try fresh(a))
    }

    /// A clip played twice through `BatchRenderer`: the second pass reuses the first pass's bytes, and every file is
    /// the same with and without reuse, with one worker and with several.
    func testRenderedFilesAreTheSameWithAndWithoutReuse() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let document = try Importer.importDocument(at: sample)
        let scene = try RenderScene(document: document, assetsFolder: sample)
        let clip = try XCTUnwrap(document.clips.first)
        let pass = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: 24, selection: .all)
        let plans = (pass + pass).enumerated().map { number, plan in
            var copy = plan
            copy.number = number
            return copy
        }
        let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: nil)
        let name: @Sendable (FramePlan) -> String = { "f-\($0.number).png" }
        var folders: [URL] = []
        for (jobs, reuse) in [(1, false), (1, true), (3, true)] {
            let folder = try TestPaths.temporaryFolder("reuse-\(jobs)-\(reuse)")
            let results = try BatchRenderer(scenes: [scene], framing: framing, jobs: jobs, reusesIdenticalFrames: reuse)
                .run(plans, into: folder, fileName: name)
            let reused = results.filter(\.reused).count
            if reuse {
                XCTAssertGreaterThanOrEqual(reused, pass.count, "\(jobs) jobs: the second pass is all reused")
            } else {
                XCTAssertEqual(reused, 0)
            }
            folders.append(folder)
        }
        for plan in plans {
            let reference = try Data(contentsOf: folders[0].appendingPathComponent(name(plan)))
            for folder in folders.dropFirst() {
                XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(name(plan))), reference,
                               "frame \(plan.number) differs in \(folder.lastPathComponent)")
            }
        }
    }
}

/// A count shared by concurrent workers.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
