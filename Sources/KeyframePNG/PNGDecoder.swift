import CLibPNG
import KeyframeFiles
import KeyframeRaster

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Decodes any PNG libpng reads into a premultiplied `KeyframeRaster/Bitmap`.
///
/// Palette, gray, gray+alpha, RGB and RGBA at every bit depth, interlaced or not, with or without
/// tRNS, become 8-bit RGBA (16-bit samples are scaled with rounding) and are premultiplied. No gamma
/// correction is applied: samples are taken as sRGB, as Flash does. Corrupt, truncated, non-PNG or
/// oversized data throws ``PNGError``.
///
/// ```swift
/// let atlas = try PNGDecoder().decode(contentsOf: "spritemap1.png")
/// ```
public struct PNGDecoder: Sendable {
    /// Size limits checked before pixels are allocated.
    public var limits: PNGDecodingLimits

    /// Creates a decoder.
    public init(limits: PNGDecodingLimits = .standard) {
        self.limits = limits
    }

    /// Reads only the header.
    public func info(of bytes: [UInt8]) throws(PNGError) -> PNGImageInfo {
        try withDecoder(bytes) { _, info throws(PNGError) in info }
    }

    /// Decodes PNG bytes into a premultiplied bitmap.
    public func decode(_ bytes: [UInt8]) throws(PNGError) -> Bitmap {
        try withDecoder(bytes) { decoder, info throws(PNGError) in
            var bitmap = Bitmap(width: info.width, height: info.height)
            var message = [CChar](repeating: 0, count: Int(KF_PNG_MESSAGE_CAPACITY))
            let rowBytes = bitmap.rowBytes
            let status = bitmap.pixels.withUnsafeMutableBufferPointer { px in
                kf_png_decoder_read_rgba(decoder, px.baseAddress, rowBytes, 1, &message, message.count)
            }
            if status != 0 { throw PNGError.fromDecoder(PNGError.text(message)) }
            return bitmap
        }
    }

    /// Decodes PNG bytes into straight (not premultiplied) 8-bit RGBA, row after row: the samples as stored, for
    /// callers that re-encode parts of an image and must keep its bytes' colours exactly. Rows are tightly packed, top
    /// to bottom.
    public func decodeStraight(_ bytes: [UInt8]) throws(PNGError) -> (width: Int, height: Int, pixels: [UInt8]) {
        try withDecoder(bytes) { decoder, info throws(PNGError) in
            var pixels = [UInt8](repeating: 0, count: info.width * info.height * 4)
            var message = [CChar](repeating: 0, count: Int(KF_PNG_MESSAGE_CAPACITY))
            let status = pixels.withUnsafeMutableBufferPointer { px in
                kf_png_decoder_read_rgba(decoder, px.baseAddress, info.width * 4, 0, &message, message.count)
            }
            if status != 0 { throw PNGError.fromDecoder(PNGError.text(message)) }
            return (info.width, info.height, pixels)
        }
    }

    /// Reads and decodes a PNG file.
    public func decode(contentsOf path: String) throws(PNGError) -> Bitmap {
        let bytes = try PNGDecoder.readFile(path)
        do {
            return try decode(bytes)
        } catch {
            throw error.at(path)
        }
    }

    // MARK: Private

    private func withDecoder<R>(
        _ bytes: [UInt8], _ body: (OpaquePointer, PNGImageInfo) throws(PNGError) -> R
    ) throws(PNGError) -> R {
        var cLimits = kf_png_decode_limits(
            max_width: UInt32(clamping: max(0, limits.maxWidth)), max_height: UInt32(clamping: max(0, limits.maxHeight)),
            max_pixels: UInt64(clamping: max(0, limits.maxPixels)), max_chunk_bytes: max(0, limits.maxChunkBytes))
        var message = [CChar](repeating: 0, count: Int(KF_PNG_MESSAGE_CAPACITY))
        var handle: OpaquePointer?
        var cInfo = kf_png_info()
        let result: Result<R, PNGError> = bytes.withUnsafeBufferPointer { buffer in
            let status = kf_png_decoder_open(
                buffer.baseAddress, buffer.count, &cLimits, &handle, &cInfo, &message, message.count)
            guard status == 0, let decoder = handle else {
                return .failure(PNGError.fromDecoder(PNGError.text(message)))
            }
            defer { kf_png_decoder_free(decoder) }
            guard let colorType = PNGColorType(rawValue: Int(cInfo.color_type)) else {
                return .failure(PNGError(kind: .invalidData, message: "unknown colour type \(cInfo.color_type)"))
            }
            let info = PNGImageInfo(
                width: Int(cInfo.width), height: Int(cInfo.height), bitDepth: Int(cInfo.bit_depth),
                colorType: colorType, isInterlaced: cInfo.interlaced != 0, hasTransparencyChunk: cInfo.has_trns != 0)
            do throws(PNGError) {
                return .success(try body(decoder, info))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Largest PNG file read: 1 GiB.
    public static let maximumFileSize = 1 << 30

    /// Reads a whole file with POSIX calls (no Foundation dependency).
    static func readFile(_ path: String) throws(PNGError) -> [UInt8] {
        // Bounded (a PNG within the decoding limits is far smaller) and never waiting on a named pipe.
        do { return try InputFile.read(path, limit: PNGDecoder.maximumFileSize) } catch {
            throw PNGError(kind: .fileSystem, message: error.reason, path: path)
        }
    }
}
