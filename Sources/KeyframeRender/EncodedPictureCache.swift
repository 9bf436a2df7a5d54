import Foundation
import KeyframePNG
import KeyframeRaster

/// PNG files already encoded, found again by their pixels: a bitmap equal pixel for pixel to one encoded before (same
/// size, same PNG settings) gets the bytes that one got, without being encoded again.
///
/// A picture is looked up by a hash of its pixels and confirmed by comparing the pixels themselves, so reused bytes
/// are always the bytes encoding would have produced: output does not depend on whether, or in which order, pictures
/// were reused. Safe to share between workers; a worker that meets a picture another worker is encoding waits for
/// its bytes instead of encoding it too. Remembered pictures are dropped oldest first beyond ``byteLimit``.
///
/// ```swift
/// let cache = EncodedPictureCache()
/// let (png, reused) = try cache.png(for: frame, inked: renderer.inkedRegion, background: .transparent,
///                                   encoder: &encoder)
/// ```
public final class EncodedPictureCache: @unchecked Sendable {
    /// How many pictures were encoded, and how many got the bytes of an equal picture encoded before.
    public struct Counts: Sendable, Equatable {
        public var encoded = 0
        public var reused = 0
    }

    /// The most bytes (remembered pixels plus PNG bytes) kept; older pictures are forgotten beyond it.
    public let byteLimit: Int

    private struct Key: Hashable {
        var width: Int
        var height: Int
        var region: PixelRect
        var background: RGBAColor
        var options: PNGEncodingOptions
        var hash: UInt64
    }

    /// A picture being encoded (`png` nil) or encoded, with a copy of its pixels inside `region`.
    private final class Entry {
        let key: Key
        let pixels: [UInt8]
        var png: [UInt8]?
        var abandoned = false

        init(key: Key, pixels: [UInt8]) {
            self.key = key
            self.pixels = pixels
        }

        var bytes: Int { pixels.count + (png?.count ?? 0) }
    }

    private let condition = NSCondition()
    private var entries: [Key: [Entry]] = [:]
    private var finished: OldestFirst<Entry>
    private var counts = Counts()
    private let hash: @Sendable (Bitmap, PixelRect) -> UInt64

    /// Creates an empty cache keeping at most `byteLimit` bytes.
    public convenience init(byteLimit: Int = 256 << 20) {
        self.init(byteLimit: byteLimit, hash: EncodedPictureCache.contentHash)
    }

    /// Creates an empty cache with another pixel hash (tests use a constant one: every lookup then rests on the pixel
    /// comparison alone).
    init(byteLimit: Int, hash: @escaping @Sendable (Bitmap, PixelRect) -> UInt64) {
        self.byteLimit = max(0, byteLimit)
        self.hash = hash
        finished = OldestFirst(byteLimit: byteLimit)
    }

    /// The pictures encoded and reused so far.
    public var statistics: Counts {
        condition.lock()
        defer { condition.unlock() }
        return counts
    }

    /// The PNG bytes of `bitmap` with `encoder`'s settings: those of an equal picture encoded before (`reused`), or
    /// encoded now with `encoder` (and remembered).
    ///
    /// - Parameters:
    ///   - bitmap: the picture to encode.
    ///   - inked: where `bitmap` may differ from `background`: the caller guarantees that every pixel outside it is
    ///     `background` (premultiplied), so only the pixels inside are hashed and compared. `nil`: the whole bitmap.
    ///   - background: the colour outside `inked`.
    ///   - encoder: the encoder whose settings the bytes have.
    public func png(for bitmap: Bitmap, inked: PixelRect? = nil, background: RGBAColor = .transparent,
                    encoder: inout PNGEncoder) throws(PNGError) -> (png: [UInt8], reused: Bool)
    {
        let bounds = PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        var region = (inked ?? bounds).intersection(bounds)
        if region.isEmpty { region = PixelRect(x: 0, y: 0, width: 0, height: 0) }
        let key = Key(width: bitmap.width, height: bitmap.height, region: region,
                      background: inked == nil ? .transparent : background, options: encoder.options,
                      hash: hash(bitmap, region))
        condition.lock()
        var entry: Entry
        lookup: while true {
            for candidate in entries[key] ?? [] where !candidate.abandoned
                && EncodedPictureCache.equal(bitmap, region, candidate.pixels)
            {
                if let png = candidate.png {
                    counts.reused += 1
                    condition.unlock()
                    return (png, true)
                }
                condition.wait()  // another worker is encoding this picture
                continue lookup
            }
            entry = Entry(key: key, pixels: EncodedPictureCache.copy(bitmap, region))
            entries[key, default: []].append(entry)
            break
        }
        condition.unlock()

        let png: [UInt8]
        do {
            png = try encoder.encode(bitmap)
        } catch {
            condition.lock()
            entry.abandoned = true
            remove(entry)
            condition.broadcast()
            condition.unlock()
            throw error
        }
        condition.lock()
        entry.png = png
        counts.encoded += 1
        for forgotten in finished.append(entry, bytes: entry.bytes) { remove(forgotten) }
        condition.broadcast()
        condition.unlock()
        return (png, false)
    }

