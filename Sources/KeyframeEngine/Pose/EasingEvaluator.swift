import KeyframeModel

/// Evaluates a model `Easing` at a segment's time fraction: the eased progress between two keyframes.
public enum EasingEvaluator {
    /// The eased progress for time fraction `p` in 0…1; `Easing/hold` gives 0 (the value stays). Cubic Béziers
    /// use the engine's solver (within 1e-9 of the exact curve); every other easing is the model's own definition
    /// (`Easing/closedFormProgress(at:)`).
    public static func progress(_ easing: Easing, at p: Double) -> Double {
        if case .cubicBezier(let x1, let y1, let x2, let y2) = easing {
            return CubicBezier(x1, y1, x2, y2).progress(at: p)
        }
        return easing.closedFormProgress(at: p) ?? p
    }
}
