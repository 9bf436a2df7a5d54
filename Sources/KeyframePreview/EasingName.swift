import KeyframeModel

/// An easing in words for the preview's curves, as the source means it: Flash's and DragonBones' `tweenEasing`
/// strength is positive for an ease-out, Flump's `ease` positive for an ease-in (the opposite sign, see ``Easing``),
/// and a curve that is the identity is linear whatever its spelling (``Easing/isLinear``).
enum EasingName {
    /// `linear`, `hold`, `ease out 40 % (Flash quadratic 0.4)`, `cubic Bézier (0.42, 0, 0.58, 1)`, …; the last
    /// keyframe of a track holds.
    static func of(_ easing: Easing, last: Bool) -> String {
        if last { return "hold (last keyframe)" }
        if case .hold = easing { return "hold" }
        if easing.isLinear { return "linear" }
        func n(_ v: Double) -> String {
            let r = (v * 1000).rounded() / 1000
            return r == r.rounded() ? String(Int(r)) : String(r)
        }
        func percent(_ v: Double) -> String { n(abs(v) * 100) + " %" }
        switch easing {
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return "cubic Bézier (\(n(x1)), \(n(y1)), \(n(x2)), \(n(y2)))"
        case .bezierPath(let points, let steps):
            let segments = max(1, (points.count - 1) / 3)
            return "custom ease (\(segments) Bézier segment\(segments == 1 ? "" : "s")"
                + (steps.map { ", sampled in \($0) steps" } ?? "") + ")"
        case .flashQuadratic(let strength):
            return "\(strength > 0 ? "ease out" : "ease in") \(percent(strength)) (quadratic \(n(strength)))"
        case .quadraticInOut(let strength):
            return "ease in-out \(percent(strength)) (QuadInOut)"
        case .flumpQuadratic(let ease):
            return "\(ease > 0 ? "ease in" : "ease out") \(percent(ease)) (Flump ease \(n(ease)))"
        case .hold, .linear:
            return "linear"
        }
    }
}
