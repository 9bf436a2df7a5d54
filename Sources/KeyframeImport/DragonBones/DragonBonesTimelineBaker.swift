import Foundation
import KeyframeModel

/// Bakes a DragonBones timeline that has its own `scale` or `offset` (a different speed or phase than its
/// animation) into one keyframe per document frame.
///
/// The runtime maps the animation's time `u` (in the animation's frames) to the timeline's time
/// `l = (u / scale + offset · D) mod D` (`D` the animation's length; a finite animation's last play ends at `D`).
/// The model has no per-track time mapping, so the timeline is evaluated at every whole document frame with the
/// runtime's rules (keyframe easing included) and the values are joined linearly; the frames a player steps through
/// are exact, in-between times are approximated.
enum DragonBonesTimelineBaker {
    /// Whether a timeline's scale and offset (as the runtime rounds them, to hundredths) change its timing.
    static func isShifted(scale: Double, offset: Double) -> Bool {
        (scale * 100).rounded() != 100 || (offset * 100).rounded() != 0
    }

    /// `track`, built in the animation's own frames, baked onto document frames.
    ///
    /// - Parameters:
    ///   - length: the animation's length in its own frames.
    ///   - frameScale: document frames per animation frame.
    ///   - playTimes: the animation's play count (0 = forever).
    ///   - frames: how many document frames to bake (0…frames).
    ///   - lerp: interpolation of the value, or `nil` for held values.
    static func bake<V: Hashable & Sendable>(_ track: Track<V>, scale: Double, offset: Double, length: Int,
                                             frameScale: Double, playTimes: Int, frames: Int,
                                             lerp: ((V, V, Double) -> V)?) -> Track<V> {
        guard !track.keyframes.isEmpty else { return track }
        let timeScale = 100 / max((scale * 100).rounded(), 1)
        let timeOffset = (offset * 100).rounded() * 0.01
        let d = Double(length)
        var result = Track<V>()
        result.keyframes.reserveCapacity(max(frames, 0) + 1)
        for f in 0...max(frames, 0) {
            let u = Double(f) / frameScale
            var passed = u * timeScale + timeOffset * d
            if d > 0 {
                if playTimes > 0 && passed >= Double(playTimes) * d {
                    passed = d
                } else {
                    passed = passed.truncatingRemainder(dividingBy: d)
                }
            }
            let value = evaluate(track, at: passed, lerp: lerp)
            result.append(Keyframe(frame: Frames(Double(f)), value: value, easing: lerp == nil ? .hold : .linear))
        }
        return result
    }

    /// The track's value at `frame` with each segment's easing (the runtime's evaluation of one timeline).
    static func evaluate<V>(_ track: Track<V>, at frame: Double, lerp: ((V, V, Double) -> V)?) -> V {
        let keyframes = track.keyframes
        let index = track.keyframeIndex(at: Frames(frame)) ?? 0
        let keyframe = keyframes[index]
        guard let lerp, index + 1 < keyframes.count, keyframe.easing.interpolates else { return keyframe.value }
        let next = keyframes[index + 1]
        let span = next.frame.value - keyframe.frame.value
        guard span > 0 else { return keyframe.value }
        let p = min(max((frame - keyframe.frame.value) / span, 0), 1)
        // DragonBones produces no `.cubicBezier`; every easing it does produce has the model's closed form.
        return lerp(keyframe.value, next.value, keyframe.easing.closedFormProgress(at: p) ?? p)
    }

    static func lerpVector(_ a: Vector2, _ b: Vector2, _ t: Double) -> Vector2 {
        Vector2(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    static func lerpDegrees(_ a: Degrees, _ b: Degrees, _ t: Double) -> Degrees { Degrees(a.value + (b.value - a.value) * t) }

    static func lerpColor(_ a: ColorTransform, _ b: ColorTransform, _ t: Double) -> ColorTransform {
        func l(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        return ColorTransform(
            redMultiplier: l(a.redMultiplier, b.redMultiplier), greenMultiplier: l(a.greenMultiplier, b.greenMultiplier),
            blueMultiplier: l(a.blueMultiplier, b.blueMultiplier), alphaMultiplier: l(a.alphaMultiplier, b.alphaMultiplier),
            redOffset: l(a.redOffset, b.redOffset), greenOffset: l(a.greenOffset, b.greenOffset),
            blueOffset: l(a.blueOffset, b.blueOffset), alphaOffset: l(a.alphaOffset, b.alphaOffset))
    }

    static func lerpDeform(_ a: MeshDeform, _ b: MeshDeform, _ t: Double) -> MeshDeform {
        guard a.mesh == b.mesh, a.offsets.count == b.offsets.count else { return a }
        return MeshDeform(mesh: a.mesh, offsets: zip(a.offsets, b.offsets).map { $0 + ($1 - $0) * t })
    }
}
