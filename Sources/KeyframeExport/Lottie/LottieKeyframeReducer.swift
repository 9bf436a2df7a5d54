import KeyframeJSON

/// Reduces a property sampled at every frame to the fewest linear and hold keyframes that reproduce every sample
/// within a tolerance.
///
/// The export samples the model's pose at every frame of the clip, so easings Lottie cannot express (Flash
/// quadratic, springs, DragonBones sampled curves) and transforms composed through several levels come out exactly
/// at every frame; the reduction then keeps a keyframe only where linear interpolation from the last kept one
/// would miss a sample by more than the tolerance. Intervals where the source holds its value (the pose halfway
/// through the frame equals the pose at its start) become hold keyframes, so players that show in-between frames do
/// not invent motion the source does not have.
struct LottieKeyframeReducer {
    /// Largest error allowed per component, in the property's own units.
    var tolerance: [Double]

    /// The indices of the samples to keep as keyframes, each with whether it holds until the next one.
    ///
    /// - Parameters:
    ///   - samples: one vector per frame, consecutive frames.
    ///   - held: per interval `i → i + 1` (count `samples.count - 1`), whether the source holds sample `i` over it.
    func reduce(_ samples: [[Double]], held: [Bool]) -> [(index: Int, hold: Bool)] {
        guard samples.count > 1 else { return samples.isEmpty ? [] : [(0, false)] }
        var kept: [(index: Int, hold: Bool)] = []
        var start = 0
        while start < samples.count - 1 {
            if held[start] {
                // A held interval: keep the value until the next frame, then continue from there.
                var end = start + 1
                while end < samples.count - 1, held[end], close(samples[end], samples[start]) { end += 1 }
                kept.append((start, true))
                start = end
                continue
            }
            var end = start + 1
            while end + 1 < samples.count, !held[end], fits(samples, from: start, to: end + 1) { end += 1 }
            kept.append((start, false))
            start = end
        }
        kept.append((samples.count - 1, false))
        return kept
    }

    private func close(_ a: [Double], _ b: [Double]) -> Bool {
        for k in a.indices where abs(a[k] - b[k]) > tolerance[k] { return false }
        return true
    }

    /// Whether linear interpolation between samples `from` and `to` passes within tolerance of every sample between.
    private func fits(_ samples: [[Double]], from: Int, to: Int) -> Bool {
        let a = samples[from], b = samples[to]
        let span = Double(to - from)
        for i in (from + 1)..<to {
            let p = Double(i - from) / span
            for k in a.indices where abs(a[k] + (b[k] - a[k]) * p - samples[i][k]) > tolerance[k] { return false }
        }
        return true
    }

    /// A Lottie animatable property: static (`a: 0`) when every sample is within tolerance of the first, otherwise
    /// keyframes at the kept samples. `frames[i]` is sample `i`'s composition frame; scalars are written as numbers
    /// when static (`scalar`), as one-element arrays in keyframes (the specification's keyframe `s` is a vector).
    func property(_ samples: [[Double]], held: [Bool], frames: [Int], scalar: Bool) -> JSONValue {
        property(samples, held: held, times: frames.map(Double.init), scalar: scalar)
    }

    /// ``property(_:held:frames:scalar:)`` with keyframe times that need not be whole frames; `animated` writes
    /// keyframes even for a value that never changes (rlottie 0.1 ignores a static time remap).
    func property(_ samples: [[Double]], held: [Bool], times frames: [Double], scalar: Bool, animated: Bool = false,
                  precision: Double = 1_000_000) -> JSONValue {
        func clean(_ v: Double) -> Double { LottieKeyframeReducer.clean(v, precision: precision) }
        func value(_ v: [Double]) -> JSONValue {
            scalar ? .number(clean(v[0])) : .array(v.map { .number(clean($0)) })
        }
        if animated && samples.count == 1 {
            // One sample, written as a held keyframe and its end a frame later.
            let v = JSONValue.array(samples[0].map { .number(clean($0)) })
            return .object(["a": 1, "k": [.object(["t": .number(clean(frames[0])), "s": v, "h": 1]),
                                          .object(["t": .number(clean(frames[0] + 1)), "s": v])]])
        }
        if !animated || samples.count < 2, samples.allSatisfy({ close($0, samples[0]) }) {
            return .object(["a": 0, "k": value(samples[0])])
        }
        var kept = reduce(samples, held: held)
        if kept.count < 2 { kept = [(0, false), (samples.count - 1, false)] }
        let dimension = samples[0].count
        var keyframes: [JSONValue] = []
        for (position, entry) in kept.enumerated() {
            var keyframe: JSONObject = [
                "t": .number(clean(frames[entry.index])),
                "s": .array(samples[entry.index].map { .number(clean($0)) }),
            ]
            if position < kept.count - 1 {
                if entry.hold {
                    keyframe["h"] = 1
                } else {
                    let zeros = JSONValue.array(Array(repeating: 0, count: dimension))
                    let ones = JSONValue.array(Array(repeating: 1, count: dimension))
                    keyframe["o"] = .object(["x": zeros, "y": zeros])
                    keyframe["i"] = .object(["x": ones, "y": ones])
                }
            }
            keyframes.append(.object(keyframe))
        }
        return .object(["a": 1, "k": .array(keyframes)])
    }

    /// `value` rounded to 1/10⁶ (far below any tolerance) so files do not carry 17-digit noise; `-0` becomes `0`.
    static func clean(_ value: Double, precision: Double = 1_000_000) -> Double {
        let rounded = (value * precision).rounded() / precision
        return rounded == 0 ? 0 : rounded
    }
}