    /// Removes `entry` from the lookup table (under the lock).
    private func remove(_ entry: Entry) {
        guard var list = entries[entry.key] else { return }
        list.removeAll { $0 === entry }
        entries[entry.key] = list.isEmpty ? nil : list
    }

    /// The rows of `region`, packed.
    private static func copy(_ bitmap: Bitmap, _ region: PixelRect) -> [UInt8] {
        guard !region.isEmpty else { return [] }
        let rowBytes = region.width * 4
        var out = [UInt8](repeating: 0, count: rowBytes * region.height)
        bitmap.pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                for row in 0..<region.height {
                    let from = ((region.y + row) * bitmap.width + region.x) * 4
                    (destination.baseAddress! + row * rowBytes).copyMemory(
                        from: source.baseAddress! + from, byteCount: rowBytes)
                }
            }
        }
        return out
    }

    /// Whether the rows of `region` equal `pixels` (packed rows).
    private static func equal(_ bitmap: Bitmap, _ region: PixelRect, _ pixels: [UInt8]) -> Bool {
        guard !region.isEmpty else { return pixels.isEmpty }
        let rowBytes = region.width * 4
        guard pixels.count == rowBytes * region.height else { return false }
        return bitmap.pixels.withUnsafeBytes { source in
            pixels.withUnsafeBytes { stored in
                for row in 0..<region.height {
                    let from = ((region.y + row) * bitmap.width + region.x) * 4
                    if memcmp(source.baseAddress! + from, stored.baseAddress! + row * rowBytes, rowBytes) != 0 {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// A 64-bit hash of the pixels inside `region`: four independent multiply–rotate lanes over 8-byte words, so
    /// that it runs at memory speed; the lanes, the row count and the width are mixed at the end. Only used to find
    /// candidates — equality is always checked on the pixels.
    static func contentHash(_ bitmap: Bitmap, _ region: PixelRect) -> UInt64 {
        guard !region.isEmpty else { return 0 }
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87, prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1, prime2, 0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5)
        @inline(__always) func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = lane &+ word &* prime2
            return ((mixed << 31) | (mixed >> 33)) &* prime1
        }
        let rowBytes = region.width * 4
        bitmap.pixels.withUnsafeBytes { raw in
            for row in 0..<region.height {
                let start = raw.baseAddress! + ((region.y + row) * bitmap.width + region.x) * 4
                var offset = 0
                while offset + 32 <= rowBytes {
                    lanes.0 = round(lanes.0, start.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    lanes.1 = round(lanes.1, start.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                    lanes.2 = round(lanes.2, start.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                    lanes.3 = round(lanes.3, start.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                    offset += 32
                }
                while offset + 4 <= rowBytes {  // whole pixels: rows are multiples of 4 bytes
                    lanes.0 = round(lanes.0, UInt64(start.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    offset += 4
                }
            }
        }
        var result = round(round(round(round(UInt64(rowBytes), lanes.0), lanes.1), lanes.2), lanes.3)
        result = round(result, UInt64(region.height))
        result ^= result >> 29
        result = result &* prime2
        return result ^ (result >> 32)
    }
}
