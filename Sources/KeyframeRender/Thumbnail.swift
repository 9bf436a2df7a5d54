import KeyframeRaster

/// Reduced copies of frames for contact sheets.
enum Thumbnail {
    /// `frame` scaled down (never up) so its longest side is at most `longestSide`, by averaging whole source
    /// pixels over each output pixel's footprint (a box filter, so fine detail does not alias).
    static func make(from frame: Bitmap, longestSide: Int) -> Bitmap {
        let side = max(frame.width, frame.height)
        guard side > longestSide, longestSide > 0 else { return frame }
        let scale = Double(longestSide) / Double(side)
        let width = max(1, Int((Double(frame.width) * scale).rounded()))
        let height = max(1, Int((Double(frame.height) * scale).rounded()))
        var out = Bitmap(width: width, height: height)
        let source = frame.pixels
        let stride = frame.width * 4
        out.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let y0 = y * frame.height / height, y1 = max(y0 + 1, (y + 1) * frame.height / height)
                for x in 0..<width {
                    let x0 = x * frame.width / width, x1 = max(x0 + 1, (x + 1) * frame.width / width)
                    var sum = (0, 0, 0, 0)
                    for sy in y0..<y1 {
                        var i = sy * stride + x0 * 4
                        for _ in x0..<x1 {
                            sum.0 += Int(source[i]); sum.1 += Int(source[i + 1])
                            sum.2 += Int(source[i + 2]); sum.3 += Int(source[i + 3])
                            i += 4
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0)
                    let o = (y * width + x) * 4
                    dst[o] = UInt8((sum.0 + n / 2) / n)
                    dst[o + 1] = UInt8((sum.1 + n / 2) / n)
                    dst[o + 2] = UInt8((sum.2 + n / 2) / n)
                    dst[o + 3] = UInt8((sum.3 + n / 2) / n)
                }
            }
        }
        return out
    }
}
