/// What one clip's Lottie export keeps exactly, approximates or drops, for the export summary and `--lottie-report`.
public struct LottieReport: Sendable, Equatable {
    /// Image layers written.
    public var layers = 0
    /// Image assets (pictures after deduplication and baked tints).
    public var images = 0
    /// Layers whose skewed transform was rebuilt as a parent null and a rotated child.
    public var skewRewrites = 0
    /// Layers whose skewed transform is written with Lottie's own skew (`sk`, `full`).
    public var skews = 0
    /// Transform and opacity properties keyed at the source's own keyframes with its easing (not sampled).
    public var sourceKeyedProperties = 0
    /// Layers showing a picture with its colour transform baked in.
    public var bakedTints = 0
    /// Distinct pictures of filtered nodes drawn as `keyframe render` draws them (filters, and what the node shows,
    /// baked in at the canvas's size).
    public var bakedFilterPictures = 0
    /// Layers clipped by a track matte (`full`).
    public var mattes = 0
    /// Layers clipped by layer mask paths (`portable`).
    public var masks = 0
    /// Precomp layers (nested compositions with their time remap).
    public var precomps = 0
    /// Mesh triangles written, each a masked precomp layer showing its picture under an affine map.
    public var meshTriangles = 0
    /// Why the clip was written flattened (the `lottie-flattened` diagnostic), `nil` when it keeps its structure.
    public var flattened: String? = nil
    /// Nodes drawn approximately (blend mode, nested masks, draw order), by path.
    public var approximated: Set<String> = []
    /// Nodes left out (filters), by path.
    public var dropped: Set<String> = []
    /// How far each measured entry of ``approximated`` and ``dropped`` moves the clip's frames from `keyframe render`.
    public var errors: [String: ApproximationError] = [:]

    public init() {}

    /// One line: `exact: …; approximated: …; dropped: …`.
    public var summary: String {
        var text = "\(layers) image layers, \(images) images"
        if precomps > 0 { text += ", \(precomps) precomp layers" }
        if meshTriangles > 0 { text += ", \(meshTriangles) mesh triangles" }
        if let flattened { text += ", flattened (\(flattened))" }
        if skewRewrites > 0 { text += ", \(skewRewrites) skew rewrites" }
        if skews > 0 { text += ", \(skews) skewed layers (sk)" }
        if bakedTints > 0 { text += ", \(bakedTints) baked tints" }
        if bakedFilterPictures > 0 { text += ", \(bakedFilterPictures) baked filter pictures" }
        if mattes > 0 { text += ", \(mattes) track mattes" }
        if masks > 0 { text += ", \(masks) masked layers" }
        func list(_ entries: Set<String>) -> String {
            entries.isEmpty ? "none" : entries.sorted().map { entry in
                errors[entry].map { "\(entry) [\($0)]" } ?? entry
            }.joined(separator: ", ")
        }
        text += "; approximated: \(list(approximated))"
        text += "; dropped: \(list(dropped))"
        return text
    }
}
