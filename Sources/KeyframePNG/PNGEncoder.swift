import CLibPNG
import KeyframeFiles
import KeyframeRaster

/// Encodes bitmaps as 8-bit RGBA PNGs through libpng with explicit settings.
///
/// The encoder keeps its output buffer and working memory between calls, so encoding a sequence of frames does not
/// reallocate. Copies are independent (copy-on-write); keep one encoder per worker.
///
/// ```swift
/// var encoder = PNGEncoder()              // .fast preset
/// try encoder.write(frame, to: "out/walk-0001.png")
/// ```
public struct PNGEncoder: Sendable {
    /// The settings used by every call.
    public var options: PNGEncodingOptions
    private var storage = EncodeBuffer()

    /// Creates an encoder; the default is the fast preset.
    public init(options: PNGEncodingOptions = .fast) {
        self.options = options
    }

    /// Encodes a premultiplied bitmap as straight-alpha RGBA and returns the PNG bytes.
    public mutating func encode(_ bitmap: Bitmap) throws(PNGError) -> [UInt8] {
        try encodeInPlace(bitmap)
        return storage.bytes
    }

    /// Encodes raw 8-bit pixels of the given layout, rows tightly packed, and returns the PNG bytes.
    public mutating func encode(pixels: [UInt8], width: Int, height: Int, layout: PNGPixelLayout) throws(PNGError)
        -> [UInt8]
    {
        try encodeRaw(pixels, width: width, height: height, layout: layout)
        return storage.bytes
    }

    /// Encodes a bitmap and writes it to `path` atomically.
    ///
    /// The bytes go to a temporary file in the same directory, which is then renamed over `path`;
    /// readers never see a half-written PNG, and a failure leaves any previous file in place.
    public mutating func write(_ bitmap: Bitmap, to path: String) throws(PNGError) {
        try encodeInPlace(bitmap)
        let buffer = storage.buffer
        do {
            try AtomicFile.store(UnsafeRawBufferPointer(start: buffer.bytes, count: buffer.count), to: path)
        } catch {
            throw PNGError(kind: .fileSystem, message: error.reason, path: path)
        }
    }

    // MARK: Private

    private mutating func encodeInPlace(_ bitmap: Bitmap) throws(PNGError) {
        try encodeRaw(bitmap.pixels, width: bitmap.width, height: bitmap.height, layout: .premultipliedRGBA)
    }

    private mutating func encodeRaw(_ pixels: [UInt8], width: Int, height: Int, layout: PNGPixelLayout)
        throws(PNGError)
    {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PNGError(kind: .encodingFailed, message: "cannot encode a \(width)×\(height) image")
        }
        let rowBytes = width * layout.bytesPerPixel
        guard pixels.count == rowBytes * height else {
            throw PNGError(
                kind: .encodingFailed,
                message: "expected \(rowBytes * height) bytes for \(width)×\(height) \(layout), got \(pixels.count)")
        }
        if !isKnownUniquelyReferenced(&storage) { storage = EncodeBuffer() }
        let out = storage
        var settings = kf_png_encode_options(
            compression_level: Int32(clamping: options.compressionLevel), filters: options.filters.rawValue,
            strategy: options.strategy.rawValue, layout: layout.rawValue, interlaced: options.interlaced ? 1 : 0,
            compressor: options.compressor.rawValue, vectors: options.vectorInstructions.rawValue)
        var message = [CChar](repeating: 0, count: Int(KF_PNG_MESSAGE_CAPACITY))
        let status = pixels.withUnsafeBufferPointer { px in
            withUnsafeMutablePointer(to: &out.buffer) { buffer in
                kf_png_encode(
                    px.baseAddress, UInt32(width), UInt32(height), rowBytes, &settings, buffer, &message,
                    message.count)
            }
        }
        if status != 0 {
            throw PNGError(kind: .encodingFailed, message: PNGError.text(message))
        }
    }
}

/// The C-owned output buffer and working memory, freed when the last encoder copy goes away.
final class EncodeBuffer: @unchecked Sendable {
    var buffer = kf_png_buffer(bytes: nil, count: 0, capacity: 0, workspace: nil)

    deinit { kf_png_buffer_free(&buffer) }

    var bytes: [UInt8] {
        guard let base = buffer.bytes else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: buffer.count))
    }
}
