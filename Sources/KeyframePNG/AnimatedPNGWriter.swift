import KeyframeRaster

/// Assembles an animated PNG (APNG): frames of one size, each shown for a fixed time, lossless, playing in every
/// current browser (and GitHub's image view); viewers that do not know APNG show the first frame.
///
/// libpng writes APNG only with a patch that Debian's libpng (1.6.39) does not carry, so libpng compresses each
/// frame's pixels as usual and this type puts the compressed data into APNG's own chunks (`acTL`, `fcTL`, `fdAT`,
/// from the APNG specification), with their sequence numbers and CRCs. Each frame after the first stores only the
/// rectangle in which it differs from the frame before (`dispose_op` none, `blend_op` source, so the rectangle's
/// pixels replace what was there, transparent ones included), and a frame identical to the one before lengthens
/// that frame's display time instead of being stored again.
///
/// ```swift
/// var writer = AnimatedPNGWriter(width: 54, height: 138, frameDuration: (1, 24), plays: 0)
/// for png in frames { try writer.add(png: png) }
/// let bytes = try writer.finish()
/// ```
public struct AnimatedPNGWriter {
    /// The frames' size.
    public let width: Int
    public let height: Int
    /// How long each added frame is shown: numerator and denominator of a fraction of a second.
    public let frameDuration: (numerator: UInt16, denominator: UInt16)
    /// How many times the animation plays; 0 means forever.
    public let plays: Int

    private struct StoredFrame {
        var x: Int, y: Int, width: Int, height: Int
        /// The frame's zlib stream (the IDAT data libpng wrote for the rectangle).
        var data: [UInt8]
        /// How many added frames it stands for.
        var repeats: Int
    }

    private var frames: [StoredFrame] = []
    private var previous: [UInt8]?
    private var encoder: PNGEncoder

    /// The most frames an APNG holds here (`num_frames` is 32-bit; this keeps memory bounded).
    public static let maximumFrames = 100_000

    /// Creates a writer for frames of `width` × `height`, each shown for `frameDuration` seconds (a fraction whose
    /// parts are at most 65535), played `plays` times (0: forever), compressed with `options` (never interlaced).
    public init(width: Int, height: Int, frameDuration: (numerator: UInt16, denominator: UInt16), plays: Int,
                options: PNGEncodingOptions = .fast) {
        self.width = width
        self.height = height
        self.frameDuration = frameDuration
        self.plays = max(0, plays)
        var options = options
        options.interlaced = false
        encoder = PNGEncoder(options: options)
    }

    /// How many frames have been added.
    public private(set) var frameCount = 0

    /// Adds the frame whose PNG is `png` (any PNG of the writer's size).
    ///
    /// - Throws: ``PNGError`` when `png` cannot be decoded, has another size, or too many frames were added.
    public mutating func add(png: [UInt8]) throws(PNGError) {
        let frame = try PNGDecoder().decodeStraight(png)
        guard frame.width == width, frame.height == height else {
            throw PNGError(kind: .encodingFailed,
                           message: "frame \(frameCount) is \(frame.width)×\(frame.height), not \(width)×\(height)")
        }
        try add(straightRGBA: frame.pixels)
    }

    /// Adds a frame given as straight 8-bit RGBA, rows tightly packed.
    public mutating func add(straightRGBA pixels: [UInt8]) throws(PNGError) {
        guard pixels.count == width * height * 4 else {
            throw PNGError(kind: .encodingFailed, message: "frame \(frameCount) has \(pixels.count) bytes, not \(width * height * 4)")
        }
        guard frameCount < AnimatedPNGWriter.maximumFrames else {
            throw PNGError(kind: .encodingFailed, message: "more than \(AnimatedPNGWriter.maximumFrames) frames")
        }
        frameCount += 1
        var rect = (x: 0, y: 0, width: width, height: height)
        if let previous {
            guard let changed = PixelRect.changes(between: pixels, and: previous, width: width, height: height) else {
                frames[frames.count - 1].repeats += 1
                return
            }
            rect = (changed.x, changed.y, changed.width, changed.height)
        }
        var crop = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        for row in 0..<rect.height {
            let source = ((rect.y + row) * width + rect.x) * 4
            crop.replaceSubrange(row * rect.width * 4..<(row + 1) * rect.width * 4,
                                 with: pixels[source..<source + rect.width * 4])
        }
        let png = try encoder.encode(pixels: crop, width: rect.width, height: rect.height, layout: .rgba)
        frames.append(StoredFrame(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                  data: try AnimatedPNGWriter.imageData(png), repeats: 1))
        previous = pixels
    }

