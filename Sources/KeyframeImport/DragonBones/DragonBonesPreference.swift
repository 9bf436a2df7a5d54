/// Which of a DragonBones skeleton's two spellings to read when a folder holds both a JSON skeleton and a `.dbbin`.
public enum DragonBonesPreference: String, Sendable, CaseIterable {
    /// The JSON (`.json`, `.dbjson`) skeleton.
    case json
    /// The binary (`.dbbin`) skeleton.
    case binary
}
