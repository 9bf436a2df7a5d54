/// How a ``KeyframeTrack`` that follows a ``KeyframePath`` turns the layer (Core Animation
/// `rotationMode`; engine.md §d.6).
public enum RotationMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The layer turns to the path's direction of travel: `atan2(dy, dx)` of the tangent.
    case auto
    /// The same turned half a turn, facing back along the path.
    case autoReverse
}
