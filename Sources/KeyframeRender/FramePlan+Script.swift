import KeyframeEngine
import KeyframeModel

extension FramePlan {
    /// One frame per tick of a played animator script: every clip an animator presents at that tick (its own
    /// target, then clips added mid-flight), in the script's declaration order, back to front.
    ///
    /// - Parameters:
    ///   - ticks: the ticks of `ScriptRunner/run(fps:until:)`.
    ///   - scenes: index of the scene for each document path the ticks carry (`ScriptClipTime/documentPath`).
    ///   - documents: the scenes' documents, by the same index, to look clips up by name.
    /// - Throws: ``RenderError`` when a tick names a document or clip that was not provided.
    public static func plans(for ticks: [ScriptTick], scenes: [String: Int], documents: [Document])
        throws(RenderError) -> [FramePlan]
    {
        var clipCache: [String: Clip] = [:]
        func layer(_ time: ScriptClipTime) throws(RenderError) -> Layer {
            guard let scene = scenes[time.documentPath], documents.indices.contains(scene) else {
                throw RenderError(.invalidSetting("the script names \(time.documentPath), which was not loaded"))
            }
            let key = "\(scene)\u{0}\(time.clipName)"
            let clip: Clip
            if let cached = clipCache[key] {
                clip = cached
            } else {
                guard let found = documents[scene].clip(named: time.clipName) else {
                    throw RenderError(.unknownClip(name: time.clipName, available: documents[scene].clips.map(\.name)))
                }
                clipCache[key] = found
                clip = found
            }
            return Layer(scene: scene, clip: clip, time: time.frames)
        }
        var plans: [FramePlan] = []
        plans.reserveCapacity(ticks.count)
        for tick in ticks {
            var layers: [Layer] = []
            for sample in tick.animators {
                if let time = sample.clip { layers.append(try layer(time)) }
                for added in sample.added {
                    if let time = added.clipTime { layers.append(try layer(time)) }
                }
            }
            plans.append(FramePlan(number: tick.index, seconds: tick.time.value, layers: layers))
        }
        return plans
    }
}
