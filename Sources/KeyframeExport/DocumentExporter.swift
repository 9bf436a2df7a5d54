import Foundation
import KeyframeFiles
import KeyframeModel
import KeyframeRender

/// Turns a normalized document into files of one ``ExportFormat``, in memory.
///
/// Exporters never write: `keyframe export` and `keyframe batch` write what they return, atomically, so that every
/// format gets the same output rules (temporary file and rename, no half-written file, nothing replaced that is not
/// a regular file).
public protocol DocumentExporter: Sendable {
    /// The format this exporter writes.
    var format: ExportFormat { get }

    /// Exports the clips `options` names (every clip by default).
    ///
    /// - Parameters:
    ///   - document: the normalized document.
    ///   - assetsFolder: where the document's atlas images are: image paths are resolved inside it
    ///     (`AtlasLibrary/imageFile(_:index:in:)`), and errors name them with its display name.
    ///   - options: the clips, profile and settings of the export.
    /// - Throws: ``ExportError`` for an unknown clip, an unreadable atlas image or one outside `assetsFolder`, or
    ///   warnings under `strict`.
    func export(_ document: Document, assetsFolder: InputFolder, options: ExportOptions) throws(ExportError)
        -> ExportResult
}

extension DocumentExporter {
    /// ``export(_:assetsFolder:options:)`` with the images in the folder at `assetsFolder`.
    public func export(_ document: Document, assetsFolder: URL, options: ExportOptions) throws(ExportError)
        -> ExportResult
    {
        try export(document, assetsFolder: InputFolder(assetsFolder.path), options: options)
    }
}

/// The exporters this build of Keyframe has, by format.
public enum Exporters {
    /// The exporter for `format`, or `nil` when this build has none yet.
    public static func exporter(for format: ExportFormat) -> (any DocumentExporter)? {
        switch format {
        case .lottie: return LottieExporter()
        case .coreAnimation: return CoreAnimationExporter()
        case .spriteSheet: return SpriteSheetExporter()
        }
    }

    /// The formats that have an exporter.
    public static var available: [ExportFormat] { ExportFormat.allCases.filter { exporter(for: $0) != nil } }
}
