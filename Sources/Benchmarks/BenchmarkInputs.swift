import Foundation
import KeyframeRender

/// The exports a benchmark measures.
public enum BenchmarkInputs {
    /// `inputs` as folders, or, when there are none, every folder inside `defaultFolder` (sorted by name).
    public static func folders(_ inputs: [String], defaultFolder: String) throws(BenchmarkError) -> [URL] {
        if !inputs.isEmpty { return inputs.map { URL(fileURLWithPath: $0) } }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: defaultFolder)) ?? []
        guard !names.isEmpty else { throw BenchmarkError("no inputs given and \(defaultFolder) not found") }
        let root = URL(fileURLWithPath: defaultFolder)
        return names.sorted().map { root.appendingPathComponent($0) }.filter { url in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// The first clip of `scene`, its frames played again from the start until there are `frames` of them, numbered
    /// in order; `nil` when the document has no clip.
    static func loopedFirstClip(of scene: RenderScene, frames: Int) throws(RenderError) -> [FramePlan]? {
        guard let clip = scene.document.clips.first else { return nil }
        let rate = scene.document.frameRate
        let all = try FramePlan.plans(for: clip, documentRate: rate, fps: rate.framesPerSecond, selection: .all)
        guard !all.isEmpty else { return [] }
        var plans: [FramePlan] = []
        plans.reserveCapacity(frames)
        while plans.count < frames {
            var copy = all[plans.count % all.count]
            copy.number = plans.count
            plans.append(copy)
        }
        return plans
    }
}
