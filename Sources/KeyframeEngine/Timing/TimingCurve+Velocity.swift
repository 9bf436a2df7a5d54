extension TimingCurve {
    /// The curve with its initial velocity removed (springs restart at rest).
    var atRest: TimingCurve {
        if case .spring(let timing) = self { return .spring(timing.withInitialVelocity(0)) }
        return self
    }

    /// The curve with a spring's distance-normalised velocity rescaled to a remaining distance.
    func velocityScaled(toDistance distance: Double) -> TimingCurve {
        guard case .spring(let timing) = self else { return self }
        let magnitude = abs(distance)
        let velocity = magnitude > 1e-9 ? timing.spring.initialVelocity / magnitude : 0
        return .spring(timing.withInitialVelocity(velocity))
    }
}
