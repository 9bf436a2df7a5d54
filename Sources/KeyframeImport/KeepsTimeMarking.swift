import KeyframeModel

/// Marks independent-clock instances (Animate movie clips, Flump nested movies) `keepsTime` (format.md §4.7): while
/// the parent's playhead stays inside the instance's keyframe span — a one-frame button state that stops, a movie
/// shorter than the movie it holds, a layer that shows the same movie all through a looping parent — the nested
/// movie goes on playing on its own clock instead of starting again at every wrap.
///
/// Both runtimes behave so: Flump's `Layer.as` keeps the layer's current movie while the keyframes it moves to show
/// the same symbol, and Animate keeps a movie clip instance that stays on stage playing while the parent holds a
/// frame. Where the playhead leaves the span and comes back, the sampler still starts the instance again.
enum KeepsTimeMarking {
    /// Sets `keepsTime` on every independent-clock instance in `compositions`.
    static func apply(to compositions: inout [Composition]) {
        for c in compositions.indices {
            for n in compositions[c].nodes.indices {
                guard let track = compositions[c].nodes[n].tracks.content else { continue }
                for k in track.keyframes.indices {
                    guard case .composition(var instance) = track.keyframes[k].value, instance.clock == .independent
                    else { continue }
                    instance.keepsTime = true
                    compositions[c].nodes[n].tracks.content?.keyframes[k].value = .composition(instance)
                }
            }
        }
    }
}
