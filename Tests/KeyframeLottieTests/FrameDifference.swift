import KeyframeRaster

/// How far two frames are apart, in the terms of the Lottie conformance criterion: the mean absolute difference
/// per channel (0–255 scale) and the share of pixels whose largest channel difference exceeds a threshold.
struct FrameDifference {
    var meanPerChannel: [Double]
    var offShare: Double

    /// The criterion: every channel's mean ≤ 1/255 and at most 2 % of pixels off by more than the threshold.
    var passes: Bool { meanPerChannel.allSatisfy { $0 <= 1 } && offShare <= 0.02 }

    var worstMean: Double { meanPerChannel.max() ?? 0 }

    init(_ a: Bitmap, _ b: Bitmap, offBy threshold: Int = 8) {
        precondition(a.width == b.width && a.height == b.height)
        var sums = (0, 0, 0, 0)
        var off = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                var i = 0
                while i < p.count {
                    let d0 = abs(Int(p[i]) - Int(q[i])), d1 = abs(Int(p[i + 1]) - Int(q[i + 1]))
                    let d2 = abs(Int(p[i + 2]) - Int(q[i + 2])), d3 = abs(Int(p[i + 3]) - Int(q[i + 3]))
                    sums.0 += d0; sums.1 += d1; sums.2 += d2; sums.3 += d3
                    if max(max(d0, d1), max(d2, d3)) > threshold { off += 1 }
                    i += 4
                }
            }
        }
        let pixels = Double(max(a.width * a.height, 1))
        meanPerChannel = [sums.0, sums.1, sums.2, sums.3].map { Double($0) / pixels }
        offShare = Double(off) / pixels
    }
}

extension Bitmap {
    /// rlottie 0.1 draws image layers at 253/255 of their alpha (solid layers reach 255): the pixels scaled back by
    /// 255/253, clamped.
    func undoingRLottieImageAlpha() -> Bitmap {
        var out = self
        out.pixels.withUnsafeMutableBufferPointer { p in
            for i in p.indices { p[i] = UInt8(min(255, (Int(p[i]) * 255 + 126) / 253)) }
        }
        return out
    }

    /// A 3 × 3 box blur (edges clamped): what is left of a picture once half-pixel sampling differences —
    /// rlottie samples textures at the nearest texel, Keyframe bilinearly — are averaged out.
    func boxBlurred() -> Bitmap {
        var out = Bitmap(width: width, height: height)
        let w = width, h = height
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let rows = [max(y - 1, 0), y, min(y + 1, h - 1)]
                    for x in 0..<w {
                        let columns = (max(x - 1, 0), x, min(x + 1, w - 1))
                        for c in 0..<4 {
                            var sum = 0
                            for row in rows {
                                let base = row * w
                                sum += Int(src[(base + columns.0) * 4 + c]) + Int(src[(base + columns.1) * 4 + c])
                                    + Int(src[(base + columns.2) * 4 + c])
                            }
                            dst[(y * w + x) * 4 + c] = UInt8((sum + 4) / 9)
                        }
                    }
                }
            }
        }
        return out
    }
}
