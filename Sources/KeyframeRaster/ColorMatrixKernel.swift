/// Flash's `ColorMatrixFilter`: a 4×5 matrix applied to each pixel's straight (unpremultiplied) colour.
///
/// `r' = m0·r + m1·g + m2·b + m3·a + m4`, and so on for green (m5…m9), blue (m10…m14) and alpha (m15…m19), with
/// channels and offsets on the 0…255 scale; results are clamped to 0…255 and rounded, then premultiplied again.
/// Unpremultiplying rounds `c·255/a`, as PNG encoding does. Only the picture's pixels are changed: a matrix that
/// gives transparent pixels alpha (an alpha offset) colours nothing outside the picture's bitmap.
public struct ColorMatrixKernel: Sendable, Equatable {
    /// The 20 coefficients, row by row.
    public var matrix: [Double]

    /// A kernel for `matrix`; `nil` unless it has 20 finite coefficients.
    public init?(_ matrix: [Double]) {
        guard matrix.count == 20, matrix.allSatisfy(\.isFinite) else { return nil }
        self.matrix = matrix
    }

    /// Applies the matrix to every pixel of `bitmap`.
    public func apply(to bitmap: inout Bitmap) {
        let m = matrix
        let keepsTransparent = m[19] <= 0 && m[18] >= 0
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a8 = p[i + 3]
                if a8 == 0 && keepsTransparent {
                    i += 4
                    continue
                }
                let r = Double(PixelMath.unpremultiply(p[i], a8))
                let g = Double(PixelMath.unpremultiply(p[i + 1], a8))
                let b = Double(PixelMath.unpremultiply(p[i + 2], a8))
                let a = Double(a8)
                let na = ColorMatrixKernel.channel(m[15] * r + m[16] * g + m[17] * b + m[18] * a + m[19])
                let nr = ColorMatrixKernel.channel(m[0] * r + m[1] * g + m[2] * b + m[3] * a + m[4])
                let ng = ColorMatrixKernel.channel(m[5] * r + m[6] * g + m[7] * b + m[8] * a + m[9])
                let nb = ColorMatrixKernel.channel(m[10] * r + m[11] * g + m[12] * b + m[13] * a + m[14])
                p[i] = PixelMath.premultiply(nr, na)
                p[i + 1] = PixelMath.premultiply(ng, na)
                p[i + 2] = PixelMath.premultiply(nb, na)
                p[i + 3] = na
                i += 4
            }
        }
    }

    @inline(__always) static func channel(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value + 0.5)))
    }
}
