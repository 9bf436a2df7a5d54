import KeyframeRaster

/// Assembles an animated GIF (GIF89a) from frames of straight 8-bit RGBA, with an encoder of Keyframe's own (median
/// cut palette, LZW).
///
/// GIF has 256 colours a frame and one-bit transparency: a pixel whose alpha is below 128 becomes the transparent
/// index, any other is opaque in its colour's nearest palette entry. When every frame is opaque, each frame after the
/// first stores only the rectangle in which it differs from the one before, drawn over it (disposal 1); otherwise
/// each frame stores the bounds of its visible pixels and is cleared when the next one comes (disposal 2), so what
/// was visible never lingers. A frame identical to the one before lengthens that frame's delay. Delays are whole
/// centiseconds spread by ``AnimationTiming`` (at least 2 cs: browsers show shorter delays as 10 cs).
///
/// ```swift
/// var writer = GIFWriter(width: 54, height: 138, fps: 24, plays: 0, options: GIFOptions(palette: .frame))
/// for frame in frames { try writer.add(straightRGBA: frame) }
/// let bytes = try writer.finish()
/// ```
public struct GIFWriter {
    /// The frames' size.
    public let width: Int
    public let height: Int
    /// Frames per second.
    public let fps: Double
    /// How many times the animation plays; 0 means forever.
    public let plays: Int
    /// Palette and dithering.
    public let options: GIFOptions

    /// The alpha from which a pixel is drawn (below it, it is the transparent index).
    public static let alphaThreshold: UInt8 = 128

    private var frames: [[UInt8]] = []
    private var runs: [Int] = []
    /// How many frames have been added.
    public private(set) var frameCount = 0

    /// Creates a writer for frames of `width` × `height` (1…65535) shown at `fps`, played `plays` times (0: forever).
    public init(width: Int, height: Int, fps: Double, plays: Int, options: GIFOptions = GIFOptions()) {
        self.width = width
        self.height = height
        self.fps = fps
        self.plays = max(0, plays)
        self.options = options
    }

