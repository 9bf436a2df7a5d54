/// An integer rectangle in pixels: an atlas region, a clip, or a bitmap's bounds.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width; a non-positive width makes the rectangle empty.
    public var width: Int
    /// Height; a non-positive height makes the rectangle empty.
    public var height: Int

    /// Creates a rectangle from its origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge (exclusive).
    public var maxX: Int { x + width }
    /// Bottom edge (exclusive).
    public var maxY: Int { y + height }
    /// Whether the rectangle contains no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The overlap of two rectangles; empty (zero size) when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return PixelRect(x: x0, y: y0, width: 0, height: 0) }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
