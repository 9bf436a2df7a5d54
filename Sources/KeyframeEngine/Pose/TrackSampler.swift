import KeyframeModel

/// Values that tracks can interpolate between keyframes.
public protocol Interpolatable {
    /// The value a fraction `t` of the way from `self` to `other` (t may leave 0…1 for overshooting eases).
    func interpolated(to other: Self, at t: Double) -> Self
}

extension Double: Interpolatable {
    public func interpolated(to other: Double, at t: Double) -> Double { self + (other - self) * t }
}

extension Vector2: Interpolatable {
    public func interpolated(to other: Vector2, at t: Double) -> Vector2 {
        Vector2(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }
}

extension Degrees: Interpolatable {
    public func interpolated(to other: Degrees, at t: Double) -> Degrees { Degrees(value + (other.value - value) * t) }
}

extension ColorTransform: Interpolatable {
    public func interpolated(to o: ColorTransform, at t: Double) -> ColorTransform {
        func l(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        return ColorTransform(
            redMultiplier: l(redMultiplier, o.redMultiplier), greenMultiplier: l(greenMultiplier, o.greenMultiplier),
            blueMultiplier: l(blueMultiplier, o.blueMultiplier), alphaMultiplier: l(alphaMultiplier, o.alphaMultiplier),
            redOffset: l(redOffset, o.redOffset), greenOffset: l(greenOffset, o.greenOffset),
            blueOffset: l(blueOffset, o.blueOffset), alphaOffset: l(alphaOffset, o.alphaOffset))
    }
}

extension Track {
    /// The held value at `frame`: the last keyframe at or before it (the first keyframe's value before it).
    ///
    /// Inlinable (as ``Track/keyframeIndex(at:)``) so that callers outside the engine, such as the exporters that
    /// read content and draw-order tracks at every key, get a copy specialized for the value type.
    @inlinable
    public func heldValue(at frame: Frames) -> Value? {
        guard !keyframes.isEmpty else { return nil }
        return keyframes[keyframeIndex(at: frame) ?? 0].value
    }

    /// The held keyframe at `frame` and the frame where the next keyframe starts (if any).
    @inlinable
    public func heldKeyframe(at frame: Frames) -> (keyframe: Keyframe<Value>, next: Frames?)? {
        guard !keyframes.isEmpty else { return nil }
        let index = keyframeIndex(at: frame) ?? 0
        return (keyframes[index], index + 1 < keyframes.count ? keyframes[index + 1].frame : nil)
    }
}

extension Track where Value: Interpolatable {
    /// The value at `frame`, interpolated with each segment's easing.
    ///
    /// Inlinable so that callers outside the engine (the exporters key source tracks with it) get a copy
    /// specialized for the value type instead of a generic call that looks up type metadata; keyframes are read in
    /// place rather than copied out of the array.
    @inlinable
    public func value(at frame: Frames) -> Value? {
        guard !keyframes.isEmpty else { return nil }
        guard let index = keyframeIndex(at: frame) else { return keyframes[0].value }
        guard index + 1 < keyframes.count, keyframes[index].easing.interpolates else { return keyframes[index].value }
        let start = keyframes[index].frame.value
        let span = keyframes[index + 1].frame.value - start
        guard span > 0 else { return keyframes[index].value }
        let p = (frame.value - start) / span
        return keyframes[index].value.interpolated(
            to: keyframes[index + 1].value, at: EasingEvaluator.progress(keyframes[index].easing, at: p))
    }
}