    /// Adds a frame given as straight 8-bit RGBA, rows tightly packed.
    public mutating func add(straightRGBA pixels: [UInt8]) throws(AnimationError) {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw AnimationError("GIF frames are 1 to 65535 pixels a side, not \(width)×\(height)")
        }
        guard pixels.count == width * height * 4 else {
            throw AnimationError("frame \(frameCount) has \(pixels.count) bytes, not \(width * height * 4)")
        }
        frameCount += 1
        if let last = frames.last, last == pixels {
            runs[runs.count - 1] += 1
            return
        }
        frames.append(pixels)
        runs.append(1)
    }

    /// The GIF file.
    public func finish() throws(AnimationError) -> [UInt8] {
        guard !frames.isEmpty else { throw AnimationError("no frames to animate") }
        let threshold = GIFWriter.alphaThreshold
        let opaque = frames.allSatisfy { frame in stride(from: 3, to: frame.count, by: 4).allSatisfy { frame[$0] >= threshold } }
        // The rectangle each frame stores.
        var rects: [(x: Int, y: Int, width: Int, height: Int)] = []
        for (index, frame) in frames.enumerated() {
            var rect: PixelRect?
            if !opaque {
                rect = PixelRect.nonTransparent(in: GIFWriter.thresholded(frame), width: width, height: height)
            } else if index > 0 {
                rect = PixelRect.changes(between: frame, and: frames[index - 1], width: width, height: height)
            } else {
                rect = PixelRect(x: 0, y: 0, width: width, height: height)
            }
            let r = rect ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
            rects.append((r.x, r.y, r.width, r.height))
        }
        var global: ColorPalette?
        if options.palette == .global {
            var histogram: [UInt32: Int] = [:]
            for (frame, rect) in zip(frames, rects) {
                ColorPalette.count(frame, stride: width, rect: rect, threshold: threshold, into: &histogram)
            }
            global = ColorPalette(histogram: histogram, limit: 255)
        }
        var out = Array("GIF89a".utf8)
        out.append(le16: width)
        out.append(le16: height)
        if let global {
            let bits = GIFWriter.tableBits(global.colors.count + 1)
            out += [0x80 | 0x70 | UInt8(bits - 1), 0, 0]
            out += GIFWriter.table(global.colors, bits: bits)
        } else {
            out += [0x70, 0, 0]
        }
        if plays != 1 {
            // NETSCAPE2.0: how many times to repeat after the first play (0: forever).
            out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            out.append(le16: plays == 0 ? 0 : min(65535, plays - 1))
            out.append(0)
        }
        let delays = AnimationTiming.delays(runs: runs, fps: fps, ticksPerSecond: 100, minimum: 2)
        for (index, frame) in frames.enumerated() {
            var palette = global ?? {
                var histogram: [UInt32: Int] = [:]
                ColorPalette.count(frame, stride: width, rect: rects[index], threshold: threshold, into: &histogram)
                return ColorPalette(histogram: histogram, limit: 255)
            }()
            let indices = GIFWriter.indices(frame, stride: width, rect: rects[index], palette: &palette,
                                            dither: options.dither)
            // Graphic control: disposal, transparency (index 0 holds the transparent pixels), delay.
            let delay = min(65535, delays[index])
            out += [0x21, 0xF9, 0x04, UInt8((opaque ? 1 : 2) << 2 | 1)]
            out.append(le16: delay)
            out += [0, 0]
            let rect = rects[index]
            out.append(0x2C)
            out.append(le16: rect.x); out.append(le16: rect.y); out.append(le16: rect.width); out.append(le16: rect.height)
            let bits = GIFWriter.tableBits(palette.colors.count + 1)
            if global == nil {
                out.append(0x80 | UInt8(bits - 1))
                out += GIFWriter.table(palette.colors, bits: bits)
            } else {
                out.append(0)
            }
            out += GIFLZW.encode(indices, minimumCodeSize: max(2, bits))
        }
        out.append(0x3B)
        return out
    }

    /// The pixels with alpha below the threshold set to 0, so only drawn pixels count for a frame's bounds.
    static func thresholded(_ frame: [UInt8]) -> [UInt8] {
        var copy = frame
        for offset in stride(from: 3, to: copy.count, by: 4) where copy[offset] < alphaThreshold { copy[offset] = 0 }
        return copy
    }

    /// The bits of a colour table holding `count` entries (1…8).
    static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while 1 << bits < count { bits += 1 }
        return bits
    }

    /// A colour table of 2^bits entries: the transparent entry (black), the colours, then black padding.
    static func table(_ colors: [UInt32], bits: Int) -> [UInt8] {
        var out: [UInt8] = [0, 0, 0]
        for color in colors { out += [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)] }
        out += [UInt8](repeating: 0, count: (1 << bits) * 3 - out.count)
        return out
    }

    /// The colour indices of `rect` (entry k of the palette is index k + 1; 0 is transparent), optionally with
    /// Floyd–Steinberg error diffusion among the drawn pixels.
    static func indices(_ pixels: [UInt8], stride: Int, rect: (x: Int, y: Int, width: Int, height: Int),
                        palette: inout ColorPalette, dither: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rect.width * rect.height)
        // Error carried to this row and the next, three channels per pixel, with a one-pixel margin on each side.
        var current = [Int](repeating: 0, count: (rect.width + 2) * 3)
        var below = current
        for row in 0..<rect.height {
            var offset = ((rect.y + row) * stride + rect.x) * 4
            for column in 0..<rect.width {
                defer { offset += 4 }
                guard pixels[offset + 3] >= alphaThreshold else { continue }
                let e = (column + 1) * 3
                let r = min(255, max(0, Int(pixels[offset]) + (dither ? current[e] / 16 : 0)))
                let g = min(255, max(0, Int(pixels[offset + 1]) + (dither ? current[e + 1] / 16 : 0)))
                let b = min(255, max(0, Int(pixels[offset + 2]) + (dither ? current[e + 2] / 16 : 0)))
                let index = palette.index(r: r, g: g, b: b)
                out[row * rect.width + column] = index + 1
                guard dither else { continue }
                let chosen = palette.colors[Int(index)]
                let errors = [r - Int(chosen >> 16 & 0xFF), g - Int(chosen >> 8 & 0xFF), b - Int(chosen & 0xFF)]
                for channel in 0..<3 {
                    let error = errors[channel]
                    current[e + 3 + channel] += error * 7
                    below[e - 3 + channel] += error * 3
                    below[e + channel] += error * 5
                    below[e + 3 + channel] += error
                }
            }
            swap(&current, &below)
            for index in below.indices { below[index] = 0 }
        }
        return out
    }
}

extension Array where Element == UInt8 {
    mutating func append(le16 value: Int) {
        append(UInt8(value & 0xFF)); append(UInt8(value >> 8 & 0xFF))
    }
}