    /// The APNG file.
    ///
    /// - Throws: ``PNGError`` when no frame was added or a display time does not fit APNG's 16-bit fields.
    public func finish() throws(PNGError) -> [UInt8] {
        guard !frames.isEmpty else { throw PNGError(kind: .encodingFailed, message: "no frames to animate") }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.append(be32: UInt32(width))
        header.append(be32: UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, not interlaced
        out.appendChunk("IHDR", header)
        var control: [UInt8] = []
        control.append(be32: UInt32(frames.count))
        control.append(be32: UInt32(plays))
        out.appendChunk("acTL", control)
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let numerator = Int(frameDuration.numerator) * frame.repeats
            // A held frame's time as one fraction: n·(a/b), or rescaled when n·a passes 16 bits.
            var delay = (numerator: numerator, denominator: Int(frameDuration.denominator))
            while delay.numerator > 0xFFFF {
                delay = ((delay.numerator + 1) / 2, max(1, delay.denominator / 2))
            }
            var fc: [UInt8] = []
            fc.append(be32: sequence)
            fc.append(be32: UInt32(frame.width))
            fc.append(be32: UInt32(frame.height))
            fc.append(be32: UInt32(frame.x))
            fc.append(be32: UInt32(frame.y))
            fc.append(be16: UInt16(delay.numerator))
            fc.append(be16: UInt16(delay.denominator))
            fc += [0, 0]  // dispose_op none, blend_op source
            out.appendChunk("fcTL", fc)
            sequence += 1
            // The first frame is the default image (IDAT); the others travel in fdAT chunks with sequence numbers.
            var offset = 0
            repeat {
                let end = min(frame.data.count, offset + AnimatedPNGWriter.chunkLimit)
                if index == 0 {
                    out.appendChunk("IDAT", Array(frame.data[offset..<end]))
                } else {
                    var fd: [UInt8] = []
                    fd.append(be32: sequence)
                    fd += frame.data[offset..<end]
                    out.appendChunk("fdAT", fd)
                    sequence += 1
                }
                offset = end
            } while offset < frame.data.count
        }
        out.appendChunk("IEND", [])
        return out
    }

    /// The largest chunk payload written (well under PNG's 2³¹ − 1).
    static let chunkLimit = 1 << 20

    /// The concatenated IDAT data of a PNG (its zlib stream).
    static func imageData(_ png: [UInt8]) throws(PNGError) -> [UInt8] {
        var data: [UInt8] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= png.count else { break }
            if type == "IDAT" { data += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        guard !data.isEmpty else { throw PNGError(kind: .encodingFailed, message: "the encoder wrote no image data") }
        return data
    }

    /// The display time of one frame at `fps` frames per second as a fraction of a second with 16-bit parts: exact
    /// for whole rates up to 65535, otherwise the closest such fraction (23.976 fps: 1001/24000).
    public static func frameDuration(fps: Double) -> (numerator: UInt16, denominator: UInt16) {
        guard fps.isFinite, fps > 0 else { return (1, 1) }
        // Best rational approximation of 1/fps with numerator and denominator ≤ 65535 (continued fractions).
        let target = 1 / fps
        var best = (numerator: 1, denominator: max(1, min(65535, Int(fps.rounded()))))
        var bestError = abs(Double(best.numerator) / Double(best.denominator) - target)
        var h0 = 0, h1 = 1, k0 = 1, k1 = 0
        var x = target
        for _ in 0..<32 {
            let a = Int(x.rounded(.down))
            let h2 = a * h1 + h0, k2 = a * k1 + k0
            if h2 > 65535 || k2 > 65535 { break }
            if k2 > 0, h2 > 0 {
                let error = abs(Double(h2) / Double(k2) - target)
                if error < bestError { best = (h2, k2); bestError = error }
            }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = x - Double(a)
            if fraction < 1e-12 { break }
            x = 1 / fraction
        }
        return (UInt16(best.numerator), UInt16(best.denominator))
    }
}

extension Array where Element == UInt8 {
    mutating func append(be32 value: UInt32) {
        append(UInt8(value >> 24)); append(UInt8(value >> 16 & 0xFF)); append(UInt8(value >> 8 & 0xFF))
        append(UInt8(value & 0xFF))
    }

    mutating func append(be16 value: UInt16) {
        append(UInt8(value >> 8)); append(UInt8(value & 0xFF))
    }

    /// Appends a PNG chunk: length, type, data and the CRC-32 of type and data.
    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        append(be32: UInt32(data.count))
        let typeBytes = Array(type.utf8)
        append(contentsOf: typeBytes)
        append(contentsOf: data)
        var crc = CRC32()
        crc.update(typeBytes)
        crc.update(data)
        append(be32: crc.value)
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320).
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
    private var state: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: [UInt8]) {
        var c = state
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer { c = CRC32.table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        }
        state = c
    }

    var value: UInt32 { state ^ 0xFFFF_FFFF }
}
