import KeyframeRaster

/// How far two frames are apart, in the terms of the Lottie conformance criterion: the mean absolute difference
/// per channel (0–255 scale) and the share of pixels whose largest channel difference exceeds 8/255.
struct FrameDifference {
    var meanPerChannel: [Double]
    var offShare: Double

    /// The criterion: every channel's mean ≤ 1/255 and at most 2 % of pixels off by more than 8/255.
    var passes: Bool { meanPerChannel.allSatisfy { $0 <= 1 } && offShare <= 0.02 }

    var worstMean: Double { meanPerChannel.max() ?? 0 }

    init(_ a: Bitmap, _ b: Bitmap, offBy threshold: Int = 8) {
        precondition(a.width == b.width && a.height == b.height)
        var sums = [0, 0, 0, 0]
        var off = 0
        let p = a.pixels, q = b.pixels
        var i = 0
        while i < p.count {
            var worst = 0
            for c in 0..<4 {
                let d = abs(Int(p[i + c]) - Int(q[i + c]))
                sums[c] += d
                worst = max(worst, d)
            }
            if worst > threshold { off += 1 }
            i += 4
        }
        let pixels = Double(max(a.width * a.height, 1))
        meanPerChannel = sums.map { Double($0) / pixels }
        offShare = Double(off) / pixels
    }
}

extension Bitmap {
    /// rlottie 0.1 draws image layers at 253/255 of their alpha (its texture path scales by `alpha * 255 >> 8`
    /// style arithmetic; solid layers reach 255): the pixels scaled back by 255/253, clamped.
    func undoingRLottieImageAlpha() -> Bitmap {
        var out = self
        for i in out.pixels.indices {
            out.pixels[i] = UInt8(min(255, (Double(out.pixels[i]) * 255 / 253).rounded()))
        }
        return out
    }

    /// A 3 × 3 box blur (edges clamped): what is left of a picture once half-pixel sampling differences —
    /// rlottie samples textures at the nearest texel, Keyframe bilinearly — are averaged out.
    func boxBlurred() -> Bitmap {
        var out = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var sums = [0, 0, 0, 0]
                for dy in -1...1 {
                    for dx in -1...1 {
                        let sx = Swift.min(Swift.max(x + dx, 0), width - 1), sy = Swift.min(Swift.max(y + dy, 0), height - 1)
                        let i = (sy * width + sx) * 4
                        for c in 0..<4 { sums[c] += Int(pixels[i + c]) }
                    }
                }
                let o = (y * width + x) * 4
                for c in 0..<4 { out.pixels[o + c] = UInt8((sums[c] + 4) / 9) }
            }
        }
        return out
    }
}
