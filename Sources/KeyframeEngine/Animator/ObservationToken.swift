/// Identifies one observer registration, for removing it again.
public struct ObservationToken: Hashable, Sendable {
    let id: Int
}
