import Foundation
import KeyframeFiles
import KeyframeEngine
import KeyframeModel

/// One document ready to render: its pose sampler and its decoded atlases.
public struct RenderScene: Sendable {
    /// Samples the document's poses.
    public let sampler: PoseSampler
    /// The document's atlas images and sprites.
    public let library: AtlasLibrary

    /// Prepares `document`, decoding its atlas images from `assetsFolder`.
    public init(document: Document, assetsFolder: URL) throws(RenderError) {
        try self.init(document: document, assetsFolder: InputFolder(assetsFolder.path))
    }

    /// Prepares `document`, decoding its atlas images from `assetsFolder` (paths resolved inside it, errors naming
    /// files with its display name).
    public init(document: Document, assetsFolder: InputFolder) throws(RenderError) {
        self.sampler = PoseSampler(document: document)
        self.library = try AtlasLibrary(document: document, folder: assetsFolder)
    }

    /// Prepares `document` with atlases already decoded.
    public init(document: Document, library: AtlasLibrary) {
        self.init(sampler: PoseSampler(document: document), library: library)
    }

    /// A scene of a sampler and atlases already made (an exporter that samples the same document for other needs).
    public init(sampler: PoseSampler, library: AtlasLibrary) {
        self.sampler = sampler
        self.library = library
    }

    /// The document.
    public var document: Document { sampler.document }
}
