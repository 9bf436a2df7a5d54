import Foundation
import KeyframeEngine
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// What a document's meshes would cost as baked pictures instead of triangle layers, measured.
///
/// Every mesh item each clip shows is drawn alone by `keyframe render`'s renderer on the Lottie export's canvas
/// (`PoseBaker`: trimmed to its pixels, one picture per distinct pose, identical pixels merged), and the pictures are
/// encoded with the export's PNG preset. `keyframe bench export --meshes` prints it beside the triangle form's bytes:
/// the measurement a per-mesh choice between the two forms rests on (docs/performance.md, "Meshes").
public struct MeshBakingEstimate: Sendable, Equatable {
    /// Mesh items shown over every clip's frames (one per mesh and frame).
    public var meshItems = 0
    /// Distinct pictures over all clips (each clip bakes on its own canvas).
    public var pictures = 0
    /// The pictures' encoded bytes.
    public var pictureBytes = 0

    /// No meshes measured yet.
    public init() {}

    /// Measures the meshes of `document` (atlases in `assetsFolder`) for every clip `options` exports.
    public static func measure(_ document: Document, assetsFolder: URL, options: ExportOptions = ExportOptions())
        throws(ExportError) -> MeshBakingEstimate
    {
        var estimate = MeshBakingEstimate()
        guard !document.assets.meshes.isEmpty else { return estimate }
        let library: AtlasLibrary
        do {
            library = try AtlasLibrary(document: document, folder: assetsFolder)
        } catch {
            throw ExportError(message: "\(error)")
        }
        let drawing = library.withMipmaps()
        let sampler = PoseSampler(document: document)
        var encoder = PNGEncoder(options: PNGEncodingOptions(preset: options.pictures))
        for clip in try LottieExporter.chosenClips(document, options: options) {
            let plans: [FramePlan]
            let framing: Framing
            do {
                plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
                let poses = plans.enumerated().map { index, plan in
                    sampler.sample(clip: clip, time: plan.layers.first?.time ?? Frames(Double(index)))
                }
                framing = try Framing.make(poses: poses, scene: RenderScene(sampler: sampler, library: library),
                                           fit: .stage, size: nil).framing
                var baker = PoseBaker(library: drawing, framing: framing)
                for pose in poses {
                    for index in pose.items.indices where pose.items[index].mesh != nil {
                        estimate.meshItems += 1
                        _ = baker.bake(pose, items: index..<(index + 1))
                    }
                }
                estimate.pictures += baker.pictures.count
                for picture in baker.pictures { estimate.pictureBytes += try encoder.encode(picture).count }
            } catch {
                throw ExportError(message: "clip \"\(clip.name)\": \(error)")
            }
        }
        return estimate
    }
}
