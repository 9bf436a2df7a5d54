/// A premultiplied RGBA8 image: the canvas the rasterizer draws into and the atlas it samples from.
///
/// Pixels are stored row by row, top to bottom, four bytes each in the order red, green, blue, alpha.
/// Colour is premultiplied by alpha, so a valid pixel never has a colour byte above its alpha byte.
/// Rows are tightly packed (`rowBytes == width * 4`).
///
/// A bitmap is a value type backed by a copy-on-write array. Keep one per worker and call
/// ``clear(to:)`` or ``resize(width:height:)`` between frames: both reuse the existing allocation,
/// which avoids the page-fault cost of a fresh buffer per frame.
///
/// ```swift
/// var frame = Bitmap(width: 1024, height: 1024)
/// frame.clear(to: .white)
/// ```
public struct Bitmap: Sendable, Equatable {
    /// Width in pixels.
    public private(set) var width: Int
    /// Height in pixels.
    public private(set) var height: Int
    /// Premultiplied RGBA bytes, `width * height * 4` of them.
    public var pixels: [UInt8]

    /// Creates a transparent bitmap; non-positive sizes give an empty bitmap.
    public init(width: Int, height: Int) {
        let w = max(0, width)
        let h = max(0, height)
        self.width = w
        self.height = h
        self.pixels = [UInt8](repeating: 0, count: w * h * 4)
    }

    /// Wraps existing premultiplied RGBA bytes; returns `nil` if the count does not match the size.
    public init?(width: Int, height: Int, premultipliedRGBA pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Builds a bitmap from straight (non-premultiplied) RGBA bytes, premultiplying each pixel.
    ///
    /// Returns `nil` if the count does not match the size.
    public init?(width: Int, height: Int, straightRGBA: [UInt8]) {
        guard width >= 0, height >= 0, straightRGBA.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        var bytes = straightRGBA
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let a = bytes[i + 3]
            bytes[i] = PixelMath.premultiply(bytes[i], a)
            bytes[i + 1] = PixelMath.premultiply(bytes[i + 1], a)
            bytes[i + 2] = PixelMath.premultiply(bytes[i + 2], a)
        }
        self.pixels = bytes
    }

    /// Bytes per row.
    public var rowBytes: Int { width * 4 }

    /// The bitmap's bounds, origin at zero.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Whether the bitmap has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Fills every pixel with `color` (straight colour, premultiplied on store) without reallocating.
    public mutating func clear(to color: RGBAColor = .transparent) {
        let value = color.premultipliedPixel
        pixels.withUnsafeMutableBytes { raw in
            if value == 0 {
                if let base = raw.baseAddress { base.initializeMemory(as: UInt8.self, repeating: 0, count: raw.count) }
                return
            }
            let words = raw.bindMemory(to: UInt32.self)
            words.update(repeating: value)
        }
    }

    /// Changes the size, keeping the allocation when it is large enough; the contents become transparent.
    public mutating func resize(width: Int, height: Int) {
        let w = max(0, width)
        let h = max(0, height)
        let count = w * h * 4
        if count <= pixels.count {
            pixels.removeLast(pixels.count - count)
        } else {
            pixels.append(contentsOf: repeatElement(0, count: count - pixels.count))
        }
        self.width = w
        self.height = h
        clear()
    }

    /// The premultiplied pixel at (`x`, `y`); transparent outside the bitmap.
    public func pixel(x: Int, y: Int) -> PremultipliedPixel {
        guard x >= 0, y >= 0, x < width, y < height else { return PremultipliedPixel(r: 0, g: 0, b: 0, a: 0) }
        let i = (y * width + x) * 4
        return PremultipliedPixel(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }

    /// Stores a premultiplied pixel at (`x`, `y`); ignored outside the bitmap.
    public mutating func setPixel(x: Int, y: Int, _ value: PremultipliedPixel) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 4
        pixels[i] = value.r
        pixels[i + 1] = value.g
        pixels[i + 2] = value.b
        pixels[i + 3] = value.a
    }

    /// The pixels converted to straight (non-premultiplied) RGBA bytes, rounding to nearest.
    public func straightRGBA() -> [UInt8] {
        var out = pixels
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = out[i + 3]
            out[i] = PixelMath.unpremultiply(out[i], a)
            out[i + 1] = PixelMath.unpremultiply(out[i + 1], a)
            out[i + 2] = PixelMath.unpremultiply(out[i + 2], a)
        }
        return out
    }

    /// Copies the pixels of `rect` (clipped to the bitmap) into a new bitmap.
    public func cropped(to rect: PixelRect) -> Bitmap {
        let r = rect.intersection(bounds)
        var out = Bitmap(width: r.width, height: r.height)
        guard !r.isEmpty else { return out }
        for row in 0..<r.height {
            let src = ((r.y + row) * width + r.x) * 4
            let dst = row * r.width * 4
            out.pixels.replaceSubrange(dst..<(dst + r.width * 4), with: pixels[src..<(src + r.width * 4)])
        }
        return out
    }
}
