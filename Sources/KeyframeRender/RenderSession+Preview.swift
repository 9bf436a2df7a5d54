import Foundation
import KeyframeModel

extension RenderSession {
    /// The preview of an export: a contact sheet of up to 12 frames per clip at 4 fps, its content framed, in
    /// 96-pixel cells, written to `contactSheet` and no frames. What `keyframe batch --render-previews` bundles per
    /// export and `keyframe render --preview-sheet` writes (the Bazel rule's `preview`), so both are the same bytes.
    public static func preview(of scene: RenderScene, to contactSheet: URL) -> RenderSession {
        var session = RenderSession(scene: scene)
        session.fit = .content
        session.fps = 4
        // With one clip, a range past its end is an error; with several, each renders what it has.
        let document = scene.document
        let last = document.clips.count == 1
            ? min(11, FramePlan.frameCount(of: document.clips[0], documentRate: document.frameRate, fps: 4) - 1)
            : 11
        session.selection = .range(0...max(0, last))
        session.thumbnailSide = 96
        session.contactSheet = contactSheet
        return session
    }
}
