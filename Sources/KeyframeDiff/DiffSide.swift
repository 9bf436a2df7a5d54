import KeyframeModel
import KeyframeRender

/// One of the two versions `keyframe diff` compares: a document and, when its atlas images could be read, the
/// decoded pictures (for comparing sprite pixels and drawing frames).
public struct DiffSide: Sendable {
    /// How the side is named in reports: the path as the user gave it.
    public var label: String
    /// The document.
    public var document: Document
    /// The document ready to draw, or `nil` when its images are not available (then sprites are compared by size
    /// and origin only, and no frames are drawn).
    public var scene: RenderScene?
    /// Why ``scene`` is `nil`, for the report.
    public var missingImages: String?

    public init(label: String, document: Document, scene: RenderScene?, missingImages: String? = nil) {
        self.label = label
        self.document = document
        self.scene = scene
        self.missingImages = missingImages
    }
}
