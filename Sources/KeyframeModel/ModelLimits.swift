/// The one depth and size budget of the model: every importer and the normalized reader refuse more with a located
/// error, so that no input — a 100,000-bone chain, a million animators — costs unbounded time or memory later.
///
/// | budget | what it bounds |
/// |---|---|
/// | ``maximumNesting`` | Animate symbols, Flump movies, DragonBones bones (parent chains), a composition's node parent chains |
/// | ``maximumNodes`` | nodes of one composition; bones and slots of one armature |
/// | ``maximumKeyframes`` | keyframes of one track |
/// | ``maximumAnimators`` | animators of one script |
/// | ``maximumTimelineFrames`` | a timeline's length in frames |
public enum ModelLimits {
    /// How deep anything may nest: symbols in symbols, movies in movies, bones under bones, nodes under nodes.
    public static let maximumNesting = 256
    /// The most nodes one composition holds (and bones or slots one armature declares).
    public static let maximumNodes = 100_000
    /// The most keyframes one track holds.
    public static let maximumKeyframes = 1_000_000
    /// The most animators one script declares.
    public static let maximumAnimators = 1_000_000
    /// The longest timeline accepted, in frames.
    public static let maximumTimelineFrames = 100_000
}
