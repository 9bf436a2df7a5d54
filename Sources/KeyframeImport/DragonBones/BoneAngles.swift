/// DragonBones' angle rules: wrapping into −π…π and unwrapping keyframe rotations for tweening (shortest path, or
/// forced turns from `clockwise`/`tweenRotate`).
enum BoneAngles {
    /// `(v + π) mod 2π` shifted back by π, with the remainder's sign following `v` as in the runtime.
    static func normalized(_ value: Double) -> Double {
        var v = (value + .pi).truncatingRemainder(dividingBy: 2 * .pi)
        v += v > 0 ? -.pi : .pi
        return v
    }

    /// Rotations (radians) made continuous the runtime's way: each keyframe after the first moves by the shortest
    /// turn from the previous one, unless the previous keyframe asks for turns (positive = clockwise).
    static func unwrap(_ angles: [(rotation: Double, skew: Double)], clockwise: [Double]) -> [(rotation: Double, skew: Double)] {
        var result = angles
        var previous = 0.0
        var turns = 0.0
        for index in angles.indices {
            var rotation = angles[index].rotation
            if index > 0 {
                if turns == 0 {
                    rotation = previous + normalized(rotation - previous)
                } else {
                    if turns > 0 ? rotation >= previous : rotation <= previous { turns += turns > 0 ? -1 : 1 }
                    rotation = rotation + 2 * .pi * turns
                }
            }
            turns = clockwise[index]
            previous = rotation
            result[index].rotation = rotation
        }
        return result
    }
}
